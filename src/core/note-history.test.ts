import { describe, expect, it } from 'vitest';
import { keepsVersion, overflow } from './note-history';

const at = (minutes: number) => new Date(Date.UTC(2026, 0, 1, 12, minutes)).toISOString();
const limits = { coalesceMs: 5 * 60_000 };

describe('keepsVersion', () => {
  it('keeps the first version of a note', () => {
    expect(keepsVersion(undefined, 'user', at(0), limits)).toBe(true);
  });

  it('coalesces typing within the window and starts a new version after it', () => {
    const latest = { origin: 'user', created_at: at(0) };
    expect(keepsVersion(latest, 'user', at(4), limits)).toBe(false);
    expect(keepsVersion(latest, 'user', at(5), limits)).toBe(true);
  });

  it('coalesces link rewrites with each other but not with typing', () => {
    expect(keepsVersion({ origin: 'rename', created_at: at(0) }, 'rename', at(1), limits)).toBe(false);
    expect(keepsVersion({ origin: 'rename', created_at: at(0) }, 'user', at(1), limits)).toBe(true);
  });

  it('coalesces link rewrites after moves with each other, apart from those after renames', () => {
    expect(keepsVersion({ origin: 'move', created_at: at(0) }, 'move', at(1), limits)).toBe(false);
    expect(keepsVersion({ origin: 'move', created_at: at(0) }, 'move', at(5), limits)).toBe(true);
    expect(keepsVersion({ origin: 'rename', created_at: at(0) }, 'move', at(1), limits)).toBe(true);
    expect(keepsVersion({ origin: 'move', created_at: at(0) }, 'rename', at(1), limits)).toBe(true);
    expect(keepsVersion({ origin: 'move', created_at: at(0) }, 'user', at(1), limits)).toBe(true);
  });

  it('gives agent, plugin, import and restore changes their own version every time', () => {
    for (const origin of ['agent', 'plugin', 'import', 'restore'] as const) {
      expect(keepsVersion({ origin, created_at: at(0) }, origin, at(0), limits)).toBe(true);
    }
    // Typing right after an agent change is a new version, so the agent change stays undoable alone.
    expect(keepsVersion({ origin: 'agent', created_at: at(0) }, 'user', at(0), limits)).toBe(true);
  });

  it('does not coalesce with a version from the future (a clock set back)', () => {
    expect(keepsVersion({ origin: 'user', created_at: at(10) }, 'user', at(0), limits)).toBe(true);
  });
});

describe('overflow', () => {
  it('counts what exceeds the limit', () => {
    expect(overflow(3, 5)).toBe(0);
    expect(overflow(7, 5)).toBe(2);
    expect(overflow(2, 0)).toBe(2);
  });
});
