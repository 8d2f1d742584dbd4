import { describe, expect, it } from 'vitest';
import { resultKeyTarget } from './result-keys';

describe('resultKeyTarget', () => {
  it('moves down and up one result, and stops at the last', () => {
    expect(resultKeyTarget('ArrowDown', 0, 3)).toBe(1);
    expect(resultKeyTarget('ArrowDown', 2, 3)).toBe(2);
    expect(resultKeyTarget('ArrowUp', 2, 3)).toBe(1);
  });

  it('goes back to the search box (-1) from the first result, or on Escape', () => {
    expect(resultKeyTarget('ArrowUp', 0, 3)).toBe(-1);
    expect(resultKeyTarget('Escape', 1, 3)).toBe(-1);
  });

  it('jumps to the first and last result; other keys are left to the browser', () => {
    expect(resultKeyTarget('Home', 2, 3)).toBe(0);
    expect(resultKeyTarget('End', 0, 3)).toBe(2);
    expect(resultKeyTarget('Enter', 0, 3)).toBeNull();
    expect(resultKeyTarget('ArrowDown', 0, 0)).toBeNull();
  });
});
