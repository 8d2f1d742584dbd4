// Settings' agent section against the real core, in-thread over
// fake-indexeddb: list the stored grants and memories, revoke, delete.
import { afterAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { DexieGrantStore, DexieMemoryStore } from '../../db/agent-stores';
import type { NotesAgentDatabase } from '../../db';
import type { core as CoreApi } from '../api/core-client';

vi.mock('../api/core-client', async () => {
  const { testCore } = await import('../../services/test-core');
  const current = testCore();
  return { core: current.api, subscribeJob: () => () => {}, testCore: current };
});

const { core, testCore } = (await import('../api/core-client')) as unknown as {
  core: typeof CoreApi;
  testCore: { db: NotesAgentDatabase; close: () => Promise<void> };
};
const { agentSettings } = await import('./agent-settings.svelte');
const service = await import('./agent-settings.service');
const { toasts } = await import('../toasts/toasts.svelte');

const grants = new DexieGrantStore(testCore.db);
const memories = new DexieMemoryStore(testCore.db);

beforeEach(async () => {
  agentSettings.reset();
  toasts.reset();
  for (const grant of await grants.list()) await grants.delete(grant.permission);
  for (const item of await memories.list()) await memories.delete(item.id);
});

afterAll(async () => {
  await testCore.close();
});

describe('agent settings workflows', () => {
  it('lists the always-allowed grants and revokes one', async () => {
    await grants.put({
      permission: 'notes.write',
      tool: 'update_note',
      granted_at: '2024-05-01T08:00:00.000Z',
    });
    await grants.put({
      permission: 'notes.create',
      tool: 'create_note',
      granted_at: '2024-05-02T08:00:00.000Z',
    });

    await service.refreshAgentSettings();
    expect(agentSettings.loaded).toBe(true);
    expect(agentSettings.grants.map((grant) => grant.permission)).toEqual(['notes.create', 'notes.write']);

    await service.revokeGrant('notes.write');
    expect(agentSettings.grants.map((grant) => grant.tool)).toEqual(['create_note']);
    expect((await core.agent.grants()).map((grant) => grant.permission)).toEqual(['notes.create']);
    await service.refreshAgentSettings();
    expect(agentSettings.grants.map((grant) => grant.permission)).toEqual(['notes.create']);
    expect(toasts.items).toHaveLength(0);
  });

  it('lists the memories newest first and deletes one', async () => {
    const base = { source: 'user_input', importance: 0.5 } as const;
    await memories.put({ ...base, id: 'm1', type: 'semantic', content: '用户偏好中文', createdAt: 1_000 });
    await memories.put({
      ...base,
      id: 'm2',
      type: 'episodic',
      content: 'Reviewed deadlocks',
      createdAt: 2_000,
    });

    await service.refreshAgentSettings();
    expect(agentSettings.memories.map((item) => item.id)).toEqual(['m2', 'm1']);

    await service.deleteMemory('m2');
    expect(agentSettings.memories.map((item) => item.id)).toEqual(['m1']);
    expect((await core.agent.memories()).map((item) => item.id)).toEqual(['m1']);
  });

  it('reports a grant that is already gone and re-reads the list', async () => {
    await grants.put({
      permission: 'notes.write',
      tool: 'update_note',
      granted_at: '2024-05-01T08:00:00.000Z',
    });
    await service.refreshAgentSettings();
    await grants.delete('notes.write');

    await service.revokeGrant('notes.write');
    expect(toasts.items).toHaveLength(1);
    expect(agentSettings.grants).toEqual([]);
  });
});
