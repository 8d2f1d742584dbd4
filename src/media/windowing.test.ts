import { describe, expect, it } from 'vitest';
import { AsrEngineDouble, type ScriptedPhrase } from './__fixtures__/asr-engine-double';
import { transcriptSegmentsSchema } from '../contracts';
import {
  joinTexts,
  mergeWindowTranscripts,
  planWindows,
  stitchTexts,
  windowSamples,
  type AudioWindow,
} from './windowing';

const RATE = 16_000;

function window(index: number, start: number, end: number): AudioWindow {
  return { index, start_sample: start * RATE, end_sample: end * RATE, start_time: start, end_time: end };
}

/** 95 s of speech: a phrase every 4 s, some crossing the 25-30, 50-55 and 75-80 s overlaps. */
const SCRIPT: ScriptedPhrase[] = Array.from({ length: 23 }, (_, index) => ({
  start: index * 4 + 0.5,
  end: index * 4 + 3.9,
  text: `Sentence number ${index + 1} talks about topic ${String.fromCharCode(65 + index)} today.`,
}));

async function transcribeScript(script: ScriptedPhrase[], seconds: number, jitterSeconds = 0) {
  const samples = new Float32Array(seconds * RATE).fill(0.1);
  const windows = planWindows(samples.length);
  const engine = new AsrEngineDouble({ script, jitterSeconds });
  await engine.load(
    { profile_id: 'p', model_id: 'm', dtype: { webgpu: 'fp32', wasm: 'q8' } },
    {
      signal: new AbortController().signal,
    },
  );
  const transcripts = [];
  for (const w of windows) {
    const result = await engine.transcribeWindow(windowSamples(samples, w), {
      language: null,
      wordTimestamps: true,
      signal: new AbortController().signal,
    });
    transcripts.push({ window: w, chunks: result.chunks, words: result.words ?? [] });
  }
  return { windows, segments: mergeWindowTranscripts(transcripts, { duration: seconds }) };
}

describe('planWindows', () => {
  it('cuts 95 s into 30 s windows with 5 s overlap', () => {
    const windows = planWindows(95 * RATE);
    expect(windows.map((w) => [w.start_time, w.end_time])).toEqual([
      [0, 30],
      [25, 55],
      [50, 80],
      [75, 95],
    ]);
    expect(windows.map((w) => w.index)).toEqual([0, 1, 2, 3]);
    expect(windows.at(-1)?.end_sample).toBe(95 * RATE);
  });

  it('gives one window for short audio, none for empty audio, and stops at the end exactly', () => {
    expect(planWindows(RATE * 12)).toHaveLength(1);
    expect(planWindows(0)).toEqual([]);
    expect(planWindows(RATE * 30)).toHaveLength(1);
    expect(planWindows(RATE * 30 + 1)).toHaveLength(2);
    expect(planWindows(RATE * 10, { windowSeconds: 4, overlapSeconds: 1 }).map((w) => w.start_time)).toEqual([
      0, 3, 6,
    ]);
    expect(() => planWindows(RATE, { windowSeconds: 5, overlapSeconds: 5 })).toThrow(RangeError);
  });

  it('windowSamples is a view of the window', () => {
    const samples = Float32Array.from({ length: 100 }, (_, index) => index);
    const view = windowSamples(samples, {
      index: 0,
      start_sample: 10,
      end_sample: 20,
      start_time: 0,
      end_time: 0,
    });
    expect([...view]).toEqual([10, 11, 12, 13, 14, 15, 16, 17, 18, 19]);
  });
});

describe('mergeWindowTranscripts', () => {
  it('offsets chunk times by the window start and ends a null end at the window end', () => {
    const segments = mergeWindowTranscripts([
      { window: window(0, 0, 30), chunks: [{ text: ' Hello there.', timestamp: [1, 2.5] }] },
      { window: window(1, 25, 42), chunks: [{ text: ' Last words', timestamp: [10, null] }] },
    ]);
    expect(segments.map((s) => [s.segment_id, s.start_time, s.end_time, s.text])).toEqual([
      ['segment_001', 1, 2.5, 'Hello there.'],
      ['segment_002', 35, 42, 'Last words'],
    ]);
  });

  it('rebuilds a 95 s script from four overlapping windows: no duplicates, sorted, no overlaps', async () => {
    const { windows, segments } = await transcribeScript(SCRIPT, 95, 0.15);
    expect(windows).toHaveLength(4);
    expect(segments.map((segment) => segment.text)).toEqual(SCRIPT.map((phrase) => phrase.text));
    expect(transcriptSegmentsSchema.safeParse(segments).success).toBe(true);
    segments.forEach((segment, index) => {
      expect(segment.segment_id).toBe(`segment_${String(index + 1).padStart(3, '0')}`);
      expect(segment.end_time).toBeGreaterThanOrEqual(segment.start_time);
      expect(Math.abs(segment.start_time - SCRIPT[index]!.start)).toBeLessThan(0.2);
      expect(segment.words.map((word) => word.word).join(' ')).toBe(SCRIPT[index]!.text);
      for (const word of segment.words) {
        expect(word.start_time).toBeGreaterThanOrEqual(segment.start_time);
        expect(word.end_time).toBeLessThanOrEqual(segment.end_time);
      }
    });
  });

  it('stitches a phrase that one window cut at its edge and the next heard whole', () => {
    const segments = mergeWindowTranscripts([
      {
        window: window(0, 0, 30),
        chunks: [
          { text: ' First part.', timestamp: [20, 24] },
          { text: ' The scheduler picks the next', timestamp: [26, null] },
        ],
      },
      {
        window: window(1, 25, 55),
        chunks: [
          { text: ' picks the next process to run.', timestamp: [2.4, 6] },
          { text: ' Then it sleeps.', timestamp: [7, 9] },
        ],
      },
    ]);
    expect(segments.map((s) => s.text)).toEqual([
      'First part.',
      'The scheduler picks the next process to run.',
      'Then it sleeps.',
    ]);
    expect(segments[1]).toMatchObject({ start_time: 26, end_time: 31 });
  });

  it('keeps speech that only one window heard in the overlap', () => {
    const segments = mergeWindowTranscripts([
      {
        window: window(0, 0, 30),
        chunks: [{ text: ' Only the first window heard this.', timestamp: [28, 29.5] }],
      },
      { window: window(1, 25, 55), chunks: [{ text: ' Later.', timestamp: [10, 12] }] },
    ]);
    expect(segments.map((s) => s.text)).toEqual(['Only the first window heard this.', 'Later.']);
  });

  it('drops the copy on the far side of the overlap cut when both windows heard it', () => {
    const segments = mergeWindowTranscripts([
      { window: window(0, 0, 30), chunks: [{ text: ' Alpha beta gamma.', timestamp: [25.5, 27] }] },
      { window: window(1, 25, 55), chunks: [{ text: ' Alfa beta gamma!', timestamp: [0.6, 2.1] }] },
    ]);
    expect(segments).toHaveLength(1);
    expect(segments[0]?.text).toBe('Alpha beta gamma.');
  });

  it('clamps: no negative durations, no overlaps, nothing past the end, empty text dropped', () => {
    const segments = mergeWindowTranscripts(
      [
        {
          window: window(0, 0, 30),
          chunks: [
            { text: ' One.', timestamp: [-1, 5] },
            { text: ' Two.', timestamp: [4, 3] },
            { text: '   ', timestamp: [6, 7] },
            { text: ' Three.', timestamp: [8, 45] },
          ],
        },
      ],
      { duration: 20 },
    );
    expect(segments.map((s) => [s.text, s.start_time, s.end_time])).toEqual([
      ['One.', 0, 4],
      ['Two.', 4, 4],
      ['Three.', 8, 20],
    ]);
    expect(transcriptSegmentsSchema.safeParse(segments).success).toBe(true);
  });

  it('adds a phrase placed at or past the end of the audio to the one before, keeping its text', () => {
    // The tiny Whisper's script on a 2 s clip: the second phrase is heard over 2-4.5 s.
    const segments = mergeWindowTranscripts(
      [
        {
          window: window(0, 0, 2),
          chunks: [
            { text: ' hello tiny whisper.', timestamp: [0, 2] },
            { text: ' world again,', timestamp: [2, 4.5] },
          ],
          words: [
            { text: ' hello', timestamp: [0, 0.5] },
            { text: ' world', timestamp: [2, 3] },
          ],
        },
      ],
      { duration: 2 },
    );
    expect(segments.map((s) => [s.segment_id, s.text, s.start_time, s.end_time])).toEqual([
      ['segment_001', 'hello tiny whisper. world again,', 0, 2],
    ]);
    expect(segments[0]?.words.map((word) => word.word)).toEqual(['hello', 'world']);
    expect(transcriptSegmentsSchema.safeParse(segments).success).toBe(true);
  });

  it('lets a lone phrase past the end span the whole audio rather than none of it', () => {
    const segments = mergeWindowTranscripts(
      [{ window: window(0, 0, 30), chunks: [{ text: ' Late.', timestamp: [25, 28] }] }],
      { duration: 20 },
    );
    expect(segments.map((s) => [s.text, s.start_time, s.end_time])).toEqual([['Late.', 0, 20]]);
  });

  it('keeps every segment inside the audio and longer than nothing when the last ones run past it', () => {
    const segments = mergeWindowTranscripts(
      [
        {
          window: window(0, 0, 30),
          chunks: [
            { text: ' One.', timestamp: [0, 4] },
            { text: ' Two.', timestamp: [5, 9.9996] },
            { text: ' Three.', timestamp: [9.9996, 12] },
            { text: ' Four.', timestamp: [14, 16] },
          ],
        },
      ],
      { duration: 10 },
    );
    expect(segments.map((s) => [s.text, s.start_time, s.end_time])).toEqual([
      ['One.', 0, 4],
      ['Two. Three. Four.', 5, 10],
    ]);
  });

  it('is deterministic: same input, same ids and times', async () => {
    const first = await transcribeScript(SCRIPT, 95, 0.15);
    const second = await transcribeScript(SCRIPT, 95, 0.15);
    expect(second.segments).toEqual(first.segments);
  });
});

describe('text joining', () => {
  it('stitches on a shared run of words, case and punctuation aside', () => {
    expect(stitchTexts('we went to the', 'To the market, then home.')).toBe(
      'we went to the market, then home.',
    );
    expect(stitchTexts('Completely different words here.', 'Nothing alike at all.')).toBeUndefined();
    expect(stitchTexts('a full sentence here', 'full sentence')).toBe('a full sentence here');
  });

  it('stitches Chinese by characters and joins it without spaces', () => {
    expect(stitchTexts('这一部分介绍进程', '介绍进程调度。')).toBe('这一部分介绍进程调度。');
    expect(joinTexts(['你好。', '今天讲调度。'])).toBe('你好。今天讲调度。');
    expect(joinTexts(['Hello.', ' ', 'World.'])).toBe('Hello. World.');
  });
});
