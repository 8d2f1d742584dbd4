import { describe, expect, it } from 'vitest';
import { replaceSpans } from './replace-spans';

describe('replaceSpans', () => {
  it('replaces each span and keeps the text between', () => {
    expect(
      replaceSpans('see [[Old]] and [[Old|x]].', [
        { from: 4, to: 11, text: '[[New]]' },
        { from: 16, to: 25, text: '[[Newer|x]]' },
      ]),
    ).toBe('see [[New]] and [[Newer|x]].');
    expect(
      replaceSpans('abc', [
        { from: 0, to: 0, text: '>' },
        { from: 3, to: 3, text: '<' },
      ]),
    ).toBe('>abc<');
    expect(replaceSpans('笔记 abc', [{ from: 0, to: 2, text: '' }])).toBe(' abc');
  });

  it('gives the text back when nothing is replaced', () => {
    const text = 'unchanged';
    expect(replaceSpans(text, [])).toBe(text);
  });

  it('refuses spans out of order or past the end', () => {
    const spans = [
      { from: 4, to: 6, text: 'x' },
      { from: 2, to: 3, text: 'y' },
    ];
    expect(() => replaceSpans('abcdefg', spans)).toThrow(RangeError);
    expect(() => replaceSpans('abc', [{ from: 2, to: 9, text: '' }])).toThrow(RangeError);
  });
});
