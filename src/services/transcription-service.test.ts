import { afterEach, describe, expect, it } from 'vitest';
import { transcriptionJobSchema, type TranscriptSegment, type EventEnvelope } from '../contracts';
import { AttachmentRepository, NotesAgentDatabase } from '../db';
import { freshDatabase } from '../db/test-database';
import type { AsrEngine } from '../media';
import {
  AsrEngineDouble,
  DiarizerDouble,
  type AsrEngineDoubleOptions,
  type ScriptedPhrase,
} from '../media/__fixtures__/asr-engine-double';
import { HEADERS } from '../media/__fixtures__/audio-headers';
import { encodeWav, sine } from '../media/__fixtures__/synthetic-audio';
import type { TransformersAsrEnvironment } from '../media/transformers';
import { createCoreApi, type CoreOptions } from './core-api';
import { eventsOf } from './test-core';
import { expectCode } from './test-error-code';

const RATE = 16_000;

const toneWav = (seconds: number, frequency = 220) =>
  encodeWav({ sampleRate: RATE, channels: [sine(frequency, seconds, RATE, 0.1)], encoding: 'pcm16' });

type Core = ReturnType<typeof createCoreApi> & { db: NotesAgentDatabase };
const opened: Core[] = [];

function openCore(options: CoreOptions = {}, database?: string): Core {
  const db = database ? new NotesAgentDatabase(database) : freshDatabase();
  const core = { ...createCoreApi(db, { indexDebounceMs: 1, ...options }), db };
  opened.push(core);
  return core;
}

function withEngine(
  engine: AsrEngine | AsrEngineDoubleOptions = {},
  extra: CoreOptions['transcription'] = {},
) {
  const asr =
    engine instanceof AsrEngineDouble ? engine : new AsrEngineDouble(engine as AsrEngineDoubleOptions);
  return { core: openCore({ transcription: { engine: asr, ...extra } }), engine: asr };
}

afterEach(async () => {
  for (const core of opened.splice(0)) {
    await core.idle().catch(() => undefined);
    core.dispose();
    await core.db.delete();
  }
});

/** Repeats of ModelLoading and Progress collapsed, for order checks. */
function shape(events: EventEnvelope[]): string[] {
  const names = events.map((e) => e.event);
  return names.filter((name, i) => name !== names[i - 1] || !['ModelLoading', 'Progress'].includes(name));
}

async function upload(core: Core, seconds = 40, name = 'lecture.wav') {
  return core.api.attachments.upload({ name, mime_type: 'audio/wav', data: toneWav(seconds) });
}

/**
 * A scripted engine that knows where in the recording each window is (a window is a view
 * into the decoded samples, so its offset says where it starts), however many windows it
 * heard before: a run resumed in a new tab starts mid-recording. Each phrase it hears is
 * cut at the window's edges by its words' middles, like Whisper hearing half a sentence.
 */
class PlacedEngine implements AsrEngine {
  readonly starts: number[] = [];
  readonly #double = new AsrEngineDouble();
  readonly #script: readonly ScriptedPhrase[];
  readonly #hold: (start: number) => Promise<void> | undefined;
  readonly #fail: (start: number) => boolean;

  constructor(
    script: readonly ScriptedPhrase[],
    options: { hold?: (start: number) => Promise<void> | undefined; fail?: (start: number) => boolean } = {},
  ) {
    this.#script = script;
    this.#hold = options.hold ?? (() => undefined);
    this.#fail = options.fail ?? (() => false);
  }

  load(...args: Parameters<AsrEngine['load']>) {
    return this.#double.load(...args);
  }

  async transcribeWindow(samples: Float32Array, options: { signal: AbortSignal }) {
    const start = samples.byteOffset / Float32Array.BYTES_PER_ELEMENT / RATE;
    const end = start + samples.length / RATE;
    this.starts.push(start);
    const hold = this.#hold(start);
    if (hold) {
      await new Promise<void>((resolve, reject) => {
        options.signal.addEventListener('abort', () => reject(options.signal.reason as Error), {
          once: true,
        });
        void hold.then(resolve, reject);
      });
    }
    if (this.#fail(start)) throw new Error('ORT session run failed: out of memory');
    const chunks = this.#script.flatMap((phrase) => {
      const words = phrase.text.split(' ');
      const length = phrase.end - phrase.start;
      const heard = words.filter((_, i) => {
        const middle = phrase.start + ((i + 0.5) / words.length) * length;
        return middle >= start && middle < end;
      });
      if (heard.length === 0) return [];
      const from = Math.max(phrase.start, start) - start;
      const to = phrase.end > end ? null : phrase.end - start;
      return [{ text: ` ${heard.join(' ')}`, timestamp: [from, to] as [number, number | null] }];
    });
    return { language: 'zh', chunks };
  }
}

/** A lecture: a phrase every 4 s, some across a window's edge (windows 0-30, 25-55, 50-80). */
const LECTURE: ScriptedPhrase[] = Array.from({ length: 20 }, (_, i) => ({
  start: i * 4,
  end: i * 4 + 3.5,
  text: `lecture phrase ${i + 1} about scheduling`,
}));

/** The job's events up to the first that `matches`, that one included. */
function eventsUntil(
  core: Core,
  jobId: string,
  matches: (envelope: EventEnvelope) => boolean,
): Promise<EventEnvelope[]> {
  const seen: EventEnvelope[] = [];
  return new Promise((resolve) => {
    const subscription = core.api.events.subscribe(jobId, 0, (envelope) => {
      seen.push(envelope);
      if (!matches(envelope)) return;
      subscription.close();
      resolve(seen);
    });
  });
}

describe('TranscriptionService', () => {
  it('returns the job queued at once, then runs it: §5.3 events with live segments, and a full job', async () => {
    const { core } = withEngine();
    const audio = await upload(core, 40);
    const created = await core.api.transcriptions.create({ attachment_id: audio.attachment_id });
    expect(created).toMatchObject({
      attachment_id: audio.attachment_id,
      status: 'queued',
      progress: null,
      segments: [],
      text: null,
      warnings: [],
      error: null,
      diarization_enabled: true,
      started_at: null,
      completed_at: null,
    });
    const events = await eventsOf(core, created.job_id);
    expect(shape(events)).toEqual([
      'Queued',
      'Started',
      'ModelLoading',
      'TranscriptionStarted',
      'Progress',
      'Completed',
    ]);
    const progress = events.filter((e) => e.event === 'Progress').map((e) => e.data) as Array<{
      current: number;
      total: number;
      segments: TranscriptSegment[];
    }>;
    expect(progress.map((p) => [p.current, p.total])).toEqual([
      [1, 2],
      [2, 2],
    ]);

    const { metadata, ...job } = await core.api.transcriptions.get(created.job_id);
    // The contract's job, and beside it the request's metadata (none asked for here).
    expect(transcriptionJobSchema.parse(job)).toEqual(job);
    expect(metadata).toEqual({});
    expect(job).toMatchObject({ status: 'completed', language: 'en', warnings: ['DIARIZATION_UNAVAILABLE'] });
    expect(job.segments.length).toBeGreaterThan(4);
    expect(progress.flatMap((p) => p.segments)).toEqual(job.segments);
    expect(job.text).toBe(job.segments.map((s) => s.text).join(' '));
    expect(job.completed_at).not.toBeNull();
  });

  it('refuses invalid requests with VALIDATION_FAILED: no model paths, no unknown fields', async () => {
    const { core } = withEngine();
    const audio = await upload(core, 2);
    await expectCode(
      core.api.transcriptions.create({ attachment_id: audio.attachment_id, profile_id: '/models/whisper' }),
      'VALIDATION_FAILED',
    );
    await expectCode(
      core.api.transcriptions.create({
        attachment_id: audio.attachment_id,
        model_path: '/tmp/whisper.onnx',
      } as unknown as Parameters<Core['api']['transcriptions']['create']>[0]),
      'VALIDATION_FAILED',
    );
    await expectCode(
      core.api.transcriptions.create({ attachment_id: audio.attachment_id, language: 'en us!' }),
      'VALIDATION_FAILED',
    );
    await expectCode(core.api.transcriptions.list({ limit: 0 }), 'VALIDATION_FAILED');
    expect((await core.api.transcriptions.list()).page.total).toBe(0);
  });

  it('answers not found: attachment, profile, job, note', async () => {
    const { core } = withEngine();
    const audio = await upload(core, 2);
    await expectCode(
      core.api.transcriptions.create({ attachment_id: 'attachment_nowhere' }),
      'ATTACHMENT_NOT_FOUND',
    );
    await expectCode(
      core.api.transcriptions.create({ attachment_id: audio.attachment_id, profile_id: 'whisper-huge' }),
      'TRANSCRIPTION_PROFILE_NOT_FOUND',
      /no transcription profile "whisper-huge"/,
    );
    await expectCode(core.api.transcriptions.get('job_missing'), 'JOB_NOT_FOUND');
    await expectCode(core.api.transcriptions.cancel('job_missing'), 'JOB_NOT_FOUND');
    await expectCode(core.api.transcriptions.toNote('job_missing'), 'JOB_NOT_FOUND');
    await expectCode(core.api.transcriptions.citations('note_missing'), 'NOTE_NOT_FOUND');
    // An attachment that is not audio (an archive being imported) is refused up front.
    const archive = await new AttachmentRepository(core.db).put(new Blob(['PK']), {
      name: 'notes.zip',
      mime_type: 'application/zip',
    });
    await expectCode(
      core.api.transcriptions.create({ attachment_id: archive.attachment_id }),
      'UNSUPPORTED_AUDIO_FORMAT',
      /not audio/,
    );
    // Another kind of job is not a transcription.
    const other = await core.api.archive.importFiles({ files: [{ path: 'a.md', content: '# A' }] });
    await expectCode(core.api.transcriptions.get(other.job_id), 'JOB_NOT_FOUND');
    expect((await core.api.transcriptions.list()).page.total).toBe(0);
  });

  it('state conflicts: a finished job cannot be cancelled; only completed jobs become notes', async () => {
    const { core } = withEngine({ delayMs: 30 });
    const audio = await upload(core, 2);
    const job = await core.api.transcriptions.create({ attachment_id: audio.attachment_id });
    await expectCode(
      core.api.transcriptions.toNote(job.job_id),
      'TRANSCRIPT_NOT_READY',
      /job is (queued|running)/,
    );
    await eventsOf(core, job.job_id);
    await expectCode(core.api.transcriptions.cancel(job.job_id), 'STATE_CONFLICT');

    const failing = withEngine({ failAtWindow: 0 }).core;
    const failingAudio = await upload(failing, 2);
    const failed = await failing.api.transcriptions.create({ attachment_id: failingAudio.attachment_id });
    await eventsOf(failing, failed.job_id);
    await expectCode(
      failing.api.transcriptions.toNote(failed.job_id),
      'TRANSCRIPT_NOT_READY',
      /job is failed/,
    );
    expect(await failing.db.notes.count()).toBe(0);
  });

  it('an engine failure ends Failed with TRANSCRIPTION_FAILED and no third-party text', async () => {
    const { core } = withEngine({ failAtWindow: 1, failure: new Error('ORT /home/x/model.onnx exploded') });
    const audio = await upload(core, 40);
    const job = await core.api.transcriptions.create({ attachment_id: audio.attachment_id });
    const events = await eventsOf(core, job.job_id);
    expect(events.at(-1)?.event).toBe('Failed');
    const failed = await core.api.transcriptions.get(job.job_id);
    expect(failed).toMatchObject({ status: 'failed', segments: [], text: null });
    expect(failed.error).toMatchObject({ code: 'TRANSCRIPTION_FAILED', details: { window: 1 } });
    expect(JSON.stringify([failed, events])).not.toContain('exploded');
  });

  it('a model that cannot load ends Failed with TRANSCRIPTION_MODEL_UNAVAILABLE', async () => {
    const { core } = withEngine({ failLoad: new Error('fetch failed') });
    const audio = await upload(core, 2);
    const job = await core.api.transcriptions.create({ attachment_id: audio.attachment_id });
    await eventsOf(core, job.job_id);
    expect((await core.api.transcriptions.get(job.job_id)).error?.code).toBe(
      'TRANSCRIPTION_MODEL_UNAVAILABLE',
    );

    // A core without any engine says so the same way.
    const bare = openCore();
    const bareAudio = await upload(bare, 2);
    const bareJob = await bare.api.transcriptions.create({ attachment_id: bareAudio.attachment_id });
    await eventsOf(bare, bareJob.job_id);
    expect((await bare.api.transcriptions.get(bareJob.job_id)).error?.code).toBe(
      'TRANSCRIPTION_MODEL_UNAVAILABLE',
    );
  });

  it('cancel while running stops the window and ends Cancelled with TRANSCRIPTION_CANCELLED', async () => {
    const { core, engine } = withEngine({ delayMs: 5_000 });
    const audio = await upload(core, 40);
    const job = await core.api.transcriptions.create({ attachment_id: audio.attachment_id });
    let answer: Promise<unknown> | undefined;
    const events = await eventsOf(core, job.job_id, (envelope) => {
      if (envelope.event === 'TranscriptionStarted') answer = core.api.transcriptions.cancel(job.job_id);
    });
    expect(await answer).toEqual({ accepted: true, job_id: job.job_id, status: 'running' });
    expect(events.at(-1)).toMatchObject({
      event: 'Cancelled',
      data: { error: { code: 'TRANSCRIPTION_CANCELLED' } },
    });
    expect(engine.abortedWindows).toBe(1);
    expect(await core.api.transcriptions.get(job.job_id)).toMatchObject({
      status: 'cancelled',
      segments: [],
      error: { code: 'TRANSCRIPTION_CANCELLED' },
    });
  });

  it('deletes a failed or a cancelled transcription; refuses a running or completed one and an unknown id', async () => {
    const { core } = withEngine({ failLoad: new Error('fetch failed') });
    const audio = await upload(core, 2);
    const failed = await core.api.transcriptions.create({ attachment_id: audio.attachment_id });
    await eventsOf(core, failed.job_id);
    await core.api.transcriptions.delete(failed.job_id);
    await expectCode(core.api.transcriptions.get(failed.job_id), 'JOB_NOT_FOUND');
    expect((await core.api.transcriptions.list()).items).toEqual([]);
    // The audio stays: another transcription or a note may use it.
    expect((await core.api.attachments.get(audio.attachment_id)).attachment_id).toBe(audio.attachment_id);
    await expectCode(core.api.transcriptions.delete(failed.job_id), 'JOB_NOT_FOUND');

    const { core: slow } = withEngine({ delayMs: 20 });
    const slowAudio = await upload(slow, 2);
    const first = await slow.api.transcriptions.create({ attachment_id: slowAudio.attachment_id });
    const queued = await slow.api.transcriptions.create({ attachment_id: slowAudio.attachment_id });
    await expectCode(slow.api.transcriptions.delete(queued.job_id), 'STATE_CONFLICT');
    await slow.api.transcriptions.cancel(queued.job_id);
    await slow.api.transcriptions.delete(queued.job_id);
    await eventsOf(slow, first.job_id);
    await expectCode(slow.api.transcriptions.delete(first.job_id), 'STATE_CONFLICT');
    expect((await slow.api.transcriptions.list()).items.map((job) => job.job_id)).toEqual([first.job_id]);
  });

  it('cancels a queued job at once while another runs', async () => {
    const { core } = withEngine({ delayMs: 20 });
    const audio = await upload(core, 2);
    const first = await core.api.transcriptions.create({ attachment_id: audio.attachment_id });
    const second = await core.api.transcriptions.create({ attachment_id: audio.attachment_id });
    expect(await core.api.transcriptions.cancel(second.job_id)).toEqual({
      accepted: true,
      job_id: second.job_id,
      status: 'cancelled',
    });
    await eventsOf(core, first.job_id);
    expect((await core.api.transcriptions.get(first.job_id)).status).toBe('completed');
    expect(shape(await eventsOf(core, second.job_id))).toEqual(['Queued', 'Cancelled']);
  });

  it('lists newest first in offset pages, filtered by status', async () => {
    // The third job's only window waits until it has been cancelled, so it can
    // never complete first however busy the machine is.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const { core } = withEngine({ holdWindow: (index) => (index === 2 ? held : undefined) });
    const audio = await upload(core, 2);
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      ids.push((await core.api.transcriptions.create({ attachment_id: audio.attachment_id })).job_id);
      // Distinct created_at milliseconds, which order the list.
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    await core.api.transcriptions.cancel(ids[2]!);
    release();
    await core.idle();
    // Other job kinds never show up here.
    await core.api.archive.importFiles({ files: [{ path: 'a.md', content: '# A' }] });
    await core.idle();

    const first = await core.api.transcriptions.list({ limit: 2 });
    expect(first.page).toEqual({ total: 3, limit: 2, offset: 0 });
    expect(first.items.map((job) => job.job_id)).toEqual([ids[2], ids[1]]);
    const second = await core.api.transcriptions.list({ limit: 2, offset: 2 });
    expect(second.items.map((job) => job.job_id)).toEqual([ids[0]]);
    const cancelled = await core.api.transcriptions.list({ status: 'cancelled' });
    expect(cancelled.items.map((job) => job.job_id)).toEqual([ids[2]]);
    const completed = await core.api.transcriptions.list({ status: 'completed' });
    expect(completed.items.map((job) => job.job_id)).toEqual([ids[1], ids[0]]);
    expect(completed.items[0]?.segments.length).toBeGreaterThan(0);
  });

  it('labels speakers with a diarizer; without diarization asks for no warning', async () => {
    const script: ScriptedPhrase[] = [
      { start: 1, end: 4, text: 'Welcome to the course.', speaker: 'SPEAKER_00' },
      { start: 5, end: 8, text: 'Glad to be here.', speaker: 'SPEAKER_01' },
    ];
    const { core } = withEngine({ script }, { diarizer: new DiarizerDouble(script) });
    const audio = await upload(core, 10);
    const job = await core.api.transcriptions.create({ attachment_id: audio.attachment_id });
    const events = await eventsOf(core, job.job_id);
    expect(shape(events)).toContain('DiarizationCompleted');
    const done = await core.api.transcriptions.get(job.job_id);
    expect(done.warnings).toEqual([]);
    expect(done.segments.map((s) => s.speaker)).toEqual(['SPEAKER_00', 'SPEAKER_01']);

    const plain = await core.api.transcriptions.create({
      attachment_id: audio.attachment_id,
      diarization: false,
    });
    await eventsOf(core, plain.job_id);
    expect(await core.api.transcriptions.get(plain.job_id)).toMatchObject({
      diarization_enabled: false,
      warnings: [],
    });
  });

  it('turns a completed transcript into a note whose every block keeps its citation', async () => {
    const script: ScriptedPhrase[] = [
      { start: 1, end: 4, text: 'Welcome to the course.', speaker: 'SPEAKER_00' },
      { start: 5, end: 8, text: 'Thank you, glad to be here.', speaker: 'SPEAKER_01' },
      { start: 9, end: 12, text: 'Let us start with scheduling.', speaker: 'SPEAKER_00' },
    ];
    const { core } = withEngine({ script }, { diarizer: new DiarizerDouble(script) });
    const audio = await upload(core, 14, 'os-lecture.wav');
    const job = await core.api.transcriptions.create({ attachment_id: audio.attachment_id });
    await eventsOf(core, job.job_id);

    const note = await core.api.transcriptions.toNote(job.job_id, {
      title: '操作系统课程录音',
      folder: '课程/操作系统',
      include_timestamps: true,
      include_speakers: true,
    });
    expect(note).toMatchObject({ title: '操作系统课程录音', folder: '课程/操作系统', version: 1 });
    // The first line is about the recording (name, day, length); the turns follow.
    const [header, ...turns] = note.body.split('\n\n');
    expect(header).toMatch(/^os-lecture\.wav · \d{4}-\d\d-\d\d · 00:12/);
    expect(turns.join('\n\n')).toBe(
      '[00:01] **SPEAKER_00:** Welcome to the course.\n\n' +
        '[00:05] **SPEAKER_01:** Thank you, glad to be here.\n\n' +
        '[00:09] **SPEAKER_00:** Let us start with scheduling.\n',
    );
    expect(await core.api.notes.get(note.note_id)).toEqual(note);
    const blocks = await core.api.notes.blocks(note.note_id);
    const citations = await core.api.transcriptions.citations(note.note_id);
    expect(citations).toEqual([
      {
        block_id: blocks[0]!.block_id,
        source_audio: audio.attachment_id,
        start_time: 1,
        end_time: 12,
        speaker: null,
      },
      ...script.map((phrase, index) => ({
        block_id: blocks[index + 1]!.block_id,
        source_audio: audio.attachment_id,
        start_time: phrase.start,
        end_time: phrase.end,
        speaker: phrase.speaker,
      })),
    ]);

    // The note is searchable like any other, and the hit's block has its citation.
    await core.idle();
    const [hit] = (await core.api.search.search({ query: 'scheduling' })).hits;
    expect(hit).toMatchObject({ note_id: note.note_id, block_id: blocks[3]!.block_id });
    expect(citations.find((c) => c.block_id === hit?.block_id)?.start_time).toBe(9);

    // Defaults: the audio's name as title; options are validated.
    const plain = await core.api.transcriptions.toNote(job.job_id, {
      include_timestamps: false,
      include_speakers: false,
    });
    expect(plain.title).toBe('os-lecture');
    expect(plain.body.split('\n\n')[1]).toBe(
      'Welcome to the course. Thank you, glad to be here. Let us start with scheduling.\n',
    );
    await expectCode(
      core.api.transcriptions.toNote(job.job_id, { template_id: 'fancy' as 'segments' }),
      'VALIDATION_FAILED',
    );
    expect(await core.db.notes.count()).toBe(2);
  });

  it('decodes non-WAV audio only through the page decoder; a corrupt file fails UNSUPPORTED_AUDIO_FORMAT', async () => {
    const { core } = withEngine();
    const ogg = await core.api.attachments.upload({ name: 'voice.ogg', data: HEADERS.oggOpus });
    const without = await core.api.transcriptions.create({ attachment_id: ogg.attachment_id });
    await eventsOf(core, without.job_id);
    const refused = await core.api.transcriptions.get(without.job_id);
    expect(refused.error).toMatchObject({
      code: 'UNSUPPORTED_AUDIO_FORMAT',
      details: { container: 'ogg', reason: 'no_page_decoder' },
    });
    expect(refused.error?.message).toMatch(/Web Audio API/);

    const decoded: number[] = [];
    core.api.transcriptions.registerPageDecoder(async (data) => {
      decoded.push(data.byteLength);
      return { sampleRate: 48_000, channels: [sine(220, 3, 48_000, 0.1), sine(220, 3, 48_000, 0.1)] };
    });
    const decodedJob = await core.api.transcriptions.create({ attachment_id: ogg.attachment_id });
    await eventsOf(core, decodedJob.job_id);
    expect(decoded).toEqual([HEADERS.oggOpus.byteLength]);
    const done = await core.api.transcriptions.get(decodedJob.job_id);
    expect(done.status).toBe('completed');
    expect(done.segments.at(-1)?.end_time).toBeCloseTo(3, 3);

    core.api.transcriptions.registerPageDecoder(async () => {
      throw new DOMException('Unable to decode audio data', 'EncodingError');
    });
    const corrupt = await core.api.transcriptions.create({ attachment_id: ogg.attachment_id });
    await eventsOf(core, corrupt.job_id);
    const failed = await core.api.transcriptions.get(corrupt.job_id);
    expect(failed.error?.code).toBe('UNSUPPORTED_AUDIO_FORMAT');
    expect(failed.error?.message).toMatch(/could not be decoded/);

    // A truncated WAV never reaches the page decoder.
    const truncated = toneWav(2).slice(0, 2_000);
    const broken = await core.api.attachments.upload({ name: 'cut.wav', data: truncated });
    const brokenJob = await core.api.transcriptions.create({ attachment_id: broken.attachment_id });
    await eventsOf(core, brokenJob.job_id);
    expect((await core.api.transcriptions.get(brokenJob.job_id)).error?.message).toMatch(/incomplete/);
  });

  it('settings: default profile for new jobs, model host and downloads reach the engine factory', async () => {
    const environments: TransformersAsrEnvironment[] = [];
    const engines: AsrEngineDouble[] = [];
    const core = openCore({
      transcription: {
        engine: (environment) => {
          environments.push(environment);
          const engine = new AsrEngineDouble();
          engines.push(engine);
          return engine;
        },
        wasmPaths: '/ort/',
      },
    });
    const transcriptions = core.api.transcriptions;
    expect(await transcriptions.getSettings()).toEqual({
      profile_id: 'default',
      model_host: 'https://huggingface.co/',
      allow_remote_models: true,
      diarization_model: null,
    });
    expect(transcriptions.profiles().map((p) => [p.profile_id, p.approx_download_mb.wasm])).toEqual([
      ['default', 41],
      ['whisper-tiny', 41],
      ['whisper-base', 80],
      ['whisper-small', 250],
    ]);
    await expectCode(
      transcriptions.updateSettings({ profile_id: 'whisper-huge' }),
      'TRANSCRIPTION_PROFILE_NOT_FOUND',
    );
    await expectCode(
      transcriptions.updateSettings({ model_host: 'file:///etc/models' }),
      'VALIDATION_FAILED',
    );
    await expectCode(
      transcriptions.updateSettings({ model_host: 'https://u:p@models.example/' }),
      'VALIDATION_FAILED',
    );
    await expectCode(transcriptions.updateSettings({ model_host: '/models/../etc' }), 'VALIDATION_FAILED');

    const audio = await upload(core, 2);
    const first = await transcriptions.create({ attachment_id: audio.attachment_id });
    await eventsOf(core, first.job_id);
    expect(environments).toEqual([
      {
        useBrowserCache: true,
        wasmPaths: '/ort/',
        allowLocalModels: false,
        allowRemoteModels: true,
        remoteHost: 'https://huggingface.co/',
      },
    ]);

    expect(
      await transcriptions.updateSettings({ profile_id: 'whisper-base', model_host: '/models' }),
    ).toEqual({
      profile_id: 'whisper-base',
      model_host: '/models/',
      allow_remote_models: true,
      diarization_model: null,
    });
    const second = await transcriptions.create({ attachment_id: audio.attachment_id });
    const events = await eventsOf(core, second.job_id);
    expect(events.find((e) => e.event === 'TranscriptionStarted')?.data).toMatchObject({
      profile_id: 'whisper-base',
      model_id: 'onnx-community/whisper-base',
    });
    expect(environments[1]).toMatchObject({
      allowLocalModels: true,
      localModelPath: '/models/',
      allowRemoteModels: false,
    });
    expect(engines.map((engine) => engine.loads)).toEqual([
      ['onnx-community/whisper-tiny'],
      ['onnx-community/whisper-base'],
    ]);
    // Same settings: the same engine (and its loaded model) serve the next job.
    const third = await transcriptions.create({
      attachment_id: audio.attachment_id,
      profile_id: 'whisper-base',
    });
    await eventsOf(core, third.job_id);
    expect(engines).toHaveLength(2);
  });

  it('persists jobs across a restart; a job a closed tab left running goes on at start-up', async () => {
    const first = withEngine().core;
    const audio = await upload(first, 40);
    const done = await first.api.transcriptions.create({ attachment_id: audio.attachment_id });
    await eventsOf(first, done.job_id);
    // The closed tab's engine never finishes its window (until the test ends).
    let closeTab!: () => void;
    const tabClosed = new Promise<void>((resolve) => (closeTab = resolve));
    const double = new AsrEngineDouble();
    const stuckEngine: AsrEngine = {
      load: (profile, options) => double.load(profile, options),
      transcribeWindow: () => tabClosed.then(() => Promise.reject(new Error('the tab is gone'))),
    };
    const stuckCore = openCore({ transcription: { engine: stuckEngine } }, first.db.name);
    const stuck = await stuckCore.api.transcriptions.create({ attachment_id: audio.attachment_id });
    await new Promise<void>((resolve) => {
      const subscription = stuckCore.api.events.subscribe(stuck.job_id, 0, (envelope) => {
        if (envelope.event === 'TranscriptionStarted') {
          subscription.close();
          resolve();
        }
      });
    });

    // A new tab over the same database (the old one is gone).
    const reopened = openCore({ transcription: { engine: new AsrEngineDouble() } }, first.db.name);
    expect(await reopened.recover()).toMatchObject({ failed: 0, requeued: 1 });
    const before = await first.api.transcriptions.get(done.job_id);
    expect(await reopened.api.transcriptions.get(done.job_id)).toEqual(before);
    expect(before.segments.length).toBeGreaterThan(0);
    await eventsOf(reopened, stuck.job_id);
    const resumed = await reopened.api.transcriptions.get(stuck.job_id);
    expect(resumed).toMatchObject({ status: 'completed', error: null });
    expect(resumed.segments).toEqual(before.segments);
    closeTab();
    await stuckCore.idle();
    // The old tab's late failure does not overwrite the settled state.
    expect(await reopened.api.transcriptions.get(stuck.job_id)).toEqual(resumed);
  });

  it('retry queues the same request again in place of the failed job, which is gone', async () => {
    const double = new AsrEngineDouble();
    let loads = 0;
    // The first load fails (a model host that was wrong), the next ones work.
    const engine: AsrEngine = {
      load: (profile, options) =>
        ++loads === 1 ? Promise.reject(new Error('fetch failed')) : double.load(profile, options),
      transcribeWindow: (samples, options) => double.transcribeWindow(samples, options),
    };
    const core = openCore({ transcription: { engine } });
    const audio = await upload(core, 2);
    const failed = await core.api.transcriptions.create({
      attachment_id: audio.attachment_id,
      language: 'de',
      diarization: false,
      metadata: { audio_name: 'monday.wav' },
    });
    await eventsOf(core, failed.job_id);
    await expectCode(core.api.transcriptions.retry('job_missing'), 'JOB_NOT_FOUND');

    const again = await core.api.transcriptions.retry(failed.job_id);
    expect(again).toMatchObject({
      attachment_id: audio.attachment_id,
      status: 'queued',
      language: 'de',
      diarization_enabled: false,
      metadata: { audio_name: 'monday.wav' },
    });
    expect(again.job_id).not.toBe(failed.job_id);
    await expectCode(core.api.transcriptions.get(failed.job_id), 'JOB_NOT_FOUND');
    await eventsOf(core, again.job_id);
    const { items } = await core.api.transcriptions.list();
    expect(items.map((job) => [job.job_id, job.status])).toEqual([[again.job_id, 'completed']]);
    // Only a job that ended badly is retried.
    await expectCode(core.api.transcriptions.retry(again.job_id), 'STATE_CONFLICT');
  });

  it('a retry that cannot be queued keeps the failed job', async () => {
    const { core } = withEngine({ failLoad: new Error('fetch failed') });
    const audio = await upload(core, 2);
    const failed = await core.api.transcriptions.create({ attachment_id: audio.attachment_id });
    await eventsOf(core, failed.job_id);
    await core.db.attachments.clear();
    await expectCode(core.api.transcriptions.retry(failed.job_id), 'ATTACHMENT_NOT_FOUND');
    expect((await core.api.transcriptions.list()).items.map((job) => job.job_id)).toEqual([failed.job_id]);
  });

  it('names a job and its note after the file uploaded for it, though identical audio is stored once', async () => {
    const { core } = withEngine();
    const first = await upload(core, 2, 'monday.wav');
    const second = await upload(core, 2, 'tuesday.wav');
    expect(second.attachment_id).toBe(first.attachment_id);
    const job = await core.api.transcriptions.create({
      attachment_id: second.attachment_id,
      metadata: { audio_name: 'tuesday.wav' },
    });
    expect(job.metadata).toEqual({ audio_name: 'tuesday.wav' });
    await eventsOf(core, job.job_id);
    expect((await core.api.transcriptions.list()).items[0]?.metadata).toEqual({ audio_name: 'tuesday.wav' });
    expect((await core.api.transcriptions.toNote(job.job_id)).title).toBe('tuesday');
  });

  it('a Chinese job asked for in Simplified: its segments, its note and search all read Simplified', async () => {
    const core = openCore({
      transcription: { engine: new PlacedEngine([{ start: 1, end: 4, text: '這是語音識別的課' }]) },
    });
    const job = await core.api.transcriptions.create({
      attachment_id: (await upload(core, 6)).attachment_id,
      language: 'zh',
      metadata: { chinese_script: 'simplified' },
    });
    await eventsOf(core, job.job_id);
    const done = await core.api.transcriptions.get(job.job_id);
    expect(done).toMatchObject({ status: 'completed', language: 'zh', text: '这是语音识别的课' });
    const note = await core.api.transcriptions.toNote(job.job_id, { title: '第五讲' });
    expect(note.body).toContain('这是语音识别的课');
    await core.idle();
    const { hits } = await core.api.search.search({ query: '语音识别' });
    expect(hits.map((hit) => hit.note_id)).toContain(note.note_id);
  });

  it('lists the notes made from a job, oldest first, leaving out trashed ones', async () => {
    const { core } = withEngine();
    const audio = await upload(core, 2);
    const job = await core.api.transcriptions.create({ attachment_id: audio.attachment_id });
    await eventsOf(core, job.job_id);
    expect(await core.api.transcriptions.listNotes(job.job_id)).toEqual([]);

    const [first, second] = await Promise.all([
      core.api.transcriptions.toNote(job.job_id, { title: 'Lecture 1' }),
      core.api.transcriptions.toNote(job.job_id, { title: 'Lecture 1, plain', include_timestamps: false }),
    ]);
    expect(await core.api.transcriptions.listNotes(job.job_id)).toEqual(
      expect.arrayContaining([
        { note_id: first!.note_id, title: 'Lecture 1' },
        { note_id: second!.note_id, title: 'Lecture 1, plain' },
      ]),
    );
    await core.api.notes.trash(first!.note_id);
    expect(await core.api.transcriptions.listNotes(job.job_id)).toEqual([
      { note_id: second!.note_id, title: 'Lecture 1, plain' },
    ]);
    await expectCode(core.api.transcriptions.listNotes('job_missing'), 'JOB_NOT_FOUND');
  });

  describe('a transcription cut short', () => {
    it('goes on after a closed tab from the segments done: the transcript an uninterrupted run makes', async () => {
      const whole = openCore({ transcription: { engine: new PlacedEngine(LECTURE) } });
      const reference = await whole.api.transcriptions.create({
        attachment_id: (await upload(whole, 80)).attachment_id,
      });
      await eventsOf(whole, reference.job_id);
      const uninterrupted = await whole.api.transcriptions.get(reference.job_id);

      // The tab is closed while the third window (50-80 s) is heard.
      let closeTab!: () => void;
      const tabClosed = new Promise<void>((resolve) => (closeTab = resolve));
      const gone = tabClosed.then(() => Promise.reject(new Error('the tab is gone')));
      gone.catch(() => undefined);
      const first = openCore({
        transcription: { engine: new PlacedEngine(LECTURE, { hold: (s) => (s >= 50 ? gone : undefined) }) },
      });
      const audio = await upload(first, 80);
      const job = await first.api.transcriptions.create({ attachment_id: audio.attachment_id });
      const sofar = await eventsUntil(
        first,
        job.job_id,
        (e) => e.event === 'Progress' && (e.data as { current: number }).current === 2,
      );
      expect((await first.api.jobs.get(job.job_id)).progress).toMatchObject({ current: 2, total: 3 });
      const before = sofar.flatMap((e) =>
        e.event === 'Progress' ? (e.data as { segments: TranscriptSegment[] }).segments : [],
      );
      expect(before.length).toBeGreaterThan(0);
      const seam = before.at(-1)!.end_time;

      const engine = new PlacedEngine(LECTURE);
      const reopened = openCore({ transcription: { engine } }, first.db.name);
      expect(await reopened.recover()).toMatchObject({ failed: 0, requeued: 1 });
      const events = await eventsOf(reopened, job.job_id);
      const resumed = await reopened.api.transcriptions.get(job.job_id);

      expect(resumed.status).toBe('completed');
      expect(resumed.segments).toEqual(uninterrupted.segments);
      expect(resumed.text).toBe(uninterrupted.text);
      expect(resumed.language).toBe('zh');
      // The segments done were kept as they were; only the window reaching past the seam and later ones ran.
      expect(resumed.segments.slice(0, before.length)).toEqual(before);
      expect(engine.starts).toEqual([25, 50]);
      const started = events.filter((e) => e.event === 'TranscriptionStarted').map((e) => e.data);
      expect(started.at(-1)).toMatchObject({ resumed_from_seconds: seam });
      expect(
        events.find((e) => e.event === 'Queued' && (e.data as { resumed?: boolean }).resumed),
      ).toBeDefined();
      // Every segment was published once: the job's events hold the whole transcript.
      const published = events.flatMap((e) =>
        e.event === 'Progress' ? (e.data as { segments: TranscriptSegment[] }).segments : [],
      );
      expect(published).toEqual(resumed.segments);
      closeTab();
      await first.idle();
      expect(await reopened.api.transcriptions.get(job.job_id)).toEqual(resumed);
    });

    it('a Chinese job resumed after a closed tab still writes in the script it was asked for', async () => {
      // Whisper writes Traditional; the student asked for Simplified when the job was made.
      const traditional = LECTURE.map((phrase, i) => ({ ...phrase, text: `第${i + 1}段 這是語音識別` }));
      let closeTab!: () => void;
      const gone = new Promise<void>((resolve) => (closeTab = resolve)).then(() =>
        Promise.reject(new Error('the tab is gone')),
      );
      gone.catch(() => undefined);
      const first = openCore({
        transcription: {
          engine: new PlacedEngine(traditional, { hold: (s) => (s >= 50 ? gone : undefined) }),
        },
      });
      const job = await first.api.transcriptions.create({
        attachment_id: (await upload(first, 80)).attachment_id,
        language: 'zh',
        metadata: { audio_name: '第五讲.wav', chinese_script: 'simplified' },
      });
      await eventsUntil(
        first,
        job.job_id,
        (e) => e.event === 'Progress' && (e.data as { current: number }).current === 2,
      );

      // The first tab is let go however this ends: a job still held would keep the database open.
      try {
        const reopened = openCore(
          { transcription: { engine: new PlacedEngine(traditional) } },
          first.db.name,
        );
        expect(await reopened.recover()).toMatchObject({ requeued: 1 });
        await eventsOf(reopened, job.job_id);
        const resumed = await reopened.api.transcriptions.get(job.job_id);
        expect(resumed).toMatchObject({ status: 'completed', language: 'zh' });
        expect(resumed.metadata).toMatchObject({ chinese_script: 'simplified' });
        expect(resumed.segments.at(-1)?.text).toBe('第20段 这是语音识别');
        expect(resumed.text).not.toMatch(/[這語識]/);
      } finally {
        closeTab();
        await first.idle();
      }
    });

    it('a retry of a failed job keeps the segments it finished and transcribes only the rest', async () => {
      const whole = openCore({ transcription: { engine: new PlacedEngine(LECTURE) } });
      const reference = await whole.api.transcriptions.create({
        attachment_id: (await upload(whole, 80)).attachment_id,
      });
      await eventsOf(whole, reference.job_id);
      const uninterrupted = await whole.api.transcriptions.get(reference.job_id);

      let failing = true;
      const engine = new PlacedEngine(LECTURE, { fail: (start) => failing && start >= 50 });
      const core = openCore({ transcription: { engine } });
      const audio = await upload(core, 80);
      const failed = await core.api.transcriptions.create({ attachment_id: audio.attachment_id });
      await eventsOf(core, failed.job_id);
      expect(await core.api.transcriptions.get(failed.job_id)).toMatchObject({
        status: 'failed',
        error: { code: 'TRANSCRIPTION_FAILED' },
      });

      failing = false;
      engine.starts.length = 0;
      const again = await core.api.transcriptions.retry(failed.job_id);
      expect(again).toMatchObject({ status: 'queued', segments: [], metadata: {} });
      const events = await eventsOf(core, again.job_id);
      const job = await core.api.transcriptions.get(again.job_id);
      expect(job.segments).toEqual(uninterrupted.segments);
      expect(engine.starts).toEqual([25, 50]);
      // The retry's own events carry the kept segments too, so a page that opens it shows them.
      const published = events.flatMap((e) =>
        e.event === 'Progress' ? (e.data as { segments: TranscriptSegment[] }).segments : [],
      );
      expect(published).toEqual(job.segments);
    });
  });

  it('each Progress says how much of the audio is transcribed: the end of the window just done', async () => {
    const { core } = withEngine();
    const audio = await upload(core, 60);
    const job = await core.api.transcriptions.create({ attachment_id: audio.attachment_id });
    const events = await eventsOf(core, job.job_id);
    const progress = events.filter((e) => e.event === 'Progress').map((e) => e.data);
    // 60 s in 30 s windows every 25 s: 0-30, 25-55, 50-60.
    expect(progress).toEqual([
      expect.objectContaining({ current: 1, total: 3, processed_seconds: 30, duration_seconds: 60 }),
      expect.objectContaining({ current: 2, total: 3, processed_seconds: 55, duration_seconds: 60 }),
      expect.objectContaining({ current: 3, total: 3, processed_seconds: 60, duration_seconds: 60 }),
    ]);
    // Event data only: the stored progress keeps the contract's fields.
    const stored = await core.api.jobs.get(job.job_id);
    expect(stored.progress).not.toHaveProperty('processed_seconds');
  });
});
