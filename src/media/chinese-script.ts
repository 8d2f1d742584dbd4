import type { TranscriptSegment } from '../contracts';

/**
 * The script a Chinese transcript is written in. Whisper, asked for `zh`, often writes
 * Traditional characters (or a mix), so a mainland student's note says 這是語音識別 and a
 * search for 语音 misses it. The job's language stays `zh` (§5.1); only the text changes.
 *
 * `unchanged` keeps what Whisper wrote; it is also what a job without the choice gets
 * (an API caller, a job made before the choice existed).
 */
export const CHINESE_SCRIPTS = ['simplified', 'traditional', 'unchanged'] as const;
export type ChineseScript = (typeof CHINESE_SCRIPTS)[number];

/**
 * Where a job carries its script: the request's `metadata` (§5.1), which is kept with the
 * job, so a resumed or retried job converts the way its first run did. It is no model
 * parameter: Whisper never sees it.
 */
export const CHINESE_SCRIPT_METADATA_KEY = 'chinese_script';

export function isChineseScript(value: unknown): value is ChineseScript {
  return typeof value === 'string' && (CHINESE_SCRIPTS as readonly string[]).includes(value);
}

/** The script a job's metadata asks for; `unchanged` when it names none (or one not known). */
export function chineseScriptOf(metadata: unknown): ChineseScript {
  if (typeof metadata !== 'object' || metadata === null || Array.isArray(metadata)) return 'unchanged';
  const script = (metadata as Record<string, unknown>)[CHINESE_SCRIPT_METADATA_KEY];
  return isChineseScript(script) ? script : 'unchanged';
}

/**
 * Whether a Whisper language (a code, a region-tagged code or an English name, §5.1) is
 * Mandarin Chinese. Cantonese (`yue`) is left alone: its written form has characters of its
 * own that a Simplified conversion would not know.
 */
export function isChineseLanguage(language: string | null | undefined): boolean {
  if (!language) return false;
  const base = language.toLowerCase().split(/[-_]/)[0];
  return base === 'zh' || base === 'chinese' || base === 'mandarin';
}

export type ScriptConverter = (text: string) => string;

/** Makes the converter to a script; only called once a Chinese segment needs it. */
export type ScriptConverterLoader = (script: Exclude<ChineseScript, 'unchanged'>) => Promise<ScriptConverter>;

/**
 * OpenCC's dictionaries, loaded on first use (about 0.1 MB towards Simplified, 1.1 MB towards
 * Traditional): only a Chinese job pays for them, and only in the worker that runs it.
 */
export const loadOpenccConverter: ScriptConverterLoader = async (script) => {
  if (script === 'simplified') {
    const { Converter } = await import('opencc-js/t2cn');
    return Converter({ from: 'tw', to: 'cn' });
  }
  const { Converter } = await import('opencc-js/cn2t');
  return Converter({ from: 'cn', to: 'tw' });
};

/** The segments with their text (and their words') in the converter's script; times and ids kept. */
export function convertSegments(
  segments: readonly TranscriptSegment[],
  convert: ScriptConverter,
): TranscriptSegment[] {
  return segments.map((segment) => ({
    ...segment,
    text: convert(segment.text),
    words: convertWords(segment.words, convert),
  }));
}

/**
 * The words converted as the phrase they make: OpenCC picks a character by the words around it
 * (头发 → 頭髮, 皇后 stays 皇后), and Whisper's Chinese words are about one character each, so
 * converted alone they would disagree with the segment's text (頭/發, 皇/後). The phrase's
 * conversion is cut back at the words' own lengths; a conversion that changed the length (none
 * of OpenCC's character tables does) falls back to word by word.
 */
function convertWords(
  words: TranscriptSegment['words'],
  convert: ScriptConverter,
): TranscriptSegment['words'] {
  const phrase = words.map((word) => word.word).join('');
  const converted = convert(phrase);
  if (converted.length !== phrase.length) return words.map((word) => ({ ...word, word: convert(word.word) }));
  let at = 0;
  return words.map((word) => {
    const text = converted.slice(at, at + word.word.length);
    at += word.word.length;
    return { ...word, word: text };
  });
}

/**
 * Converts a job's segments as they are published: a segment is converted when the job's
 * language is Chinese (asked for, or, when detection is on, heard in the window it starts in).
 * The converter loads at the first segment that needs it, once per job. A converter that cannot
 * be loaded (a chunk missing offline, say) does not fail the job: the script is a nicety over a
 * transcript that may have taken an hour, so the text stays as Whisper wrote it and
 * `unavailable` says so (the job's CHINESE_SCRIPT_UNAVAILABLE warning).
 */
export class TranscriptScript {
  readonly #script: ChineseScript;
  readonly #load: ScriptConverterLoader;
  #converter: Promise<ScriptConverter | null> | null = null;
  #unavailable = false;

  constructor(script: ChineseScript, load: ScriptConverterLoader = loadOpenccConverter) {
    this.#script = script;
    this.#load = load;
  }

  /** Whether the converter could not be loaded, so the text was left as Whisper wrote it. */
  get unavailable(): boolean {
    return this.#unavailable;
  }

  /** `languageOf` says the language a segment was spoken in (null: not known, left as it is). */
  async apply(
    segments: readonly TranscriptSegment[],
    languageOf: (segment: TranscriptSegment) => string | null,
  ): Promise<TranscriptSegment[]> {
    const script = this.#script;
    if (script === 'unchanged' || !segments.some((segment) => isChineseLanguage(languageOf(segment)))) {
      return [...segments];
    }
    // One try per job: a transcript half converted would read worse than one left alone.
    this.#converter ??= this.#load(script).catch((error: unknown) => {
      console.warn('NotesAgent: the Chinese script converter could not be loaded', error);
      this.#unavailable = true;
      return null;
    });
    const convert = await this.#converter;
    if (!convert) return [...segments];
    return segments.map((segment) =>
      isChineseLanguage(languageOf(segment)) ? (convertSegments([segment], convert)[0] ?? segment) : segment,
    );
  }
}
