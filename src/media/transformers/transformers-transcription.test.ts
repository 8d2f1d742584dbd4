import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EventEnvelope } from '../../contracts';
import { EventLog } from '../../core/event-log';
import { MemoryEventStore } from '../../core/event-store';
import { JobRuntime } from '../../core/job-runtime';
import { MemoryJobStore } from '../../core/job-store';
import { AudioDecoderChain, WavDecoder } from '../audio-decoders';
import type { AsrEngine } from '../asr-engine';
import type { AsrProfile } from '../asr-models';
import { TRANSCRIPTION_JOB_KIND, transcriptionJobHandler } from '../transcribe';
import type { ModelLoadingEventData, TranscriptionResult } from '../../contracts';
import { encodeWav, sine } from '../__fixtures__/synthetic-audio';
import { TransformersAsrEngine } from './transformers-asr-engine';
import { TINY_WHISPER_MODEL_ID } from './__fixtures__/tiny-whisper/tiny-whisper';
import { writeTinyWhisper } from './__fixtures__/tiny-whisper/write-tiny-whisper';
import { cancelAtFirstProgress } from '../__fixtures__/cancel-at-progress';

/**
 * The transcription job (`runTranscription` in the job runtime) end to end on
 * the real transformers.js engine and the generated tiny Whisper: 65 s of
 * audio in three 30 s windows with 5 s overlap.
 */

const RATE = 16_000;
const PROFILE: AsrProfile = {
  profile_id: 'tiny-test',
  model_id: TINY_WHISPER_MODEL_ID,
  dtype: { webgpu: 'fp32', wasm: 'q8' },
};

let root: string;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'tiny-whisper-job-'));
  await writeTinyWhisper(root);
});

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

/** Counts the windows the job hands the engine and how they end. */
class CountingEngine implements AsrEngine {
  readonly windows: Array<'completed' | 'aborted' | 'running'> = [];
  constructor(readonly inner: TransformersAsrEngine) {}
  load: AsrEngine['load'] = (profile, options) => this.inner.load(profile, options);
  transcribeWindow: AsrEngine['transcribeWindow'] = async (samples, options) => {
    const index = this.windows.push('running') - 1;
    try {
      const result = await this.inner.transcribeWindow(samples, options);
      this.windows[index] = 'completed';
      return result;
    } catch (error) {
      if (options.signal.aborted) this.windows[index] = 'aborted';
      throw error;
    }
  };
}

function setup() {
  const runtime = new JobRuntime(new MemoryJobStore(), new EventLog(new MemoryEventStore()));
  const engine = new CountingEngine(
    new TransformersAsrEngine({ environment: { localModelPath: root, allowRemoteModels: false } }),
  );
  const wav = encodeWav({ sampleRate: RATE, channels: [sine(220, 65, RATE, 0.1)], encoding: 'pcm16' });
  runtime.register(
    transcriptionJobHandler({
      loadAudio: async (id) =>
        id === 'talk' ? { bytes: wav, mime_type: 'audio/wav', name: 'talk.wav' } : undefined,
      decoder: new AudioDecoderChain([new WavDecoder()]),
      engine,
      profiles: [PROFILE],
    }),
  );
  return { runtime, engine };
}

describe('runTranscription with TransformersAsrEngine and the tiny Whisper', () => {
  it('transcribes 65 s in 3 windows with ModelLoading and Progress events and offset timestamps', async () => {
    const { runtime, engine } = setup();
    const job = await runtime.create(TRANSCRIPTION_JOB_KIND, {
      attachment_id: 'talk',
      profile_id: 'tiny-test',
      language: 'en',
      diarization: false,
    });
    const events: EventEnvelope[] = [];
    const subscription = runtime.subscribe(job.job_id, 0, (envelope) => events.push(envelope));
    await subscription.closed;
    await runtime.idle();
    const final = await runtime.get(job.job_id);

    expect(final.status).toBe('completed');
    expect(engine.windows).toEqual(['completed', 'completed', 'completed']);
    const loading = events
      .filter((e) => e.event === 'ModelLoading')
      .map((e) => e.data as ModelLoadingEventData);
    expect(loading[0]).toMatchObject({
      profile_id: 'tiny-test',
      model_id: TINY_WHISPER_MODEL_ID,
      status: 'initiate',
    });
    expect(loading.at(-1)).toMatchObject({ status: 'ready' });
    expect(events.filter((e) => e.event === 'Progress').map((e) => e.data)).toEqual(
      [1, 2, 3].map((current) => expect.objectContaining({ phase: 'transcribing', current, total: 3 })),
    );

    const result = final.result as TranscriptionResult;
    expect(result.language).toBe('en');
    expect(result.warnings).toEqual([]);
    // Every window says the same script: 0-2 s and 2-4.5 s from its start (0, 25 and 50 s).
    expect(result.segments.map((s) => [s.start_time, s.end_time, s.text])).toEqual([
      [0, 2, 'hello tiny whisper.'],
      [2, 4.5, 'world again,'],
      [25, 27, 'hello tiny whisper.'],
      [27, 29.5, 'world again,'],
      [50, 52, 'hello tiny whisper.'],
      [52, 54.5, 'world again,'],
    ]);
  }, 120_000); // A hang guard: the tiny Whisper really decodes 65 s on the CPU.

  it('cancel during the second window stops inside it and ends Cancelled', async () => {
    const { runtime, engine } = setup();
    const job = await runtime.create(TRANSCRIPTION_JOB_KIND, {
      attachment_id: 'talk',
      profile_id: 'tiny-test',
      language: 'en',
      diarization: false,
    });
    const names = await cancelAtFirstProgress(runtime, job.job_id);

    expect(names.at(-1)).toBe('Cancelled');
    expect(names.filter((name) => name === 'Progress')).toHaveLength(1);
    // The first window completed; the second was stopped (or never started) — never a third.
    expect(engine.windows[0]).toBe('completed');
    expect(engine.windows.length).toBeLessThanOrEqual(2);
    expect(engine.windows.slice(1).every((state) => state === 'aborted')).toBe(true);
    expect(await runtime.get(job.job_id)).toMatchObject({ status: 'cancelled', result: null, error: null });
  });
});
