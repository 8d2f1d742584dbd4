import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { AppError, type DiarizationCompletedEventData, type EventEnvelope } from '../contracts';
import type { NotesAgentDatabase } from '../db';
import { freshDatabase } from '../db/test-database';
import { DIARIZATION_MODELS, type DiarizationModelInfo } from '../media';
import { AsrEngineDouble, type ScriptedPhrase } from '../media/__fixtures__/asr-engine-double';
import { concat, encodeWav, silence, sine } from '../media/__fixtures__/synthetic-audio';
import { TransformersDiarizer, type TransformersAsrEnvironment } from '../media/transformers';
import {
  TINY_PYANNOTE_MODEL_ID,
  TINY_PYANNOTE_VOICES,
} from '../media/transformers/__fixtures__/tiny-pyannote/tiny-pyannote';
import { writeTinyPyannote } from '../media/transformers/__fixtures__/tiny-pyannote/write-tiny-pyannote';
import { createCoreApi } from './core-api';
import { eventsOf } from './test-core';

/**
 * Speaker labels in transcription jobs, chosen by the `diarization_model`
 * setting: the real transformers.js diarizer on the generated tiny pyannote
 * model, read from the settings' model host (a local folder here) like Whisper.
 */

const RATE = 16_000;
const [VOICE_A, VOICE_B] = TINY_PYANNOTE_VOICES;
const BROKEN_ID = 'test/broken-pyannote';
const catalogEntry = (model_id: string): DiarizationModelInfo => ({
  model_id,
  label: `Test ${model_id}`,
  parameters_millions: 0.01,
  approx_download_mb: 0.03,
  window_seconds: 10,
  overlap_seconds: 2.5,
});
const MODELS = [catalogEntry(TINY_PYANNOTE_MODEL_ID), catalogEntry(BROKEN_ID)];

/** Speaker A 0-4 s, B 4-7 s, silence, A 8-10 s; the ASR double says one phrase per turn. */
const CONVERSATION = concat(
  sine(VOICE_A, 4, RATE, 0.3),
  sine(VOICE_B, 3, RATE, 0.3),
  silence(1, RATE),
  sine(VOICE_A, 2, RATE, 0.3),
);
const SCRIPT: ScriptedPhrase[] = [
  { start: 0.5, end: 3.5, text: 'Shall we begin?' },
  { start: 4.2, end: 6.8, text: 'Yes, please.' },
  { start: 8.2, end: 9.8, text: 'Good.' },
];

let root: string;
const opened: Array<{ db: NotesAgentDatabase; dispose(): void; idle(): Promise<void> }> = [];

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'diarization-service-'));
  await writeTinyPyannote(root);
  await writeTinyPyannote(root, BROKEN_ID);
  await writeFile(join(root, BROKEN_ID, 'onnx/model.onnx'), 'not an onnx file');
});

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

afterEach(async () => {
  for (const core of opened.splice(0)) {
    await core.idle().catch(() => undefined);
    core.dispose();
    await core.db.delete();
  }
});

/** `gate`: the diarizer waits for it before it starts (to cancel while diarization is on). */
function openCore(gate?: Promise<void>) {
  const environments: TransformersAsrEnvironment[] = [];
  const db = freshDatabase();
  const core = {
    ...createCoreApi(db, {
      indexDebounceMs: 1,
      transcription: {
        engine: new AsrEngineDouble({ script: SCRIPT }),
        diarizer: ({ environment, model }) => {
          environments.push(environment);
          // Node has no Cache API (the browser keeps downloads there); everything else is the settings'.
          const inner = new TransformersDiarizer({
            model,
            environment: { ...environment, useBrowserCache: false },
          });
          if (!gate) return inner;
          return {
            profileId: inner.profileId,
            diarize: async (samples, options) => {
              await gate;
              return inner.diarize(samples, options);
            },
          };
        },
        diarizationModels: MODELS,
      },
    }),
    db,
  };
  opened.push(core);
  return { core, environments, transcriptions: core.api.transcriptions };
}

type Core = ReturnType<typeof openCore>['core'];

async function upload(core: Core) {
  const data = encodeWav({ sampleRate: RATE, channels: [CONVERSATION], encoding: 'pcm16' });
  return core.api.attachments.upload({ name: 'talk.wav', mime_type: 'audio/wav', data });
}

const names = (events: EventEnvelope[]) =>
  events.map((e) => e.event).filter((name, i, all) => name !== all[i - 1]);

describe('TranscriptionService with a diarization model', () => {
  it('without one, asks for none and warns DIARIZATION_UNAVAILABLE; the catalog lists the models with sizes', async () => {
    const { core, transcriptions } = openCore();
    expect((await transcriptions.getSettings()).diarization_model).toBeNull();
    expect(transcriptions.diarizationModels()).toEqual([
      {
        model_id: TINY_PYANNOTE_MODEL_ID,
        label: 'Test test/tiny-pyannote',
        parameters_millions: 0.01,
        approx_download_mb: 0.03,
      },
      {
        model_id: BROKEN_ID,
        label: 'Test test/broken-pyannote',
        parameters_millions: 0.01,
        approx_download_mb: 0.03,
      },
    ]);
    const audio = await upload(core);
    const job = await transcriptions.create({ attachment_id: audio.attachment_id, diarization: true });
    const events = await eventsOf(core, job.job_id);
    expect(names(events)).not.toContain('DiarizationStarted');
    expect(await transcriptions.get(job.job_id)).toMatchObject({
      status: 'completed',
      warnings: ['DIARIZATION_UNAVAILABLE'],
    });
  });

  it('labels the speakers with the configured model, from the model host, with Diarization events', async () => {
    const { core, transcriptions, environments } = openCore();
    await transcriptions.updateSettings({ model_host: root, diarization_model: TINY_PYANNOTE_MODEL_ID });
    const audio = await upload(core);
    const job = await transcriptions.create({ attachment_id: audio.attachment_id, diarization: true });
    const events = await eventsOf(core, job.job_id);

    expect(names(events)).toEqual([
      'Queued',
      'Started',
      'ModelLoading',
      'DiarizationStarted',
      'DiarizationCompleted',
      'TranscriptionStarted',
      'Progress',
      'Completed',
    ]);
    expect(events.find((e) => e.event === 'DiarizationStarted')?.data).toEqual({
      profile_id: TINY_PYANNOTE_MODEL_ID,
    });
    expect(events.find((e) => e.event === 'DiarizationCompleted')?.data).toEqual({
      status: 'completed',
      speaker_count: 2,
      turn_count: 3,
      error: null,
    } satisfies DiarizationCompletedEventData);
    const done = await transcriptions.get(job.job_id);
    expect(done.warnings).toEqual([]);
    expect(done.segments.map((s) => [s.text, s.speaker])).toEqual([
      ['Shall we begin?', 'SPEAKER_00'],
      ['Yes, please.', 'SPEAKER_01'],
      ['Good.', 'SPEAKER_00'],
    ]);
    // The same model source rules as Whisper: an app path is read as local folders, never downloaded.
    expect(environments).toEqual([
      { useBrowserCache: true, allowLocalModels: true, localModelPath: `${root}/`, allowRemoteModels: false },
    ]);

    // The next job reuses the diarizer (and its loaded model); a request without diarization skips it.
    const again = await transcriptions.create({ attachment_id: audio.attachment_id, diarization: true });
    const againEvents = await eventsOf(core, again.job_id);
    expect(againEvents.find((e) => e.event === 'DiarizationCompleted')?.data).toMatchObject({
      status: 'completed',
      speaker_count: 2,
      turn_count: 3,
    });
    const plain = await transcriptions.create({ attachment_id: audio.attachment_id, diarization: false });
    expect(names(await eventsOf(core, plain.job_id))).not.toContain('DiarizationStarted');
    expect(environments).toHaveLength(1);
  });

  it('a broken model: the job completes without speakers, warns, and says why in DiarizationCompleted', async () => {
    const { core, transcriptions } = openCore();
    await transcriptions.updateSettings({ model_host: root, diarization_model: BROKEN_ID });
    const audio = await upload(core);
    const job = await transcriptions.create({ attachment_id: audio.attachment_id, diarization: true });
    const events = await eventsOf(core, job.job_id);
    const completed = events.find((e) => e.event === 'DiarizationCompleted')
      ?.data as DiarizationCompletedEventData;
    expect(completed).toMatchObject({ status: 'failed', speaker_count: 0, turn_count: 0 });
    expect(completed.error).toEqual({
      code: 'DIARIZATION_MODEL_UNAVAILABLE',
      message: `The speaker labelling model "${BROKEN_ID}" could not be started: it is not a pyannote-style segmentation model transformers.js can run.`,
    });
    const done = await transcriptions.get(job.job_id);
    expect(done).toMatchObject({ status: 'completed', warnings: ['DIARIZATION_UNAVAILABLE'] });
    expect(done.segments.map((s) => s.speaker)).toEqual([null, null, null]);
  });

  it('cancel while labelling speakers reaches the diarizer and ends the job Cancelled before transcription', async () => {
    let release = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    const { core, transcriptions } = openCore(gate);
    await transcriptions.updateSettings({ model_host: root, diarization_model: TINY_PYANNOTE_MODEL_ID });
    const audio = await upload(core);
    const job = await transcriptions.create({ attachment_id: audio.attachment_id, diarization: true });
    const events = await eventsOf(core, job.job_id, (envelope) => {
      if (envelope.event === 'DiarizationStarted') {
        void transcriptions.cancel(job.job_id).then(release);
      }
    });
    expect(names(events).slice(-2)).toEqual(['DiarizationStarted', 'Cancelled']);
    expect(await transcriptions.get(job.job_id)).toMatchObject({ status: 'cancelled', segments: [] });
  });

  it('refuses a diarization_model outside the catalog, keeping the stored settings', async () => {
    const { transcriptions } = openCore();
    const error = await transcriptions
      .updateSettings({ diarization_model: 'someone/any-model' })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({
      code: 'VALIDATION_FAILED',
      message: 'There is no speaker labelling model "someone/any-model".',
    });
    expect((await transcriptions.getSettings()).diarization_model).toBeNull();
    expect(await transcriptions.updateSettings({ diarization_model: TINY_PYANNOTE_MODEL_ID })).toMatchObject({
      diarization_model: TINY_PYANNOTE_MODEL_ID,
    });
    expect((await transcriptions.updateSettings({ diarization_model: null })).diarization_model).toBeNull();
  });

  it('the app catalog offers pyannote segmentation 3.0 with its size', () => {
    expect(DIARIZATION_MODELS.map((model) => [model.model_id, model.approx_download_mb])).toEqual([
      ['onnx-community/pyannote-segmentation-3.0', 6],
    ]);
  });
});
