import { describe, expect, it } from 'vitest';
import { uriHexDigits } from './pdf-link';

const text = (hex: string) => Buffer.from(hex, 'hex').toString('latin1');

describe('uriHexDigits', () => {
  it('writes an ASCII address as it is, parentheses and backslashes included', () => {
    expect(text(uriHexDigits('https://example.com/a(b\\c'))).toBe('https://example.com/a(b\\c');
  });

  it('percent-encodes anything outside ASCII as UTF-8', () => {
    expect(text(uriHexDigits('https://example.com/文档 x'))).toBe(
      'https://example.com/%E6%96%87%E6%A1%A3%20x',
    );
  });
});
