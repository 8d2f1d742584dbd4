import { describe, expect, it } from 'vitest';
import { uniqueOptions } from './picker-options';

describe('model picker options', () => {
  it('offers a model once, where it first appears', () => {
    expect(
      uniqueOptions([
        { value: 'a', text: 'A' },
        { value: 'b', text: 'B' },
        { value: 'a', text: 'A again' },
      ]),
    ).toEqual([
      { value: 'a', text: 'A' },
      { value: 'b', text: 'B' },
    ]);
  });

  it('keeps an empty list empty', () => {
    expect(uniqueOptions([])).toEqual([]);
  });
});
