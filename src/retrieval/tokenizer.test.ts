import { describe, expect, it } from 'vitest';
import { analyze, hasCjk, tokenize } from './tokenizer';

const termsOfKind = (text: string, kind: string): string[] =>
  analyze(text)
    .filter((token) => token.kind === kind)
    .map((token) => token.term);

describe('tokenize: English', () => {
  it('lower-cases, drops stop words and possessives, folds plurals', () => {
    expect(tokenize("The Kernel's schedulers don't stop at the barrier")).toEqual([
      'kernel',
      'scheduler',
      'dont',
      'stop',
      'barrier',
    ]);
  });

  it('strips a curly possessive too and keeps meaningful short words', () => {
    expect(tokenize('Linus’s kernel is not slow')).toEqual(['linus', 'kernel', 'not', 'slow']);
  });

  it('folds plurals so singular and plural meet', () => {
    expect(tokenize('caches processes policies boxes matches')).toEqual(
      tokenize('cache process policy box match'),
    );
    // Words that only look plural stay as they are.
    expect(tokenize('bus glass')).toEqual(['bus', 'glass']);
  });

  it('splits on punctuation and keeps digits', () => {
    expect(tokenize('TCP/IP, HTTP-2 & 3.14...!')).toEqual(['tcp', 'ip', 'http', '2', '3', '14']);
  });

  it('skips very long runs such as base64 blobs', () => {
    expect(tokenize(`data ${'A'.repeat(200)} end`)).toEqual(['data', 'end']);
  });
});

describe('tokenize: Chinese', () => {
  it('emits character unigrams and overlapping bigrams in text order', () => {
    expect(tokenize('死锁条件')).toEqual(['死', '死锁', '锁', '锁条', '条', '条件', '件']);
  });

  it('drops function-character unigrams but keeps the bigrams around them', () => {
    const terms = tokenize('死锁的条件');
    expect(terms).not.toContain('的');
    expect(terms).toContain('锁的');
    expect(terms).toContain('的条');
  });

  it('does not make bigrams across punctuation', () => {
    const terms = tokenize('你好，世界！');
    expect(terms).toContain('你好');
    expect(terms).toContain('世界');
    expect(terms).not.toContain('好世');
  });

  it('adds Intl.Segmenter words of three or more characters when available', () => {
    const words = termsOfKind('中华人民共和国成立', 'cjk_word');
    if (typeof Intl.Segmenter === 'function') expect(words).toContain('共和国');
    else expect(words).toEqual([]);
  });

  it('keeps katakana with its length mark in one run, apart from Latin words', () => {
    expect(termsOfKind('Javaコーヒー', 'word')).toEqual(['java']);
    expect(termsOfKind('Javaコーヒー', 'cjk_bigram')).toEqual(['コー', 'ーヒ', 'ヒー']);
  });

  it('handles a single character and an empty string', () => {
    expect(tokenize('锁')).toEqual(['锁']);
    expect(tokenize('')).toEqual([]);
    expect(tokenize(' \n\t ')).toEqual([]);
  });
});

describe('tokenize: mixed scripts and normalisation', () => {
  it('splits Latin words from CJK runs without spaces between them', () => {
    const terms = tokenize('Python装饰器 and GPU显存');
    expect(terms).toEqual(expect.arrayContaining(['python', '装饰', '饰器', 'gpu', '显存']));
    expect(terms).not.toContain('and');
    expect(terms.some((term) => /[a-z]/.test(term) && /\p{Script=Han}/u.test(term))).toBe(false);
  });

  it('folds full-width letters, digits and punctuation (NFKC)', () => {
    expect(tokenize('ＧＰＵ　２４ＧＢ，ＲＡＭ！')).toEqual(['gpu', '24gb', 'ram']);
    expect(tokenize('显存２４ＧＢ')).toEqual(tokenize('显存24GB'));
    expect(tokenize('ﬁle')).toEqual(['file']);
  });

  it('treats composed and decomposed accents alike', () => {
    expect(tokenize('de\u0301ja\u0300 vu')).toEqual(tokenize('d\u00e9j\u00e0 vu'));
  });

  it('reports offsets into the original text, across NFKC folding', () => {
    const text = 'ＧＰＵ显存 déjà vu';
    for (const token of analyze(text)) {
      const slice = text.slice(token.start, token.end);
      expect(slice.normalize('NFKC').toLowerCase()).toContain(token.term);
    }
    const decomposed = 'x de\u0301ja\u0300 y';
    const word = analyze(decomposed).find((token) => token.term === 'déjà');
    expect(word && decomposed.slice(word.start, word.end)).toBe('de\u0301ja\u0300');
  });

  it('handles characters outside the BMP', () => {
    const text = '𠮷野家 🍜 ramen';
    const tokens = analyze(text);
    expect(tokens.map((token) => token.term)).toEqual(expect.arrayContaining(['𠮷', '𠮷野', 'ramen']));
    const first = tokens[0];
    expect(first && text.slice(first.start, first.end)).toBe('𠮷');
  });

  it('is deterministic', () => {
    const text = '操作系统 Operating Systems：进程、线程 and the scheduler’s queues';
    expect(tokenize(text)).toEqual(tokenize(text));
    expect(analyze(text)).toEqual(analyze(text));
  });

  it('detects CJK text', () => {
    expect(hasCjk('hello 世界')).toBe(true);
    expect(hasCjk('hello world')).toBe(false);
  });
});
