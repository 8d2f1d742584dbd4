import * as Comlink from 'comlink';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../contracts/errors';
import type { AsrEngine, AsrLoadProgress } from '../media/asr-engine';
import type { AsrProfile } from '../media/asr-models';
import { sine } from '../media/__fixtures__/synthetic-audio';
import { TINY_WHISPER_MODEL_ID } from '../media/transformers/__fixtures__/tiny-whisper/tiny-whisper';
import { writeTinyWhisper } from '../media/transformers/__fixtures__/tiny-whisper/write-tiny-whisper';
import { AsrWorkerClient, type AsrWorkerConnection } from './asr-client';
import { createAsrWorkerRemoteApi, type AsrWorkerRemoteApi } from './asr.worker';

/**
 * The page-side client and the worker's object, linked by Comlink over a real
 * MessageChannel in one thread (no Worker), running the real transformers.js
 * engine on the generated tiny Whisper.
 */

const RATE = 16_000;
const TINY: AsrProfile = {
  profile_id: 'tiny-test',
  model_id: TINY_WHISPER_MODEL_ID,
  dtype: { webgpu: 'fp32', wasm: 'q8' },
};
const OTHER: AsrProfile = { ...TINY, profile_id: 'tiny-other', model_id: 'test/tiny-whisper-other' };

let root: string;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'tiny-whisper-worker-'));
  await writeTinyWhisper(root);
  await writeTinyWhisper(root, {
    modelId: OTHER.model_id,
    script: [{ words: ['says', 'nothing'], start: 1, end: 3 }],
  });
});

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

function link(api: AsrWorkerRemoteApi): AsrWorkerConnection & { closed: () => boolean } {
  const { port1, port2 } = new MessageChannel();
  Comlink.expose(api, port1 as unknown as Comlink.Endpoint);
  const remote = Comlink.wrap<AsrWorkerRemoteApi>(port2 as unknown as Comlink.Endpoint);
  let closed = false;
  return {
    remote,
    terminate() {
      closed = true;
      remote[Comlink.releaseProxy]();
      port1.close();
    },
    closed: () => closed,
  };
}

function client(options: { grace?: number; createEngine?: () => AsrEngine } = {}) {
  const connections: Array<ReturnType<typeof link>> = [];
  const asr = new AsrWorkerClient({
    environment: { localModelPath: root, allowRemoteModels: false },
    cancelGraceMs: options.grace ?? 3000,
    connect: () => {
      const connection = link(
        createAsrWorkerRemoteApi(options.createEngine ? { createEngine: options.createEngine } : {}),
      );
      connections.push(connection);
      return connection;
    },
  });
  return { asr, connections };
}

const open = () => new AbortController().signal;

describe('AsrWorkerClient over Comlink', () => {
  it('loads with every progress update delivered before load resolves, then transcribes a window', async () => {
    const { asr } = client();
    const progress: AsrLoadProgress[] = [];
    await asr.load(TINY, { signal: open(), onProgress: (update) => progress.push(update) });
    expect(progress.at(-1)).toEqual({ status: 'ready' });
    expect(progress.some((update) => update.file === 'onnx/decoder_model_merged_quantized.onnx')).toBe(true);

    // A window is a view into the whole recording: the page's buffer must survive the transfer.
    const recording = sine(220, 40, RATE, 0.1);
    const window = recording.subarray(10 * RATE, 40 * RATE);
    const result = await asr.transcribeWindow(window, {
      language: 'en',
      wordTimestamps: false,
      signal: open(),
    });
    expect(result.chunks).toEqual([
      { text: ' hello tiny whisper.', timestamp: [0, 2] },
      { text: ' world again,', timestamp: [2, 4.5] },
    ]);
    expect(recording.length).toBe(40 * RATE);
    expect(window.length).toBe(30 * RATE);
    await asr.dispose();
  });

  it('a fresh worker (the browser killed the old one) reloads the model a request names; another profile swaps it', async () => {
    const api = createAsrWorkerRemoteApi();
    const spec = { profile: TINY, environment: { localModelPath: root, allowRemoteModels: false } };
    const audio = sine(220, 5, RATE, 0.1);
    const first = await api.transcribeWindow(spec, audio, { language: 'en', wordTimestamps: false }, 'r1');
    expect(first.chunks[0]?.text).toBe(' hello tiny whisper.');
    const other = await api.transcribeWindow(
      { ...spec, profile: OTHER },
      audio,
      { language: 'en', wordTimestamps: false },
      'r2',
    );
    expect(other.chunks).toEqual([{ text: ' says nothing', timestamp: [1, 3] }]);
    await api.dispose();
  });

  it('errors cross as AppError with their code', async () => {
    const { asr } = client();
    const error = await asr
      .load({ ...TINY, profile_id: 'gone', model_id: 'test/gone' }, { signal: open() })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({
      code: 'TRANSCRIPTION_MODEL_UNAVAILABLE',
      details: { model_id: 'test/gone' },
    });
    await asr.dispose();
  });

  it('abort rejects at once, cancels the request in the worker, and the worker serves the next window', async () => {
    const { asr, connections } = client();
    await asr.load(TINY, { signal: open() });
    const controller = new AbortController();
    const pending = asr.transcribeWindow(sine(220, 30, RATE, 0.1), {
      language: 'en',
      wordTimestamps: true,
      signal: controller.signal,
    });
    setTimeout(() => controller.abort(), 50);
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
    const next = await asr.transcribeWindow(sine(220, 5, RATE, 0.1), {
      language: 'en',
      wordTimestamps: false,
      signal: open(),
    });
    expect(next.chunks).toHaveLength(2);
    expect(connections).toHaveLength(1);
    expect(asr.restarts).toBe(0);
    await asr.dispose();
  }, 120_000); // A hang guard: the tiny Whisper really decodes on the CPU.

  it('a worker that does not honour a cancel in time is replaced, and the next request reloads in a new one', async () => {
    // The models each worker's engine loaded, one list per worker.
    const loadsByWorker: string[][] = [];
    const stuckEngine = (): AsrEngine => {
      const loads: string[] = [];
      loadsByWorker.push(loads);
      return {
        async load(profile) {
          loads.push(profile.model_id);
        },
        // One long ONNX call that nothing can interrupt.
        transcribeWindow: () => new Promise(() => undefined),
      };
    };
    const { asr, connections } = client({ grace: 20, createEngine: stuckEngine });
    await asr.load(TINY, { signal: open() });
    const controller = new AbortController();
    const pending = asr.transcribeWindow(new Float32Array(RATE), {
      language: 'en',
      wordTimestamps: false,
      signal: controller.signal,
    });
    controller.abort();
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
    // The replacement happens when the grace period ends: wait for it, not for a fixed time.
    await expect.poll(() => asr.restarts, { timeout: 15_000 }).toBe(1);
    expect(connections[0]?.closed()).toBe(true);

    const stop = new AbortController();
    const again = asr.transcribeWindow(new Float32Array(RATE), {
      language: 'en',
      wordTimestamps: false,
      signal: stop.signal,
    });
    // The new worker loads the model the request named, without a load() call from the page;
    // the request is cancelled once that load is seen, not after a fixed time.
    await expect.poll(() => loadsByWorker[1]?.length ?? 0, { timeout: 15_000 }).toBe(1);
    stop.abort();
    await expect(again).rejects.toMatchObject({ name: 'AbortError' });
    expect(connections).toHaveLength(2);
    expect(loadsByWorker[0]?.[0]).toBe(TINY_WHISPER_MODEL_ID);
    expect(loadsByWorker[1]).toEqual([TINY_WHISPER_MODEL_ID]);
    await asr.dispose();
  });
});
