import { describe, expect, it } from 'vitest';
import { utf8Length } from './utf8-length';

const encoded = (text: string) => new TextEncoder().encode(text).length;

describe('utf8Length', () => {
  it('counts as TextEncoder writes: ASCII, Latin, Chinese, emoji, lone surrogates', () => {
    const samples = [
      '',
      'plain ASCII',
      'café ß ñ',
      '绿茶和乌龙茶',
      'mixed 中文 and English 😀 👩‍💻',
      '\ud83d',
      'a\udc00b',
      '\ud83d\ud83d\ude00',
      '\u07ff\u0800\uffff',
    ];
    for (const text of samples) expect(utf8Length(text), JSON.stringify(text)).toBe(encoded(text));
  });

  it('agrees with TextEncoder on every code unit', () => {
    let all = '';
    for (let code = 0; code < 0x10000; code += 7) all += String.fromCharCode(code);
    expect(utf8Length(all)).toBe(encoded(all));
  });
});
