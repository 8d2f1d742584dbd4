import { describe, expect, it } from 'vitest';
import { DeferredInput } from './deferred-input';

/** A schedule the test runs by hand: the pause "happens" when the test says so. */
function manual(): {
  options: { schedule: (run: () => void) => () => void };
  pause: () => void;
  pending: () => number;
} {
  let queued: Array<{ run: () => void; cancelled: boolean }> = [];
  return {
    options: {
      schedule: (run) => {
        const entry = { run, cancelled: false };
        queued.push(entry);
        return () => {
          entry.cancelled = true;
        };
      },
    },
    pause: () => {
      const due = queued.filter((entry) => !entry.cancelled);
      queued = [];
      for (const entry of due) entry.run();
    },
    pending: () => queued.filter((entry) => !entry.cancelled).length,
  };
}

describe('DeferredInput', () => {
  it('hands the text over once per pause, however many keys came before it', () => {
    const clock = manual();
    let commits = 0;
    const input = new DeferredInput({ ...clock.options, commit: () => (commits += 1) });
    for (let key = 0; key < 50; key += 1) input.changed();
    expect(commits).toBe(0);
    expect(clock.pending()).toBe(1);
    clock.pause();
    expect(commits).toBe(1);
    expect(input.dirty).toBe(false);
  });

  it('flush hands pending text over at once and cancels the scheduled hand-over', () => {
    const clock = manual();
    let commits = 0;
    const input = new DeferredInput({ ...clock.options, commit: () => (commits += 1) });
    input.changed();
    input.flush();
    expect(commits).toBe(1);
    expect(clock.pending()).toBe(0);
    clock.pause();
    expect(commits).toBe(1);
  });

  it('flush with nothing typed hands nothing over', () => {
    const clock = manual();
    let commits = 0;
    const input = new DeferredInput({ ...clock.options, commit: () => (commits += 1) });
    input.flush();
    expect(commits).toBe(0);
  });

  it('discard drops what was typed when the text is replaced from outside', () => {
    const clock = manual();
    let commits = 0;
    const input = new DeferredInput({ ...clock.options, commit: () => (commits += 1) });
    input.changed();
    input.discard();
    clock.pause();
    input.flush();
    expect(commits).toBe(0);
    expect(input.dirty).toBe(false);
  });
});
