import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../../contracts/errors';
import type { AsrLoadProgress } from '../asr-engine';
import type { AsrProfile } from '../asr-models';
import { concat, silence, sine } from '../__fixtures__/synthetic-audio';
import { TransformersAsrEngine } from './transformers-asr-engine';
import {
  TINY_WHISPER_MODEL_ID,
  TRADITIONAL_CHINESE_TINY_WHISPER_SCRIPT,
} from './__fixtures__/tiny-whisper/tiny-whisper';
import { writeTinyWhisper } from './__fixtures__/tiny-whisper/write-tiny-whisper';

/**
 * The real transformers.js pipeline (loading, feature extraction, Whisper
 * generate with timestamps, DTW word alignment, ASR decoding) on a tiny
 * Whisper-shaped model the test writes itself, with remote models off.
 */

const RATE = 16_000;
const ZH_MODEL_ID = 'test/tiny-whisper-zh';

const profile = (profile_id: string, model_id: string): AsrProfile => ({
  profile_id,
  model_id,
  dtype: { webgpu: 'fp32', wasm: 'q8' },
});
const TINY = profile('tiny-test', TINY_WHISPER_MODEL_ID);
const TINY_ZH = profile('tiny-zh-test', ZH_MODEL_ID);

/** Five seconds of a quiet tone and a little silence. */
const speech = (seconds = 5) => concat(sine(220, seconds - 0.5, RATE, 0.1), silence(0.5, RATE));

let root: string;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'tiny-whisper-'));
  await writeTinyWhisper(root);
  await writeTinyWhisper(root, {
    modelId: ZH_MODEL_ID,
    detectLanguage: 'zh',
    script: TRADITIONAL_CHINESE_TINY_WHISPER_SCRIPT,
  });
});

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

function engine(options: ConstructorParameters<typeof TransformersAsrEngine>[0] = {}) {
  return new TransformersAsrEngine({
    environment: { localModelPath: root, allowRemoteModels: false },
    ...options,
  });
}

const open = () => new AbortController().signal;

describe('TransformersAsrEngine on a generated tiny Whisper model', () => {
  it('loads through transformers.js with remote models off and reports per-file progress', async () => {
    const asr = engine();
    const progress: AsrLoadProgress[] = [];
    await asr.load(TINY, { signal: open(), onProgress: (update) => progress.push(update) });

    expect(asr.loaded).toEqual({
      model_id: TINY_WHISPER_MODEL_ID,
      profile_id: 'tiny-test',
      device: 'cpu',
      dtype: 'q8',
    });
    const files = new Set(progress.map((update) => update.file).filter(Boolean));
    // q8 on the CPU/WASM back end reads the `_quantized` files.
    expect(files).toContain('onnx/encoder_model_quantized.onnx');
    expect(files).toContain('onnx/decoder_model_merged_quantized.onnx');
    expect(files).toContain('tokenizer.json');
    expect(files).toContain('preprocessor_config.json');
    for (const file of ['onnx/encoder_model_quantized.onnx', 'onnx/decoder_model_merged_quantized.onnx']) {
      const statuses = progress.filter((update) => update.file === file).map((update) => update.status);
      expect(statuses[0]).toBe('initiate');
      expect(statuses.at(-1)).toBe('done');
    }
    expect(progress.at(-1)?.status).toBe('ready');
    // Read from the folder, nothing fetched: every file is said to come from this device.
    const downloads = progress.filter((update) => update.status === 'download');
    expect(downloads.length).toBeGreaterThanOrEqual(4);
    expect(downloads.every((update) => update.source === 'device')).toBe(true);

    // A second load of the same profile is a no-op.
    const again: AsrLoadProgress[] = [];
    await asr.load(TINY, { signal: open(), onProgress: (update) => again.push(update) });
    expect(again).toEqual([{ status: 'ready' }]);
    await asr.dispose();
  });

  it('transcribes 5 s of synthetic audio to phrases with timestamps', async () => {
    const asr = engine();
    await asr.load(TINY, { signal: open() });
    const result = await asr.transcribeWindow(speech(), {
      language: 'en',
      wordTimestamps: false,
      signal: open(),
    });

    expect(result).toEqual({
      language: 'en',
      chunks: [
        { text: ' hello tiny whisper.', timestamp: [0, 2] },
        { text: ' world again,', timestamp: [2, 4.5] },
      ],
    });
    // Deterministic: the same window gives the same output.
    const repeat = await asr.transcribeWindow(speech(), {
      language: 'en',
      wordTimestamps: false,
      signal: open(),
    });
    expect(repeat).toEqual(result);
    await asr.dispose();
  });

  it('gives word timestamps from the cross-attention alignment, inside their phrases and in order', async () => {
    const asr = engine();
    await asr.load(TINY, { signal: open() });
    const result = await asr.transcribeWindow(speech(), {
      language: 'en',
      wordTimestamps: true,
      signal: open(),
    });

    expect(result.chunks.map((chunk) => chunk.text)).toEqual([' hello tiny whisper.', ' world again,']);
    const words = result.words ?? [];
    expect(words.map((word) => word.text)).toEqual([' hello', ' tiny', ' whisper.', ' world', ' again,']);
    let previous = 0;
    for (const word of words) {
      const [start, end] = word.timestamp;
      expect(start).toBeGreaterThanOrEqual(previous - 1e-9);
      expect(end ?? start).toBeGreaterThanOrEqual(start);
      previous = start;
    }
    // The first three words fall in the first phrase (0-2 s), the others in the second (2-4.5 s).
    expect(words.slice(0, 3).every((word) => (word.timestamp[1] ?? 0) <= 2.1)).toBe(true);
    expect(words.slice(3).every((word) => word.timestamp[0] >= 1.9 && (word.timestamp[1] ?? 0) <= 4.6)).toBe(
      true,
    );
    await asr.dispose();
  });

  it('detects the language when none is given (one restricted decoder step), and accepts region tags', async () => {
    const asr = engine();
    await asr.load(TINY, { signal: open() });
    const detected = await asr.transcribeWindow(speech(), {
      language: null,
      wordTimestamps: false,
      signal: open(),
    });
    expect(detected.language).toBe('en');
    expect(detected.chunks).toHaveLength(2);
    const tagged = await asr.transcribeWindow(speech(), {
      language: 'en-US',
      wordTimestamps: false,
      signal: open(),
    });
    expect(tagged.language).toBe('en');

    // Another profile: the engine swaps models and detection reads the new model.
    await asr.load(TINY_ZH, { signal: open() });
    expect(asr.loaded?.model_id).toBe(ZH_MODEL_ID);
    const chinese = await asr.transcribeWindow(speech(), {
      language: null,
      wordTimestamps: false,
      signal: open(),
    });
    expect(chinese.language).toBe('zh');
    // Its Chinese words are UTF-8 in byte-level BPE, as Whisper's are: decoded, they are Traditional.
    expect(chinese.chunks.map((chunk) => chunk.text.trim())).toEqual(['這是語音識別。']);
    await asr.dispose();
  });

  it('stops inside the decoding loop when the signal aborts, and the next window still works', async () => {
    const asr = engine();
    await asr.load(TINY, { signal: open() });
    const controller = new AbortController();
    const signal = controller.signal;
    // Abort on the signal's 4th check: two before decoding, then once per decoder step.
    let checks = 0;
    const check = signal.throwIfAborted.bind(signal);
    signal.throwIfAborted = () => {
      checks++;
      if (checks === 4) controller.abort();
      check();
    };
    await expect(
      asr.transcribeWindow(speech(), { language: 'en', wordTimestamps: false, signal }),
    ).rejects.toMatchObject({ name: 'AbortError' });
    // The 4th check (second decoder step) aborted; one more is the engine's own after catching.
    // A whole window would be 2 + 13 decoder steps of the script, plus the checks after.
    expect(checks).toBe(5);

    const aborted = new AbortController();
    aborted.abort();
    await expect(
      asr.transcribeWindow(speech(), { language: 'en', wordTimestamps: false, signal: aborted.signal }),
    ).rejects.toMatchObject({ name: 'AbortError' });
    await expect(asr.load(TINY, { signal: aborted.signal })).rejects.toMatchObject({ name: 'AbortError' });

    const after = await asr.transcribeWindow(speech(), {
      language: 'en',
      wordTimestamps: false,
      signal: open(),
    });
    expect(after.chunks).toHaveLength(2);
    await asr.dispose();
  });

  it('a missing model directory is TRANSCRIPTION_MODEL_UNAVAILABLE with a human message and no paths', async () => {
    const asr = engine();
    const error = await asr
      .load(profile('missing', 'test/not-there'), { signal: open() })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({
      code: 'TRANSCRIPTION_MODEL_UNAVAILABLE',
      details: { profile_id: 'missing', model_id: 'test/not-there', device: 'cpu', dtype: 'q8' },
    });
    const { message, details } = error as AppError;
    expect(message).toMatch(/not available/);
    expect(JSON.stringify({ message, details })).not.toContain(root);
    // Transcribing without a model is the same error, not a crash.
    await expect(
      asr.transcribeWindow(speech(), { language: 'en', wordTimestamps: false, signal: open() }),
    ).rejects.toMatchObject({ code: 'TRANSCRIPTION_MODEL_UNAVAILABLE' });
  });
});
