import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Autosaver, type SaveState } from './autosaver';

interface Deferred {
  resolve: () => void;
  reject: (error: unknown) => void;
}

function setup(delay = 600) {
  const saved: string[] = [];
  const states: SaveState[] = [];
  const errors: unknown[] = [];
  const inFlight: Deferred[] = [];
  let manual = false;
  const autosaver = new Autosaver<string>({
    delayMs: () => delay,
    save: (content) => {
      saved.push(content);
      if (!manual) return Promise.resolve();
      return new Promise<void>((resolve, reject) => inFlight.push({ resolve, reject }));
    },
    onStateChange: (state) => states.push(state),
    onError: (error) => errors.push(error),
  });
  return {
    autosaver,
    saved,
    states,
    errors,
    inFlight,
    manualSaves: () => {
      manual = true;
    },
  };
}

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('Autosaver', () => {
  it('saves the latest content once after a pause', async () => {
    const { autosaver, saved, states } = setup();
    autosaver.change('a');
    autosaver.change('ab');
    await vi.advanceTimersByTimeAsync(599);
    expect(saved).toEqual([]);
    expect(autosaver.state).toBe('unsaved');
    autosaver.change('abc');
    await vi.advanceTimersByTimeAsync(600);
    expect(saved).toEqual(['abc']);
    expect(states).toEqual(['unsaved', 'saving', 'saved']);
  });

  it('flush saves at once', async () => {
    const { autosaver, saved } = setup();
    autosaver.change('now');
    await autosaver.flush();
    expect(saved).toEqual(['now']);
    await vi.advanceTimersByTimeAsync(1000);
    expect(saved).toEqual(['now']);
  });

  it('never drops keystrokes typed while a save is in flight', async () => {
    const { autosaver, saved, inFlight, manualSaves } = setup();
    manualSaves();
    autosaver.change('one');
    const first = autosaver.flush();
    expect(autosaver.state).toBe('saving');
    autosaver.change('one two');
    autosaver.change('one two three');
    expect(autosaver.flush()).toBe(first);
    inFlight.shift()?.resolve();
    await vi.advanceTimersByTimeAsync(0);
    expect(saved).toEqual(['one', 'one two three']);
    inFlight.shift()?.resolve();
    await first;
    expect(autosaver.state).toBe('saved');
    expect(autosaver.busy).toBe(false);
  });

  it('keeps failed content pending and retries on the next flush', async () => {
    const { autosaver, saved, errors, inFlight, manualSaves } = setup();
    manualSaves();
    autosaver.change('text');
    const running = autosaver.flush();
    inFlight.shift()?.reject(new Error('disk'));
    await running;
    expect(autosaver.state).toBe('error');
    expect(errors).toHaveLength(1);
    expect(autosaver.busy).toBe(true);
    const retry = autosaver.flush();
    inFlight.shift()?.resolve();
    await retry;
    expect(saved).toEqual(['text', 'text']);
    expect(autosaver.state).toBe('saved');
  });

  it('prefers newer content over a failed older save', async () => {
    const { autosaver, saved, inFlight, manualSaves } = setup();
    manualSaves();
    autosaver.change('old');
    const running = autosaver.flush();
    autosaver.change('newer');
    inFlight.shift()?.reject(new Error('x'));
    await running;
    const retry = autosaver.flush();
    inFlight.shift()?.resolve();
    await retry;
    expect(saved).toEqual(['old', 'newer']);
  });

  it('does not save while paused, and keeps the content for later', async () => {
    const { autosaver, saved } = setup();
    autosaver.pause();
    autosaver.change('mine');
    await vi.advanceTimersByTimeAsync(5000);
    await autosaver.flush();
    expect(saved).toEqual([]);
    autosaver.resume();
    await autosaver.flush();
    expect(saved).toEqual(['mine']);
  });

  it('markClean cancels a scheduled save unless one is running', async () => {
    const { autosaver, saved } = setup();
    autosaver.change('x');
    autosaver.markClean();
    await vi.advanceTimersByTimeAsync(1000);
    expect(saved).toEqual([]);
    expect(autosaver.state).toBe('saved');
  });

  it('does nothing after dispose', async () => {
    const { autosaver, saved } = setup();
    autosaver.change('x');
    autosaver.dispose();
    autosaver.change('y');
    await vi.advanceTimersByTimeAsync(1000);
    await autosaver.flush();
    expect(saved).toEqual([]);
  });
});
