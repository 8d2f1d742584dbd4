import { describe, expect, it } from 'vitest';
import type { SettingsRepository } from '../db';
import { settingsToolChoiceStore } from './agent-tool-choice';

/** A settings table in a map: the store keeps one row in it. */
function settingsInMemory(rows = new Map<string, unknown>()): SettingsRepository {
  return {
    get: async (key: string) => rows.get(key),
    put: async (key: string, value: unknown) => void rows.set(key, value),
    delete: async (key: string) => void rows.delete(key),
    entries: async () => Object.fromEntries(rows),
  } as unknown as SettingsRepository;
}

describe('settingsToolChoiceStore', () => {
  it('has nothing turned off until a tool is, then keeps the names', async () => {
    const rows = new Map<string, unknown>();
    const store = settingsToolChoiceStore(settingsInMemory(rows));
    expect(await store.disabled()).toEqual([]);
    await store.setDisabled(['notes.organise']);
    // A second store over the same rows (the next page load) reads the same choice.
    expect(await settingsToolChoiceStore(settingsInMemory(rows)).disabled()).toEqual(['notes.organise']);
  });

  it('reads a row that is not a list of names as nothing turned off', async () => {
    const rows = new Map<string, unknown>([['agent.disabled_tools', { 'notes.organise': false }]]);
    expect(await settingsToolChoiceStore(settingsInMemory(rows)).disabled()).toEqual([]);
    rows.set('agent.disabled_tools', ['notes.organise', 3, null]);
    expect(await settingsToolChoiceStore(settingsInMemory(rows)).disabled()).toEqual(['notes.organise']);
  });
});
