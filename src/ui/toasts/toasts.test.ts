import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MIN_ACTION_TIMEOUT_MS, MIN_TIME_AFTER_HOLD_MS, ToastState } from './toasts.svelte';

describe('ToastState', () => {
  let state: ToastState;

  beforeEach(() => {
    vi.useFakeTimers();
    state = new ToastState();
  });

  afterEach(() => {
    state.reset();
    vi.useRealTimers();
  });

  const messages = (): string[] => state.items.map((toast) => toast.message);

  it('a toast with the key of one on screen takes its place, and its time is its own', () => {
    state.show('Saved', { timeoutMs: 4000 });
    state.show('Exported a.html with 1 warning', { key: 'export', timeoutMs: 12_000 });
    vi.advanceTimersByTime(6000);
    state.show('Exported a.pdf with 1 warning', { key: 'export', timeoutMs: 12_000 });
    expect(messages()).toEqual(['Exported a.pdf with 1 warning']);
    state.show('Exported a.docx', { key: 'export', kind: 'success', timeoutMs: 4000 });
    state.show('Moved to trash', { timeoutMs: 4000 });
    expect(messages()).toEqual(['Exported a.docx', 'Moved to trash']);
    vi.advanceTimersByTime(4000);
    expect(messages()).toEqual([]);
  });

  it('the same keyed message again stays one toast and starts its time again', () => {
    const first = state.show('Exported a.html', { key: 'export', timeoutMs: 4000 });
    vi.advanceTimersByTime(3000);
    expect(state.show('Exported a.html', { key: 'export', timeoutMs: 4000 })).toBe(first);
    vi.advanceTimersByTime(3999);
    expect(messages()).toEqual(['Exported a.html']);
  });

  it('closes a toast after its time', () => {
    state.show('Moved to trash', { timeoutMs: 4000 });
    vi.advanceTimersByTime(3999);
    expect(messages()).toEqual(['Moved to trash']);
    vi.advanceTimersByTime(1);
    expect(messages()).toEqual([]);
  });

  it('does not close a toast while the pointer is over it, and goes on with the time it had left', () => {
    const id = state.show('Moved to trash', { timeoutMs: 10_000 });
    vi.advanceTimersByTime(4000);
    state.hold(id, 'pointer');
    vi.advanceTimersByTime(60_000);
    expect(messages()).toEqual(['Moved to trash']);

    state.release(id, 'pointer');
    vi.advanceTimersByTime(5999);
    expect(messages()).toEqual(['Moved to trash']);
    vi.advanceTimersByTime(1);
    expect(messages()).toEqual([]);
  });

  it('stays while either the pointer or the focus holds it', () => {
    const id = state.show('Export finished', { timeoutMs: 4000 });
    state.hold(id, 'pointer');
    state.hold(id, 'focus');
    state.release(id, 'pointer');
    vi.advanceTimersByTime(60_000);
    expect(messages()).toEqual(['Export finished']);

    state.release(id, 'focus');
    vi.advanceTimersByTime(4000);
    expect(messages()).toEqual([]);
  });

  it('gives a toast let go in its last moment a little time before it closes', () => {
    const id = state.show('Saved', { timeoutMs: 4000 });
    vi.advanceTimersByTime(3990);
    state.hold(id, 'pointer');
    state.release(id, 'pointer');
    vi.advanceTimersByTime(MIN_TIME_AFTER_HOLD_MS - 1);
    expect(messages()).toEqual(['Saved']);
    vi.advanceTimersByTime(1);
    expect(messages()).toEqual([]);
  });

  it('keeps holding a toast that is shown again while held', () => {
    const id = state.show('Not saved', { kind: 'error', timeoutMs: 4000 });
    state.hold(id, 'focus');
    expect(state.show('Not saved', { kind: 'error', timeoutMs: 4000 })).toBe(id);
    vi.advanceTimersByTime(60_000);
    expect(messages()).toEqual(['Not saved']);
    state.release(id, 'focus');
    vi.advanceTimersByTime(4000);
    expect(messages()).toEqual([]);
  });

  it('leaves a toast that stays until dismissed alone, and ignores unknown ids and reasons', () => {
    const id = state.show('Storage is full', { kind: 'error', timeoutMs: 0 });
    state.hold(id, 'pointer');
    state.release(id, 'pointer');
    state.release(id, 'focus');
    state.hold(999, 'pointer');
    state.release(999, 'pointer');
    vi.advanceTimersByTime(60_000);
    expect(messages()).toEqual(['Storage is full']);
    state.dismiss(id);
    expect(messages()).toEqual([]);
  });

  it('a dismissed held toast does not come back when let go', () => {
    const id = state.show('Moved to trash', { timeoutMs: 4000 });
    state.hold(id, 'pointer');
    state.dismiss(id);
    state.release(id, 'pointer');
    vi.advanceTimersByTime(60_000);
    expect(messages()).toEqual([]);
    expect(state.show('Moved to trash', { timeoutMs: 4000 })).not.toBe(id);
  });

  it('Ctrl/⌘+Z runs the newest offered undo as its button does, and only while it is offered', () => {
    const undone: string[] = [];
    state.show('Moved to trash', {
      timeoutMs: 6000,
      action: { label: 'Undo', undo: true, run: () => undone.push('first') },
    });
    state.show('Saved a copy', { action: { label: 'Open', run: () => undone.push('not an undo') } });
    state.show('Note deleted', {
      timeoutMs: 6000,
      action: { label: 'Undo', undo: true, run: () => undone.push('second') },
    });
    expect(state.undoLatest()).toBe(true);
    expect(undone).toEqual(['second']);
    expect(messages()).toEqual(['Moved to trash', 'Saved a copy']);

    vi.advanceTimersByTime(MIN_ACTION_TIMEOUT_MS);
    expect(state.undoLatest()).toBe(false);
    expect(undone).toEqual(['second']);
  });

  it('gives a toast with a button at least the longer time, and leaves one that stays alone', () => {
    state.show('Moved to trash', { timeoutMs: 6000, action: { label: 'Undo', run: () => {} } });
    state.show('Kept until dismissed', { timeoutMs: 0, action: { label: 'Open', run: () => {} } });
    state.show('Saved', { timeoutMs: 4000 });
    vi.advanceTimersByTime(6000);
    expect(messages()).toEqual(['Moved to trash', 'Kept until dismissed']);
    vi.advanceTimersByTime(MIN_ACTION_TIMEOUT_MS - 6000);
    expect(messages()).toEqual(['Kept until dismissed']);
  });

  it('holds every toast, and those shown meanwhile, while the region is held', () => {
    state.show('Moved to trash', { timeoutMs: 4000 });
    state.holdAll('focus');
    state.show('Exported', { timeoutMs: 4000 });
    expect(state.heldAll('focus')).toBe(true);
    vi.advanceTimersByTime(60_000);
    expect(messages()).toEqual(['Moved to trash', 'Exported']);

    state.releaseAll('focus');
    expect(state.heldAll('focus')).toBe(false);
    vi.advanceTimersByTime(4000);
    expect(messages()).toEqual([]);
  });
});
