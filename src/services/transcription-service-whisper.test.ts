import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EventEnvelope } from '../contracts';
import { encodeWav, sine } from '../media/__fixtures__/synthetic-audio';
import { TransformersAsrEngine, type TransformersAsrEnvironment } from '../media/transformers';
import { writeTinyWhisper } from '../media/transformers/__fixtures__/tiny-whisper/write-tiny-whisper';
import { testCore } from './test-core';

/**
 * The whole path on the real transformers.js pipeline: upload, settings
 * (model host = a folder of plain model directories), the engine made for
 * them, the job, its events, the transcript as a cited note. The generated
 * tiny Whisper stands in for onnx-community/whisper-tiny (the default profile).
 */

const RATE = 16_000;
let root: string;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'tiny-whisper-service-'));
  await writeTinyWhisper(root, { modelId: 'onnx-community/whisper-tiny' });
});

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('TranscriptionService with the tiny Whisper on transformers.js', () => {
  it('transcribes an uploaded WAV from the configured model host and makes a cited note', async () => {
    const environments: TransformersAsrEnvironment[] = [];
    const core = testCore({
      transcription: {
        engine: (environment) => {
          environments.push(environment);
          // Node has no Cache Storage: the browser-only cache is switched off here.
          return new TransformersAsrEngine({ environment: { ...environment, useBrowserCache: false } });
        },
      },
    });
    try {
      const api = core.api;
      await api.transcriptions.updateSettings({ model_host: root, allow_remote_models: false });
      const wav = encodeWav({ sampleRate: RATE, channels: [sine(220, 35, RATE, 0.1)], encoding: 'pcm16' });
      const audio = await api.attachments.upload({ name: 'tone.wav', data: wav });
      const job = await api.transcriptions.create({
        attachment_id: audio.attachment_id,
        language: 'en',
        diarization: false,
      });
      const events: EventEnvelope[] = [];
      const subscription = api.events.subscribe(job.job_id, 0, (envelope) => events.push(envelope));
      await subscription.closed;

      expect(environments).toEqual([
        expect.objectContaining({
          localModelPath: `${root}/`,
          allowLocalModels: true,
          allowRemoteModels: false,
        }),
      ]);
      expect(events.at(-1)?.event).toBe('Completed');
      expect(events.some((e) => e.event === 'ModelLoading')).toBe(true);
      const done = await api.transcriptions.get(job.job_id);
      // The tiny model says the same script in each window (0 and 25 s).
      expect(done.segments.map((s) => [s.start_time, s.end_time, s.text])).toEqual([
        [0, 2, 'hello tiny whisper.'],
        [2, 4.5, 'world again,'],
        [25, 27, 'hello tiny whisper.'],
        [27, 29.5, 'world again,'],
      ]);
      const live = events
        .filter((e) => e.event === 'Progress')
        .flatMap((e) => (e.data as { segments: unknown[] }).segments);
      expect(live).toEqual(done.segments);

      const note = await api.transcriptions.toNote(job.job_id, { include_speakers: false });
      expect(note.title).toBe('tone');
      // A line about the recording, then the segments as paragraphs (the silence between the windows splits them).
      expect(note.body.split('\n\n').slice(1)).toEqual([
        '[00:00] hello tiny whisper. world again,',
        '[00:25] hello tiny whisper. world again,\n',
      ]);
      const citations = await api.transcriptions.citations(note.note_id);
      expect(citations.map((c) => [c.source_audio, c.start_time, c.end_time])).toEqual([
        [audio.attachment_id, 0, 29.5],
        [audio.attachment_id, 0, 4.5],
        [audio.attachment_id, 25, 29.5],
      ]);
    } finally {
      await core.idle();
      await core.close();
    }
  });
});
