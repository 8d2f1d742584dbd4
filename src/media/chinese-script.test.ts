import { describe, expect, it, vi } from 'vitest';
import type { TranscriptSegment } from '../contracts';
import {
  chineseScriptOf,
  isChineseLanguage,
  loadOpenccConverter,
  TranscriptScript,
  type ScriptConverterLoader,
} from './chinese-script';

function segment(text: string, start = 0): TranscriptSegment {
  return {
    segment_id: `segment_${start}`,
    speaker: null,
    start_time: start,
    end_time: start + 2,
    text,
    confidence: null,
    words: [{ word: text, start_time: start, end_time: start + 2, confidence: null }],
  };
}

/** OpenCC, counting its loads: a job that needs no conversion must not load it. */
function countingLoader(): ScriptConverterLoader & { loads: string[] } {
  const loads: string[] = [];
  const load = (async (script) => {
    loads.push(script);
    return loadOpenccConverter(script);
  }) as ScriptConverterLoader & { loads: string[] };
  load.loads = loads;
  return load;
}

const zh = () => 'zh';

describe('a Chinese transcript in the script the job asks for', () => {
  it('Simplified turns what Whisper wrote in Traditional (or mixed) into Simplified, words too', async () => {
    const [converted] = await new TranscriptScript('simplified').apply(
      [segment('這是語音識別，这是测试。')],
      zh,
    );
    expect(converted?.text).toBe('这是语音识别，这是测试。');
    expect(converted?.words[0]?.word).toBe('这是语音识别，这是测试。');
    expect(converted?.start_time).toBe(0);
  });

  it('Traditional turns Simplified into Traditional', async () => {
    const [converted] = await new TranscriptScript('traditional').apply([segment('这是语音识别')], zh);
    expect(converted?.text).toBe('這是語音識別');
  });

  it('unchanged keeps the text as Whisper wrote it, without loading any dictionary', async () => {
    const load = countingLoader();
    const segments = [segment('這是语音識別')];
    expect(await new TranscriptScript('unchanged', load).apply(segments, zh)).toEqual(segments);
    expect(load.loads).toEqual([]);
  });

  it('leaves a job in another language untouched (Japanese kanji stay kanji), and loads nothing', async () => {
    const load = countingLoader();
    const segments = [segment('音声認識の説明'), segment('這是', 2)];
    expect(await new TranscriptScript('simplified', load).apply(segments, () => 'ja')).toEqual(segments);
    expect(await new TranscriptScript('simplified', load).apply(segments, () => null)).toEqual(segments);
    expect(load.loads).toEqual([]);
  });

  it('converts only the segments spoken in Chinese, loading the dictionary once', async () => {
    const load = countingLoader();
    const script = new TranscriptScript('simplified', load);
    const languageOf = (s: TranscriptSegment) => (s.start_time < 2 ? 'en' : 'zh');
    const first = await script.apply([segment('Hello 這是', 0), segment('語音識別', 2)], languageOf);
    const second = await script.apply([segment('還有', 4)], languageOf);
    expect([...first, ...second].map((s) => s.text)).toEqual(['Hello 這是', '语音识别', '还有']);
    expect(load.loads).toEqual(['simplified']);
  });

  it('leaves the text as Whisper wrote it when the dictionary cannot be loaded, says so, and does not try again', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    let loads = 0;
    const script = new TranscriptScript('simplified', async () => {
      loads++;
      throw new Error('chunk failed to load');
    });
    const first = await script.apply([segment('這是')], zh);
    const second = await script.apply([segment('語音', 2)], zh);
    expect([...first, ...second].map((s) => s.text)).toEqual(['這是', '語音']);
    expect(script.unavailable).toBe(true);
    expect(loads).toBe(1);
  });

  it("converts a segment's words as the phrase they make, so they agree with its text", async () => {
    const chars = (text: string) =>
      [...text].map((word, index) => ({ word, start_time: index, end_time: index + 1, confidence: null }));
    const toTraditional = await new TranscriptScript('traditional').apply(
      [{ ...segment('头发干净'), words: chars('头发干净') }],
      zh,
    );
    expect(toTraditional[0]?.text).toBe('頭髮乾淨');
    expect(toTraditional[0]?.words.map((w) => w.word).join('')).toBe('頭髮乾淨');
    expect(toTraditional[0]?.words.map((w) => w.start_time)).toEqual([0, 1, 2, 3]);
    const toSimplified = await new TranscriptScript('simplified').apply(
      [{ ...segment('乾隆著作'), words: chars('乾隆著作') }],
      zh,
    );
    expect(toSimplified[0]?.words.map((w) => w.word).join('')).toBe(toSimplified[0]?.text);
  });
});

describe('the script a job carries', () => {
  it('is read from its metadata; none, or one not known, is unchanged', () => {
    expect(chineseScriptOf({ chinese_script: 'simplified', audio_name: 'a.wav' })).toBe('simplified');
    expect(chineseScriptOf({ chinese_script: 'traditional' })).toBe('traditional');
    expect(chineseScriptOf({ chinese_script: 'pinyin' })).toBe('unchanged');
    expect(chineseScriptOf({})).toBe('unchanged');
    expect(chineseScriptOf(null)).toBe('unchanged');
  });

  it('applies to Whisper language codes and names of Mandarin, not to Cantonese or others', () => {
    for (const language of ['zh', 'ZH', 'zh-CN', 'zh_TW', 'chinese', 'mandarin']) {
      expect(isChineseLanguage(language)).toBe(true);
    }
    for (const language of ['yue', 'ja', 'en', '', null, undefined]) {
      expect(isChineseLanguage(language)).toBe(false);
    }
  });
});
