import { describe, expect, it } from 'vitest';
import { CoalescedRun, followStoredNote, parseStoreChange, type OpenNoteState } from './cross-tab-changes';

describe('parseStoreChange', () => {
  it('reads a notes change and a job change', () => {
    expect(
      parseStoreChange({ kind: 'notes', source: 'tab_a', change: 'upserted', ids: ['n1', 'n2'] }),
    ).toEqual({ kind: 'notes', source: 'tab_a', change: 'upserted', ids: ['n1', 'n2'] });
    expect(parseStoreChange({ kind: 'job', source: 'tab_a', ids: ['job_1'], sequence: 3 })).toEqual({
      kind: 'job',
      source: 'tab_a',
      ids: ['job_1'],
      sequence: 3,
    });
  });

  it('refuses what it does not understand instead of guessing', () => {
    for (const data of [
      null,
      'notes',
      { kind: 'notes', change: 'upserted', ids: ['n1'] },
      { kind: 'notes', source: 'tab_a', change: 'renamed', ids: ['n1'] },
      { kind: 'notes', source: 'tab_a', change: 'upserted', ids: [] },
      { kind: 'notes', source: 'tab_a', change: 'upserted', ids: ['n1', 7] },
      { kind: 'job', source: 'tab_a', ids: ['job_1'], sequence: -1 },
      { kind: 'job', source: 'tab_a', ids: ['job_1'] },
      { kind: 'settings', source: 'tab_a', ids: ['x'] },
    ]) {
      expect(parseStoreChange(data)).toBeNull();
    }
  });
});

describe('followStoredNote', () => {
  const clean: OpenNoteState = {
    shownVersion: 2,
    storedVersion: 3,
    trashed: false,
    unsaved: false,
    saving: false,
    inConflict: false,
  };

  it('shows a newer stored note in an editor with nothing unsaved', () => {
    expect(followStoredNote(clean)).toBe('show');
  });

  it('keeps unsaved text and goes into the conflict flow', () => {
    expect(followStoredNote({ ...clean, unsaved: true })).toBe('conflict');
  });

  it('ignores a write it already shows (its own save, a repeated message)', () => {
    expect(followStoredNote({ ...clean, storedVersion: 2 })).toBe('keep');
    expect(followStoredNote({ ...clean, storedVersion: 1, unsaved: true })).toBe('keep');
  });

  it('leaves a save under way and a conflict being settled alone', () => {
    expect(followStoredNote({ ...clean, saving: true })).toBe('keep');
    expect(followStoredNote({ ...clean, unsaved: true, inConflict: true })).toBe('keep');
  });

  it('keeps unsaved text in a note trashed elsewhere through the conflict flow (a save would be refused)', () => {
    expect(followStoredNote({ ...clean, trashed: true, unsaved: true })).toBe('conflict');
  });

  it('shows a note trashed elsewhere as trashed when nothing here is unsaved', () => {
    expect(followStoredNote({ ...clean, trashed: true })).toBe('show');
  });
});

describe('CoalescedRun', () => {
  it('runs once more after a burst, never twice at once', async () => {
    let runs = 0;
    let active = 0;
    let maxActive = 0;
    const gates: (() => void)[] = [];
    const run = new CoalescedRun(async () => {
      runs += 1;
      active += 1;
      maxActive = Math.max(maxActive, active);
      await new Promise<void>((resolve) => gates.push(resolve));
      active -= 1;
    });
    const first = run.request();
    void run.request();
    void run.request();
    expect(runs).toBe(1);
    gates.shift()!();
    await Promise.resolve();
    await Promise.resolve();
    await Promise.resolve();
    expect(runs).toBe(2);
    gates.shift()!();
    await first;
    expect(runs).toBe(2);
    expect(maxActive).toBe(1);
  });

  it('goes on after a failed run', async () => {
    let runs = 0;
    const run = new CoalescedRun(async () => {
      runs += 1;
      throw new Error('unreadable');
    });
    await run.request();
    await run.request();
    expect(runs).toBe(2);
  });
});
