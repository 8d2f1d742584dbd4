/**
 * One tokenizer for every index in this folder (BM25 terms, hash-v1 features,
 * highlights), so a query is always cut the way the notes were.
 *
 * Chinese has no spaces, so CJK runs become character unigrams (single-character
 * queries still match) and overlapping bigrams (most Chinese words are two
 * characters, and bigrams need no dictionary). Where `Intl.Segmenter` exists its
 * longer dictionary words are added too, which rewards an exact multi-character
 * word over a chance run of bigrams. Everything else is split into words of
 * letters and digits, with a small English stop list and a minimal plural stemmer.
 */

/**
 * Stored indexes record this; change it whenever the terms for some text
 * change, so an index built by an older tokenizer is rebuilt, not misread.
 */
export const TOKENIZER_VERSION = 'mixed-v1';

export type TokenKind = 'word' | 'cjk_unigram' | 'cjk_bigram' | 'cjk_word';

export interface Token {
  term: string;
  kind: TokenKind;
  /** UTF-16 offsets into the original (not normalised) text, end exclusive. */
  start: number;
  end: number;
}

// Words this common carry no meaning for ranking and only slow the index down.
// Kept short on purpose: "not", "no" and "how" matter in notes and are kept.
const ENGLISH_STOP_WORDS = new Set([
  'a',
  'an',
  'and',
  'are',
  'as',
  'at',
  'be',
  'by',
  'for',
  'from',
  'in',
  'into',
  'is',
  'it',
  'its',
  'of',
  'on',
  'or',
  'that',
  'the',
  'their',
  'then',
  'there',
  'these',
  'this',
  'to',
  'was',
  'were',
  'which',
  'with',
]);

// Function characters that appear in nearly every Chinese sentence. Only the
// unigrams are dropped; the bigrams around them (是否, 和平) are kept.
const CHINESE_STOP_CHARACTERS = new Set([
  '的',
  '了',
  '和',
  '是',
  '在',
  '也',
  '与',
  '及',
  '或',
  '而',
  '着',
  '吗',
  '呢',
  '吧',
  '啊',
]);

/** Longer "words" are base64, hashes or minified code: noise that bloats the index. */
const MAX_WORD_LENGTH = 48;

/** Scripts written without spaces: Han, kana and the katakana length mark. */
const CJK_CLASS = String.raw`\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\u30fc`;
const NON_CJK_WORD_CHARACTER = String.raw`(?:(?![${CJK_CLASS}])[\p{L}\p{N}\p{M}])`;
const CJK_CHARACTER = new RegExp(`[${CJK_CLASS}]`, 'u');
/** A CJK run (group 1), or a word of letters and digits with inner apostrophes ("don't"). */
const TOKEN_PATTERN = new RegExp(
  `([${CJK_CLASS}]+)|(${NON_CJK_WORD_CHARACTER}+(?:['’]${NON_CJK_WORD_CHARACTER}+)*)`,
  'gu',
);

// ASCII and the main CJK block keep their length under NFKC + lower-casing, so
// whole runs of them are mapped one to one; anything else is folded one
// character (plus its combining marks) at a time so offsets stay exact. A safe
// run may not end right before a combining mark: "e" + U+0301 composes to "é".
const FOLD_PATTERN = /[\t-\u007f\u4e00-\u9fff]+(?!\p{M})|\P{M}\p{M}*|\p{M}+/gu;

interface FoldedText {
  text: string;
  /** For each UTF-16 unit of `text`, where its source character starts and ends in the original. */
  sourceStart: number[];
  sourceEnd: number[];
}

/** NFKC + lower case, keeping a map back to the original offsets for highlights. */
function fold(original: string): FoldedText {
  const pieces: string[] = [];
  const sourceStart: number[] = [];
  const sourceEnd: number[] = [];
  for (const match of original.matchAll(FOLD_PATTERN)) {
    const start = match.index;
    const piece = match[0];
    if (isSafeRun(piece)) {
      pieces.push(piece.toLowerCase());
      for (let offset = 0; offset < piece.length; offset++) {
        sourceStart.push(start + offset);
        sourceEnd.push(start + offset + 1);
      }
      continue;
    }
    const folded = piece.normalize('NFKC').toLowerCase();
    pieces.push(folded);
    for (let offset = 0; offset < folded.length; offset++) {
      sourceStart.push(start);
      sourceEnd.push(start + piece.length);
    }
  }
  return { text: pieces.join(''), sourceStart, sourceEnd };
}

function isSafeRun(piece: string): boolean {
  for (let index = 0; index < piece.length; index++) {
    const unit = piece.charCodeAt(index);
    if (!(unit <= 0x7f || (unit >= 0x4e00 && unit <= 0x9fff))) return false;
  }
  return true;
}

/**
 * Harman's S-stemmer (as in Lucene's EnglishMinimalStemmer) plus the "-es"
 * plurals of words ending in s, x, ch and sh: it only folds plurals, so
 * "processes"/"process" and "caches"/"cache" meet and no word turns into another.
 */
function stemPlural(word: string): string {
  if (word.length < 4 || !/^[a-z]+$/.test(word)) return word;
  // "cache" and "caches" must share a stem although "matches" drops its "es".
  if (word.endsWith('che')) return word.slice(0, -1);
  if (!word.endsWith('s')) return word;
  if (/(?:sses|ches|shes|xes|zzes)$/.test(word)) return word.slice(0, -2);
  const length = word.length;
  const beforeS = word[length - 2];
  if (beforeS === 'u' || beforeS === 's') return word;
  if (beforeS === 'e') {
    const third = word[length - 3];
    const fourth = word[length - 4];
    if (third === 'i' && fourth !== 'a' && fourth !== 'e') return `${word.slice(0, -3)}y`;
    if (third === 'i' || third === 'a' || third === 'o' || third === 'e') return word;
  }
  return word.slice(0, -1);
}

function wordTerm(raw: string): string | undefined {
  // Possessives are dropped ("kernel's" is "kernel"); other apostrophes are
  // removed so "don't" and "dont" meet.
  const word = raw.replace(/['’]s$/, '').replace(/['’]/g, '');
  if (word.length === 0 || word.length > MAX_WORD_LENGTH || ENGLISH_STOP_WORDS.has(word)) return undefined;
  return stemPlural(word);
}

const NO_WORDS: ReadonlyMap<number, number[]> = new Map();

let segmenter: Intl.Segmenter | null | undefined;
function chineseSegmenter(): Intl.Segmenter | null {
  if (segmenter === undefined) {
    segmenter =
      typeof Intl !== 'undefined' && typeof Intl.Segmenter === 'function'
        ? new Intl.Segmenter('zh', { granularity: 'word' })
        : null;
  }
  return segmenter;
}

/** Dictionary words of three or more characters; shorter ones are already unigrams or bigrams. */
function segmenterWords(run: string): Map<number, number[]> {
  const words = new Map<number, number[]>();
  const instance = chineseSegmenter();
  if (!instance) return words;
  for (const segment of instance.segment(run)) {
    if (!segment.isWordLike) continue;
    const characters = Array.from(segment.segment).length;
    if (characters < 3) continue;
    const ends = words.get(segment.index) ?? [];
    ends.push(segment.index + segment.segment.length);
    words.set(segment.index, ends);
  }
  return words;
}

/**
 * Tokens with their kind and source offsets, in text order. Deterministic for a given runtime.
 * `dictionaryWords: false` leaves out the segmenter's cjk_word tokens (highlighting needs none).
 */
export function analyze(text: string, options: { dictionaryWords?: boolean } = {}): Token[] {
  const folded = fold(text);
  const tokens: Token[] = [];
  const source = (from: number, to: number): { start: number; end: number } => ({
    start: folded.sourceStart[from] ?? 0,
    end: folded.sourceEnd[to - 1] ?? 0,
  });

  for (const match of folded.text.matchAll(TOKEN_PATTERN)) {
    const runStart = match.index;
    const cjkRun = match[1];
    if (cjkRun === undefined) {
      const term = wordTerm(match[0]);
      if (term !== undefined)
        tokens.push({ term, kind: 'word', ...source(runStart, runStart + match[0].length) });
      continue;
    }
    const characters = Array.from(cjkRun);
    const offsets: number[] = [];
    let offset = 0;
    for (const character of characters) {
      offsets.push(offset);
      offset += character.length;
    }
    offsets.push(offset);
    const words = options.dictionaryWords === false ? NO_WORDS : segmenterWords(cjkRun);
    characters.forEach((character, index) => {
      const at = offsets[index] ?? 0;
      const next = offsets[index + 1] ?? at;
      if (!CHINESE_STOP_CHARACTERS.has(character)) {
        tokens.push({ term: character, kind: 'cjk_unigram', ...source(runStart + at, runStart + next) });
      }
      const following = characters[index + 1];
      if (following !== undefined) {
        const end = offsets[index + 2] ?? next;
        tokens.push({
          term: character + following,
          kind: 'cjk_bigram',
          ...source(runStart + at, runStart + end),
        });
      }
      for (const wordEnd of words.get(at) ?? []) {
        tokens.push({
          term: cjkRun.slice(at, wordEnd),
          kind: 'cjk_word',
          ...source(runStart + at, runStart + wordEnd),
        });
      }
    });
  }
  return tokens;
}

/** The index terms of `text`, in text order, repeats included (term frequency counts them). */
export function tokenize(text: string): string[] {
  return analyze(text).map((token) => token.term);
}

/** True when `text` holds Chinese or Japanese characters; used to label queries and notes. */
export function hasCjk(text: string): boolean {
  return CJK_CHARACTER.test(text);
}
