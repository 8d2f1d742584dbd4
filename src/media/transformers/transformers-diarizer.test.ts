import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../../contracts/errors';
import type { SpeakerTurn } from '../asr-engine';
import type { DiarizationModelInfo } from '../diarization-models';
import { concat, silence, sine } from '../__fixtures__/synthetic-audio';
import { TransformersDiarizer } from './transformers-diarizer';
import { loadTransformers, type TransformersDiarizationLibrary } from './transformers-library';
import { TINY_PYANNOTE_MODEL_ID, TINY_PYANNOTE_VOICES } from './__fixtures__/tiny-pyannote/tiny-pyannote';
import { writeTinyPyannote } from './__fixtures__/tiny-pyannote/write-tiny-pyannote';

/**
 * The real transformers.js loading (AutoProcessor, AutoModelForAudioFrameClassification
 * → PyAnnoteForAudioFrameClassification), ONNX run and
 * `post_process_speaker_diarization` on a tiny pyannote-shaped model the test
 * writes itself; speakers are tones the model tells apart.
 */

const RATE = 16_000;
const [VOICE_A, VOICE_B] = TINY_PYANNOTE_VOICES;
const model = (model_id: string): DiarizationModelInfo => ({
  model_id,
  label: model_id,
  parameters_millions: 0,
  approx_download_mb: 0,
  window_seconds: 10,
  overlap_seconds: 2.5,
});

const a = (seconds: number) => sine(VOICE_A, seconds, RATE, 0.3);
const b = (seconds: number) => sine(VOICE_B, seconds, RATE, 0.3);
const open = () => new AbortController().signal;

let root: string;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'tiny-pyannote-'));
  await writeTinyPyannote(root);
  // Files where transformers.js looks, but the ONNX file is not a model.
  await writeTinyPyannote(root, 'test/broken-pyannote');
  await writeFile(join(root, 'test/broken-pyannote/onnx/model.onnx'), 'not an onnx file');
  await mkdir(join(root, 'test/empty'), { recursive: true });
});

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

function diarizer(
  modelId = TINY_PYANNOTE_MODEL_ID,
  loadLibrary?: () => Promise<TransformersDiarizationLibrary>,
) {
  return new TransformersDiarizer({
    model: model(modelId),
    environment: { localModelPath: root, allowRemoteModels: false },
    ...(loadLibrary ? { loadLibrary } : {}),
  });
}

/** Turns with times to 0.1 s: the model's frames are 17 ms, a 50 ms filter blurs each change. */
const rounded = (turns: SpeakerTurn[]) =>
  turns.map((turn) => [turn.speaker, Math.round(turn.start * 10) / 10, Math.round(turn.end * 10) / 10]);

describe('TransformersDiarizer on a generated tiny pyannote model', () => {
  it('labels two speakers at the right times in one window, silence unlabelled', async () => {
    const audio = concat(a(4), b(3), silence(1, RATE), a(2));
    const turns = await diarizer().diarize(audio, { sampleRate: RATE, signal: open() });
    expect(rounded(turns)).toEqual([
      ['SPEAKER_00', 0, 4],
      ['SPEAKER_01', 4, 7],
      ['SPEAKER_00', 8, 10],
    ]);
  });

  it('keeps the labels across 10 s windows on 24 s of a conversation', async () => {
    const parts: Float32Array[] = [];
    for (let turn = 0; turn < 12; turn++) parts.push(turn % 2 === 0 ? a(2) : b(2));
    const turns = await diarizer().diarize(concat(...parts), { sampleRate: RATE, signal: open() });
    expect(rounded(turns)).toEqual(
      Array.from({ length: 12 }, (_, turn) => [
        turn % 2 === 0 ? 'SPEAKER_00' : 'SPEAKER_01',
        turn * 2,
        turn * 2 + 2,
      ]),
    );
  });

  it('labels whoever talks first SPEAKER_00', async () => {
    const turns = await diarizer().diarize(concat(b(2), a(2)), { sampleRate: RATE, signal: open() });
    expect(rounded(turns)).toEqual([
      ['SPEAKER_00', 0, 2],
      ['SPEAKER_01', 2, 4],
    ]);
  });

  it('gives no turns for silence and for audio shorter than a frame', async () => {
    const subject = diarizer();
    expect(await subject.diarize(silence(3, RATE), { sampleRate: RATE, signal: open() })).toEqual([]);
    expect(await subject.diarize(a(0.01), { sampleRate: RATE, signal: open() })).toEqual([]);
  });

  it('stops between windows when the signal aborts', async () => {
    const controller = new AbortController();
    let calls = 0;
    const counting = async (): Promise<TransformersDiarizationLibrary> => {
      const library = await loadTransformers();
      return {
        ...library,
        AutoModelForAudioFrameClassification: {
          async from_pretrained(id, options) {
            const inner = await library.AutoModelForAudioFrameClassification.from_pretrained(id, options);
            const call = async (inputs: Record<string, unknown>) => {
              calls++;
              controller.abort();
              return inner(inputs);
            };
            return Object.assign(call, { dispose: () => inner.dispose() });
          },
        },
      };
    };
    const run = diarizer(TINY_PYANNOTE_MODEL_ID, counting).diarize(concat(a(12), b(12)), {
      sampleRate: RATE,
      signal: controller.signal,
    });
    await expect(run).rejects.toMatchObject({ name: 'AbortError' });
    expect(calls).toBe(1);
  });

  it('answers DIARIZATION_MODEL_UNAVAILABLE with a human message for missing files', async () => {
    const error = await diarizer('test/empty')
      .diarize(a(1), { sampleRate: RATE, signal: open() })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({
      code: 'DIARIZATION_MODEL_UNAVAILABLE',
      message:
        'The speaker labelling model "test/empty" is not available: its files are not on this device and could not be downloaded.',
      details: { model_id: 'test/empty' },
    });
  });

  it('answers DIARIZATION_MODEL_UNAVAILABLE for a model file onnxruntime cannot read, and retries the load next time', async () => {
    const subject = diarizer('test/broken-pyannote');
    for (let attempt = 0; attempt < 2; attempt++) {
      await expect(subject.diarize(a(1), { sampleRate: RATE, signal: open() })).rejects.toMatchObject({
        code: 'DIARIZATION_MODEL_UNAVAILABLE',
        message: expect.stringContaining('could not be started') as unknown,
      });
    }
  });

  it('refuses audio at another sample rate than the model reads', async () => {
    await expect(diarizer().diarize(a(1), { sampleRate: 8_000, signal: open() })).rejects.toMatchObject({
      code: 'DIARIZATION_MODEL_UNAVAILABLE',
      message: 'The speaker labelling model expects 16000 Hz audio, not 8000 Hz.',
    });
  });
});
