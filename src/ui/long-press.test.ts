import { describe, expect, it } from 'vitest';
import { LONG_PRESS_MS, LongPressGesture, type PressPoint, type PressTimers } from './long-press';

/** Timers that fire only when the test moves time on. */
function manualTimers() {
  let now = 0;
  let next = 1;
  const pending = new Map<number, { at: number; run: () => void }>();
  const timers: PressTimers = {
    set: (run, delayMs) => {
      const handle = next++;
      pending.set(handle, { at: now + delayMs, run });
      return handle;
    },
    clear: (handle) => pending.delete(handle),
  };
  const advance = (ms: number) => {
    now += ms;
    for (const [handle, timer] of [...pending]) {
      if (timer.at > now) continue;
      pending.delete(handle);
      timer.run();
    }
  };
  return { timers, advance, pendingCount: () => pending.size };
}

function gesture() {
  const opened: PressPoint[] = [];
  const clock = manualTimers();
  const press = new LongPressGesture((at) => opened.push(at), clock.timers);
  return { press, opened, ...clock };
}

const at = (x: number, y: number): PressPoint => ({ x, y });

describe('LongPressGesture', () => {
  it('opens the menu at the pressed point once a finger has rested long enough', () => {
    const { press, opened, advance } = gesture();
    press.down(at(40, 60), 'touch', 0);
    advance(LONG_PRESS_MS - 1);
    expect(opened).toEqual([]);
    advance(1);
    expect(opened).toEqual([at(40, 60)]);
  });

  it('swallows the click that ends a long press, and only that one', () => {
    const { press, advance } = gesture();
    press.down(at(0, 0), 'touch', 0);
    advance(LONG_PRESS_MS);
    press.end();
    expect(press.click()).toBe(true);
    // The next tap is a tap: it opens the note.
    press.down(at(0, 0), 'touch', 0);
    press.end();
    expect(press.click()).toBe(false);
  });

  it('forgets a swallowed click that never came once the next press starts', () => {
    const { press, advance } = gesture();
    press.down(at(0, 0), 'touch', 0);
    advance(LONG_PRESS_MS);
    press.end();
    press.down(at(0, 0), 'touch', 0);
    press.end();
    expect(press.click()).toBe(false);
  });

  it('opened, no click, then a keyboard click opens', () => {
    const { press, advance } = gesture();
    press.down(at(0, 0), 'touch', 0);
    advance(LONG_PRESS_MS);
    // Android sends no click after its long press; a finger that slid off ends in pointercancel.
    press.end();
    // Escape closed the menu and the row has the keyboard: Enter clicks it.
    expect(press.click(false)).toBe(false);
  });

  it('lets the menu key through once a key was pressed on the row after a long press', () => {
    const { press, advance } = gesture();
    press.down(at(0, 0), 'touch', 0);
    advance(LONG_PRESS_MS);
    press.end();
    press.key();
    expect(press.contextMenu()).toBe(false);
    expect(press.click()).toBe(false);
  });

  it('lets a short tap through and opens nothing', () => {
    const { press, opened, advance, pendingCount } = gesture();
    press.down(at(5, 5), 'touch', 0);
    advance(100);
    press.end();
    expect(pendingCount()).toBe(0);
    advance(LONG_PRESS_MS);
    expect(opened).toEqual([]);
    expect(press.click()).toBe(false);
  });

  it('stands down when the finger moves past the slop (a scroll or a drag), not for a tremble', () => {
    const { press, opened, advance } = gesture();
    press.down(at(100, 100), 'touch', 0);
    press.move(at(104, 103));
    advance(LONG_PRESS_MS);
    expect(opened).toHaveLength(1);

    press.down(at(100, 100), 'touch', 0);
    press.move(at(100, 115));
    advance(LONG_PRESS_MS);
    expect(opened).toHaveLength(1);
  });

  it('stands down when the browser takes the touch or the page scrolls', () => {
    const { press, opened, advance } = gesture();
    press.down(at(0, 0), 'pen', 0);
    press.end();
    advance(LONG_PRESS_MS);
    expect(opened).toEqual([]);
  });

  it('leaves the mouse to its right button, and ignores other buttons and second fingers', () => {
    const { press, opened, advance } = gesture();
    press.down(at(0, 0), 'mouse', 0);
    advance(LONG_PRESS_MS);
    press.down(at(0, 0), 'touch', 2);
    advance(LONG_PRESS_MS);
    press.down(at(0, 0), 'touch', 0, false);
    advance(LONG_PRESS_MS);
    expect(opened).toEqual([]);
    // A right-click's contextmenu is the row's own: nothing swallows it.
    expect(press.contextMenu()).toBe(false);
  });

  it("swallows Android's contextmenu when the timer opened the menu first", () => {
    const { press, opened, advance } = gesture();
    press.down(at(0, 0), 'touch', 0);
    advance(LONG_PRESS_MS);
    expect(press.contextMenu()).toBe(true);
    expect(opened).toHaveLength(1);
  });

  it("lets Android's contextmenu open the menu when it comes first, and the timer stays quiet", () => {
    const { press, opened, advance } = gesture();
    press.down(at(0, 0), 'touch', 0);
    advance(LONG_PRESS_MS - 50);
    expect(press.contextMenu()).toBe(false);
    advance(LONG_PRESS_MS);
    expect(opened).toEqual([]);
    press.end();
    // The press became a menu: a click after it opens no note.
    expect(press.click()).toBe(true);
  });
});
