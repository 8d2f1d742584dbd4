import * as Comlink from 'comlink';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AsrProfile } from '../media/asr-models';
import type { DiarizationModelInfo } from '../media/diarization-models';
import { concat, sine } from '../media/__fixtures__/synthetic-audio';
import type { AsrWorkerApiOptions } from '../media/transformers/asr-worker-api';
import {
  TINY_PYANNOTE_MODEL_ID,
  TINY_PYANNOTE_VOICES,
} from '../media/transformers/__fixtures__/tiny-pyannote/tiny-pyannote';
import { writeTinyPyannote } from '../media/transformers/__fixtures__/tiny-pyannote/write-tiny-pyannote';
import { TINY_WHISPER_MODEL_ID } from '../media/transformers/__fixtures__/tiny-whisper/tiny-whisper';
import { writeTinyWhisper } from '../media/transformers/__fixtures__/tiny-whisper/write-tiny-whisper';
import { AsrWorkerClient } from './asr-client';
import { createAsrWorkerRemoteApi, type AsrWorkerRemoteApi } from './asr.worker';

/**
 * Speaker labels in the ASR worker: the page-side client's diarizer and the
 * worker's object linked by Comlink over a MessageChannel, running the real
 * transformers.js diarizer on the generated tiny pyannote model next to the
 * tiny Whisper, in one worker.
 */

const RATE = 16_000;
const [VOICE_A, VOICE_B] = TINY_PYANNOTE_VOICES;
const WHISPER: AsrProfile = {
  profile_id: 'tiny-test',
  model_id: TINY_WHISPER_MODEL_ID,
  dtype: { webgpu: 'fp32', wasm: 'q8' },
};
const PYANNOTE: DiarizationModelInfo = {
  model_id: TINY_PYANNOTE_MODEL_ID,
  label: 'tiny',
  parameters_millions: 0,
  approx_download_mb: 0,
  window_seconds: 10,
  overlap_seconds: 2.5,
};

let root: string;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'tiny-pyannote-worker-'));
  await writeTinyWhisper(root);
  await writeTinyPyannote(root);
});

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

function client(options: AsrWorkerApiOptions = {}) {
  let connections = 0;
  const asr = new AsrWorkerClient({
    environment: { localModelPath: root, allowRemoteModels: false },
    connect: () => {
      connections++;
      const { port1, port2 } = new MessageChannel();
      Comlink.expose(createAsrWorkerRemoteApi(options), port1 as unknown as Comlink.Endpoint);
      const remote = Comlink.wrap<AsrWorkerRemoteApi>(port2 as unknown as Comlink.Endpoint);
      return {
        remote,
        terminate() {
          remote[Comlink.releaseProxy]();
          port1.close();
        },
      };
    },
  });
  return { asr, connections: () => connections };
}

const open = () => new AbortController().signal;

describe('AsrWorkerClient.diarizer over Comlink', () => {
  it('labels speakers in the same worker that transcribes', async () => {
    const { asr, connections } = client();
    try {
      await asr.load(WHISPER, { signal: open() });
      const diarizer = asr.diarizer(PYANNOTE);
      expect(diarizer.profileId).toBe(TINY_PYANNOTE_MODEL_ID);
      const audio = concat(sine(VOICE_B, 3, RATE, 0.3), sine(VOICE_A, 3, RATE, 0.3));
      const turns = await diarizer.diarize(audio, { sampleRate: RATE, signal: open() });
      expect(turns.map((turn) => [turn.speaker, Math.round(turn.start), Math.round(turn.end)])).toEqual([
        ['SPEAKER_00', 0, 3],
        ['SPEAKER_01', 3, 6],
      ]);
      // The samples were copied before being transferred: the page keeps its recording.
      expect(audio.length).toBe(6 * RATE);
      const window = await asr.transcribeWindow(audio, {
        language: 'en',
        wordTimestamps: false,
        signal: open(),
      });
      expect(window.chunks.length).toBeGreaterThan(0);
      expect(connections()).toBe(1);
    } finally {
      await asr.dispose();
    }
  });

  it('an abort rejects at once with the caller’s reason and reaches the diarizer in the worker', async () => {
    let seenAbort: () => void = () => {};
    const reachedWorker = new Promise<void>((resolve) => (seenAbort = resolve));
    let started: () => void = () => {};
    const running = new Promise<void>((resolve) => (started = resolve));
    const { asr } = client({
      createDiarizer: (spec) => ({
        profileId: spec.model.model_id,
        diarize: (_samples, { signal }) =>
          new Promise((_resolve, reject) => {
            started();
            signal.addEventListener('abort', () => {
              seenAbort();
              reject(new DOMException('aborted', 'AbortError'));
            });
          }),
      }),
    });
    try {
      const controller = new AbortController();
      const run = asr.diarizer(PYANNOTE).diarize(sine(VOICE_A, 1, RATE, 0.3), {
        sampleRate: RATE,
        signal: controller.signal,
      });
      await running;
      const reason = new DOMException('stop', 'AbortError');
      controller.abort(reason);
      await expect(run).rejects.toBe(reason);
      await reachedWorker;
    } finally {
      await asr.dispose();
    }
  });
});
