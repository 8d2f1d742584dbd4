import { describe, expect, it, vi } from 'vitest';
import type { EventEnvelope } from '../contracts';
import { EventLog } from '../core/event-log';
import { MemoryEventStore } from '../core/event-store';
import { JobRuntime } from '../core/job-runtime';
import { MemoryJobStore } from '../core/job-store';
import { AudioDecoderChain, WavDecoder } from './audio-decoders';
import { AsrEngineDouble, DiarizerDouble, type ScriptedPhrase } from './__fixtures__/asr-engine-double';
import {
  TRANSCRIPTION_JOB_KIND,
  assignSpeakers,
  transcriptionJobHandler,
  type LoadedAudio,
  type TranscriptionDeps,
} from './transcribe';
import {
  isTranscriptionEventName,
  toTranscriptionJob,
  transcriptionJobSchema,
  type CreateTranscriptionInput,
  type ModelLoadingEventData,
  type TranscriptionResult,
  type TranscriptSegment,
} from '../contracts';
import { encodeWav, sine } from './__fixtures__/synthetic-audio';
import { cancelAtFirstProgress } from './__fixtures__/cancel-at-progress';

const RATE = 16_000;

/** A quiet tone: "speech" to the engine double (silence gives no phrases). */
function toneWav(seconds: number, sampleRate = RATE, channels = 1): Uint8Array {
  const channel = sine(220, seconds, sampleRate, 0.1);
  return encodeWav({
    sampleRate,
    channels: Array.from({ length: channels }, () => channel),
    encoding: 'pcm16',
  });
}

function setup(deps: Partial<TranscriptionDeps> & { files?: Record<string, LoadedAudio> } = {}) {
  const jobs = new MemoryJobStore();
  const events = new EventLog(new MemoryEventStore());
  const runtime = new JobRuntime(jobs, events);
  const engine = deps.engine instanceof AsrEngineDouble ? deps.engine : new AsrEngineDouble();
  const files = deps.files ?? {};
  const loaded: string[] = [];
  runtime.register(
    transcriptionJobHandler({
      loadAudio: async (id) => {
        loaded.push(id);
        return files[id];
      },
      decoder: new AudioDecoderChain([new WavDecoder()]),
      ...deps,
      engine,
    }),
  );
  return { runtime, engine, jobs, loaded };
}

async function run(
  runtime: JobRuntime,
  input: CreateTranscriptionInput,
  onEvent?: (e: EventEnvelope) => void,
) {
  const job = await runtime.create(TRANSCRIPTION_JOB_KIND, input as Record<string, unknown>);
  const seen: EventEnvelope[] = [];
  const subscription = runtime.subscribe(job.job_id, 0, (envelope) => {
    seen.push(envelope);
    onEvent?.(envelope);
  });
  await subscription.closed;
  await runtime.idle();
  return { job: await runtime.get(job.job_id), events: seen, names: seen.map((e) => e.event) };
}

/** Event names with repeats of ModelLoading and Progress collapsed, for order checks. */
function shape(names: string[]): string[] {
  return names.filter(
    (name, index) => name !== names[index - 1] || !['ModelLoading', 'Progress'].includes(name),
  );
}

describe('runTranscription in the job runtime', () => {
  it('runs 95 s of audio: events in order, one Progress per window, a valid TranscriptionJob', async () => {
    const { runtime, engine } = setup({
      files: { att_1: { bytes: toneWav(95), mime_type: 'audio/wav', name: 'talk.wav' } },
    });
    const { job, names, events } = await run(runtime, { attachment_id: 'att_1' });

    expect(shape(names)).toEqual([
      'Queued',
      'Started',
      'ModelLoading',
      'TranscriptionStarted',
      'Progress',
      'Completed',
    ]);
    expect(names.filter((name) => name === 'Progress')).toHaveLength(4);
    expect(names.filter((name) => name !== 'Started').every(isTranscriptionEventName)).toBe(true);

    const progress = events
      .filter((e) => e.event === 'Progress')
      .map((e) => e.data as { segments: TranscriptSegment[] });
    expect(progress).toEqual(
      [1, 2, 3, 4].map((current) => ({
        phase: 'transcribing',
        current,
        total: 4,
        percent: current * 25,
        message: null,
        segments: expect.any(Array),
        // Counted again for the windows a resumed run does not hear again.
        detected_language: 'en',
      })),
    );
    // Live segments: each window publishes the ones no later window can change
    // (ending a second before the next window starts); together, the final transcript.
    const live = progress.map((data) => data.segments);
    expect(live.map((segments) => segments.at(-1)?.end_time)).toEqual([20, 45, 70, 95]);
    expect(live.flat()).toEqual((job.result as TranscriptionResult).segments);
    const started = events.find((e) => e.event === 'TranscriptionStarted')?.data;
    expect(started).toMatchObject({
      profile_id: 'default',
      model_id: 'onnx-community/whisper-tiny',
      window_count: 4,
    });
    expect((started as { duration_seconds: number }).duration_seconds).toBeCloseTo(95, 6);

    const loading = events
      .filter((e) => e.event === 'ModelLoading')
      .map((e) => e.data as ModelLoadingEventData);
    expect(loading[0]).toMatchObject({ status: 'initiate', file: 'onnx/encoder_model_quantized.onnx' });
    expect(loading.at(-1)).toMatchObject({ status: 'ready', percent: 100 });
    expect(loading.some((data) => data.status === 'progress' && data.total_bytes === 30_700_000)).toBe(true);

    expect(engine.calls.map((call) => call.sampleCount)).toEqual([30, 30, 30, 20].map((s) => s * RATE));
    expect(job.status).toBe('completed');
    const result = job.result as TranscriptionResult;
    expect(result.language).toBe('en');
    expect(result.warnings).toEqual(['DIARIZATION_UNAVAILABLE']);
    expect(result.segments.length).toBeGreaterThan(10);
    expect(result.text.startsWith('Window 1, part 1.')).toBe(true);
    const dto = transcriptionJobSchema.parse(toTranscriptionJob(job));
    expect(dto).toMatchObject({ attachment_id: 'att_1', status: 'completed', diarization_enabled: true });
    expect(dto.segments).toEqual(result.segments);
    const completed = events.at(-1)?.data as { result: TranscriptionResult };
    expect(completed.result.segments).toEqual(result.segments);
  });

  it('says where the model comes from: this device while every file so far is read here, the network once one is downloaded', async () => {
    const audio = { att_1: { bytes: toneWav(5), mime_type: 'audio/wav', name: 'a.wav' } };
    const sources = async (files: Array<{ file: string; total: number; source: 'network' | 'device' }>) => {
      const { runtime } = setup({ files: audio, engine: new AsrEngineDouble({ files }) });
      const { events } = await run(runtime, { attachment_id: 'att_1' });
      return events
        .filter((e) => e.event === 'ModelLoading')
        .map((e) => e.data as ModelLoadingEventData)
        .map((data) => `${data.status}:${data.source}`);
    };
    const cached = await sources([
      { file: 'config.json', total: 100, source: 'device' },
      { file: 'onnx/encoder_model.onnx', total: 1_000, source: 'device' },
    ]);
    expect(cached[0]).toBe('initiate:null');
    expect(cached.slice(1).every((entry) => entry.endsWith(':device'))).toBe(true);
    expect(cached.at(-1)).toBe('ready:device');

    const partly = await sources([
      { file: 'config.json', total: 100, source: 'device' },
      { file: 'onnx/encoder_model.onnx', total: 1_000, source: 'network' },
    ]);
    expect(partly).toContain('progress:device');
    expect(partly.indexOf('download:network')).toBeGreaterThan(partly.lastIndexOf('progress:device'));
    expect(partly.at(-1)).toBe('ready:network');
  });

  it('decodes 44.1 kHz stereo, passes language and word timestamps, and gives no warning without diarization', async () => {
    const { runtime, engine } = setup({
      files: { a: { bytes: toneWav(12, 44_100, 2), mime_type: 'audio/x-wav', name: 'a.wav' } },
    });
    const { job } = await run(runtime, {
      attachment_id: 'a',
      language: 'ZH',
      word_timestamps: true,
      diarization: false,
    });
    expect(engine.calls).toEqual([
      { index: 0, sampleCount: 12 * RATE, language: 'zh', wordTimestamps: true },
    ]);
    const result = job.result as TranscriptionResult;
    expect(result.language).toBe('zh');
    expect(result.warnings).toEqual([]);
    expect(result.segments[0]?.words.map((word) => word.word)).toEqual(['Window', '1,', 'part', '1.']);
  });

  it('labels speakers when a diarizer is configured, announcing it before transcription', async () => {
    const script: ScriptedPhrase[] = [
      { start: 1, end: 4, text: 'Welcome to the course.', speaker: 'SPEAKER_00' },
      { start: 5, end: 8, text: 'Thank you, glad to be here.', speaker: 'SPEAKER_01' },
      { start: 9, end: 12, text: 'Let us start with scheduling.', speaker: 'SPEAKER_00' },
    ];
    const diarizer = new DiarizerDouble(script);
    const { runtime } = setup({
      engine: new AsrEngineDouble({ script }),
      diarizer,
      files: { a: { bytes: toneWav(14), mime_type: 'audio/wav', name: 'a.wav' } },
    });
    const { job, names, events } = await run(runtime, { attachment_id: 'a' });
    expect(shape(names)).toEqual([
      'Queued',
      'Started',
      'ModelLoading',
      'DiarizationStarted',
      'DiarizationCompleted',
      'TranscriptionStarted',
      'Progress',
      'Completed',
    ]);
    expect(events.find((e) => e.event === 'DiarizationCompleted')?.data).toEqual({
      status: 'completed',
      speaker_count: 2,
      turn_count: 3,
      error: null,
    });
    const result = job.result as TranscriptionResult;
    expect(result.warnings).toEqual([]);
    expect(result.segments.map((segment) => [segment.speaker, segment.text])).toEqual(
      script.map((phrase) => [phrase.speaker, phrase.text]),
    );
  });

  it('live segments in Progress add up to the final transcript when phrases straddle window seams', async () => {
    // Phrases across the 25-30 s and 50-55 s overlaps, heard cut by one window and
    // whole by the next, with each window's clock a little off (jitter).
    const script: ScriptedPhrase[] = [
      { start: 2, end: 9, text: 'The first part is about processes.', speaker: 'SPEAKER_00' },
      { start: 22, end: 28.5, text: 'A process owns memory and some threads.', speaker: 'SPEAKER_01' },
      { start: 29, end: 33, text: 'Threads share that memory.', speaker: 'SPEAKER_01' },
      { start: 48, end: 53.4, text: 'Scheduling picks the next thread to run.', speaker: 'SPEAKER_00' },
      { start: 60, end: 66, text: 'That is all for today.', speaker: 'SPEAKER_00' },
    ];
    const { runtime } = setup({
      engine: new AsrEngineDouble({ script, jitterSeconds: 0.2 }),
      diarizer: new DiarizerDouble(script),
      files: { a: { bytes: toneWav(70), mime_type: 'audio/wav', name: 'a.wav' } },
    });
    const { job, events } = await run(runtime, { attachment_id: 'a' });
    const live = events
      .filter((e) => e.event === 'Progress')
      .map((e) => (e.data as { segments: TranscriptSegment[] }).segments);
    const final = (job.result as TranscriptionResult).segments;
    expect(live).toHaveLength(3);
    expect(live.flat()).toEqual(final);
    expect(final.map((segment) => segment.speaker)).toEqual(script.map((phrase) => phrase.speaker));
    // Nothing is published before it is settled: window 1 stops before the 25 s seam.
    expect(live[0]?.every((segment) => segment.end_time <= 24)).toBe(true);
  });

  it('a resumed run diarizes only the rest and a context before the seam, keeping the speakers', async () => {
    // 95 s; the lecturer, then a student from 72 s. The run resumes after the first phrase.
    const script: ScriptedPhrase[] = [
      { start: 40, end: 48, text: 'Before the break.', speaker: 'SPEAKER_00' },
      { start: 62, end: 68, text: 'Still the lecturer.', speaker: 'SPEAKER_00' },
      { start: 72, end: 80, text: 'A question.', speaker: 'SPEAKER_01' },
    ];
    const heard: number[] = [];
    const diarizer = {
      profileId: 'diarization-double',
      // Numbers speakers its own way and counts from the start of what it hears.
      diarize: async (samples: Float32Array) => {
        heard.push(samples.length);
        const offset = 95 - samples.length / RATE;
        return script
          .filter((phrase) => phrase.end > offset)
          .map((phrase) => ({
            speaker: phrase.speaker === 'SPEAKER_00' ? 'SPEAKER_01' : 'SPEAKER_00',
            start: Math.max(phrase.start, offset) - offset,
            end: phrase.end - offset,
          }));
      },
    };
    const kept: TranscriptSegment[] = [
      {
        segment_id: 'segment_001',
        speaker: 'SPEAKER_00',
        start_time: 40,
        end_time: 48,
        text: 'Before the break.',
        confidence: null,
        words: [],
      },
    ];
    // The run starts at the second window (25 s); the double counts windows from its first call.
    const heardFromSecondWindow = script.map((phrase) => ({
      ...phrase,
      start: phrase.start - 25,
      end: phrase.end - 25,
    }));
    const { runtime } = setup({
      engine: new AsrEngineDouble({ script: heardFromSecondWindow }),
      diarizer,
      resume: { segments: kept, languages: new Map(), published: false },
      files: { a: { bytes: toneWav(95), mime_type: 'audio/wav', name: 'a.wav' } },
    });
    const { job } = await run(runtime, { attachment_id: 'a' });
    expect(heard).toEqual([(95 - (48 - 30)) * RATE]);
    const segments = (job.result as TranscriptionResult).segments;
    expect(segments.map((segment) => [segment.speaker, segment.text])).toEqual(
      script.map((phrase) => [phrase.speaker, phrase.text]),
    );
  });

  it('completes without speakers and with DIARIZATION_UNAVAILABLE when the diarizer fails', async () => {
    const diarizer = new DiarizerDouble([], {
      failure: new Error('segmentation model missing at /models/x'),
    });
    const { runtime } = setup({
      diarizer,
      files: { a: { bytes: toneWav(5), mime_type: 'audio/wav', name: 'a.wav' } },
    });
    const { job, events } = await run(runtime, { attachment_id: 'a' });
    expect(job.status).toBe('completed');
    expect((job.result as TranscriptionResult).warnings).toEqual(['DIARIZATION_UNAVAILABLE']);
    const completed = events.find((e) => e.event === 'DiarizationCompleted')?.data;
    expect(completed).toMatchObject({ status: 'failed', error: { code: 'DIARIZATION_MODEL_UNAVAILABLE' } });
    expect(JSON.stringify(completed)).not.toContain('/models/x');
  });

  it('cancel while running stops inside the current window and ends Cancelled', async () => {
    const engine = new AsrEngineDouble({ delayMs: 300 });
    const { runtime } = setup({
      engine,
      files: { a: { bytes: toneWav(95), mime_type: 'audio/wav', name: 'a.wav' } },
    });
    const job = await runtime.create(TRANSCRIPTION_JOB_KIND, { attachment_id: 'a' });
    const names = await cancelAtFirstProgress(runtime, job.job_id);

    expect(names.at(-1)).toBe('Cancelled');
    expect(names.filter((name) => name === 'Progress')).toHaveLength(1);
    expect(engine.calls).toHaveLength(2);
    // The window in progress was aborted, not waited out.
    expect(engine.abortedWindows).toBe(1);
    const final = await runtime.get(job.job_id);
    expect(final).toMatchObject({ status: 'cancelled', result: null, error: null });
    expect(final.completed_at).not.toBeNull();
  });

  it('an engine failure fails the job with TRANSCRIPTION_FAILED and no third-party text', async () => {
    const engine = new AsrEngineDouble({
      failAtWindow: 1,
      failure: new Error('ORT: bad_alloc at 0xdeadbeef'),
    });
    const { runtime } = setup({
      engine,
      files: { a: { bytes: toneWav(40), mime_type: 'audio/wav', name: 'a.wav' } },
    });
    const { job, names } = await run(runtime, { attachment_id: 'a' });
    expect(names.at(-1)).toBe('Failed');
    expect(job.status).toBe('failed');
    expect(job.error).toMatchObject({ code: 'TRANSCRIPTION_FAILED', details: { window: 1, start_time: 25 } });
    expect(JSON.stringify(job.error)).not.toContain('bad_alloc');
  });

  it('a model that cannot load fails the job with TRANSCRIPTION_MODEL_UNAVAILABLE', async () => {
    const engine = new AsrEngineDouble({ failLoad: new TypeError('Failed to fetch') });
    const { runtime } = setup({
      engine,
      files: { a: { bytes: toneWav(5), mime_type: 'audio/wav', name: 'a.wav' } },
    });
    const { job, names } = await run(runtime, { attachment_id: 'a' });
    expect(shape(names)).toEqual(['Queued', 'Started', 'ModelLoading', 'Failed']);
    expect(job.error).toMatchObject({
      code: 'TRANSCRIPTION_MODEL_UNAVAILABLE',
      details: { profile_id: 'default', model_id: 'onnx-community/whisper-tiny' },
    });
    expect(engine.calls).toEqual([]);
  });

  it.each([
    ['a missing attachment', 'ATTACHMENT_NOT_FOUND', { attachment_id: 'nope' }],
    ['a truncated WAV', 'UNSUPPORTED_AUDIO_FORMAT', { attachment_id: 'cut' }],
    ['a text file', 'UNSUPPORTED_AUDIO_FORMAT', { attachment_id: 'text' }],
    [
      'an unknown profile',
      'TRANSCRIPTION_PROFILE_NOT_FOUND',
      { attachment_id: 'cut', profile_id: 'whisper-huge' },
    ],
    ['a model path', 'VALIDATION_FAILED', { attachment_id: 'cut', profile_id: '/models/whisper' }],
  ] as const)('%s fails with %s before any model download', async (_label, code, input) => {
    const wav = toneWav(3);
    const { runtime, engine } = setup({
      files: {
        cut: { bytes: wav.subarray(0, 5000), mime_type: 'audio/wav', name: 'cut.wav' },
        text: { bytes: new TextEncoder().encode('not audio'), mime_type: 'audio/wav', name: 'x.wav' },
      },
    });
    const { job } = await run(runtime, input);
    expect(job.status).toBe('failed');
    expect(job.error?.code).toBe(code);
    expect(engine.loads).toEqual([]);
  });

  it('loads the model once; later jobs only report it ready', async () => {
    const { runtime, engine } = setup({
      files: { a: { bytes: toneWav(2), mime_type: 'audio/wav', name: 'a.wav' } },
    });
    await run(runtime, { attachment_id: 'a' });
    const second = await run(runtime, { attachment_id: 'a' });
    expect(engine.loads).toEqual(['onnx-community/whisper-tiny']);
    const loading = second.events.filter((e) => e.event === 'ModelLoading');
    expect(loading.map((e) => (e.data as ModelLoadingEventData).status)).toEqual(['ready']);
  });

  it('silent audio completes with no segments and empty text', async () => {
    const silent = encodeWav({ sampleRate: RATE, channels: [new Float32Array(RATE * 3)], encoding: 'pcm16' });
    const { runtime } = setup({ files: { a: { bytes: silent, mime_type: 'audio/wav', name: 'a.wav' } } });
    const { job } = await run(runtime, { attachment_id: 'a', diarization: false });
    expect(job.result).toEqual({ language: 'en', segments: [], text: '', warnings: [] });
  });
});

describe('the script of a Chinese transcript', () => {
  /** What Whisper, asked for zh, often writes: Traditional characters, across two windows. */
  const TRADITIONAL: ScriptedPhrase[] = [
    { start: 2, end: 6, text: '這是語音識別' },
    { start: 40, end: 44, text: '還有後面的內容' },
  ];
  const SIMPLIFIED = ['这是语音识别', '还有后面的内容'];

  function publishedSegments(events: EventEnvelope[]): string[] {
    return events.flatMap((e) =>
      e.event === 'Progress'
        ? ((e.data as { segments?: TranscriptSegment[] }).segments ?? []).map((s) => s.text)
        : [],
    );
  }

  async function transcribe(
    input: Partial<CreateTranscriptionInput>,
    engine = new AsrEngineDouble({ script: TRADITIONAL }),
  ) {
    const { runtime } = setup({
      engine,
      files: { a: { bytes: toneWav(60), mime_type: 'audio/wav', name: 'a.wav' } },
    });
    const { job, events } = await run(runtime, { attachment_id: 'a', ...input });
    return { result: job.result as TranscriptionResult, published: publishedSegments(events) };
  }

  it('writes a zh job in Simplified when it asks for Simplified: live segments, transcript and text; language stays zh', async () => {
    const { result, published } = await transcribe({
      language: 'zh',
      metadata: { chinese_script: 'simplified' },
    });
    expect(result.segments.map((s) => s.text)).toEqual(SIMPLIFIED);
    expect(published).toEqual(SIMPLIFIED);
    expect(result.text).toBe(SIMPLIFIED.join(''));
    expect(result.language).toBe('zh');
  });

  it('converts a detected Chinese job too, and leaves the text as it was without the choice or in another language', async () => {
    const detectsZh = () => new AsrEngineDouble({ script: TRADITIONAL, language: 'zh' });
    const detected = await transcribe({ metadata: { chinese_script: 'simplified' } }, detectsZh());
    expect(detected.result.segments.map((s) => s.text)).toEqual(SIMPLIFIED);

    const asWritten = TRADITIONAL.map((phrase) => phrase.text);
    const unchanged = await transcribe({ language: 'zh', metadata: { chinese_script: 'unchanged' } });
    expect(unchanged.result.segments.map((s) => s.text)).toEqual(asWritten);
    const noChoice = await transcribe({ language: 'zh' });
    expect(noChoice.result.segments.map((s) => s.text)).toEqual(asWritten);
    const japanese = await transcribe(
      { metadata: { chinese_script: 'simplified' } },
      new AsrEngineDouble({ script: TRADITIONAL, language: 'ja' }),
    );
    expect(japanese.result.segments.map((s) => s.text)).toEqual(asWritten);
  });

  it('completes as Whisper wrote it, with CHINESE_SCRIPT_UNAVAILABLE, when the converter cannot be loaded', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    const { runtime } = setup({
      engine: new AsrEngineDouble({ script: TRADITIONAL }),
      scriptConverter: async () => {
        throw new Error('chunk failed to load');
      },
      files: { a: { bytes: toneWav(60), mime_type: 'audio/wav', name: 'a.wav' } },
    });
    const { job } = await run(runtime, {
      attachment_id: 'a',
      language: 'zh',
      metadata: { chinese_script: 'simplified' },
    });
    expect(job.status).toBe('completed');
    const result = job.result as TranscriptionResult;
    expect(result.segments.map((s) => s.text)).toEqual(TRADITIONAL.map((phrase) => phrase.text));
    expect(result.warnings).toContain('CHINESE_SCRIPT_UNAVAILABLE');
  });

  it('a resumed run goes on converting what it transcribes, keeping the segments already done', async () => {
    // The run before wrote its first segment in Traditional, as the job asks; Whisper now writes Simplified.
    const kept: TranscriptSegment[] = [
      {
        segment_id: 'segment_001',
        speaker: null,
        start_time: 2,
        end_time: 6,
        text: '這是語音識別',
        confidence: null,
        words: [],
      },
    ];
    const { runtime } = setup({
      engine: new AsrEngineDouble({
        script: TRADITIONAL.map((phrase, index) => ({ ...phrase, text: SIMPLIFIED[index] ?? '' })),
      }),
      resume: { segments: kept, languages: new Map([[0, 'zh']]), published: false },
      files: { a: { bytes: toneWav(60), mime_type: 'audio/wav', name: 'a.wav' } },
    });
    const { job, events } = await run(runtime, {
      attachment_id: 'a',
      language: 'zh',
      metadata: { chinese_script: 'traditional' },
    });
    const result = job.result as TranscriptionResult;
    expect(result.segments.map((s) => s.text)).toEqual(['這是語音識別', '還有後面的內容']);
    expect(result.segments[0]).toEqual(kept[0]);
    expect(publishedSegments(events)).toEqual(['這是語音識別', '還有後面的內容']);
  });
});

describe('assignSpeakers', () => {
  it('gives each segment the speaker it overlaps most, null when none', () => {
    const segment = (start: number, end: number) => ({
      segment_id: `s${start}`,
      speaker: null,
      start_time: start,
      end_time: end,
      text: 'x',
      confidence: null,
      words: [],
    });
    const turns: Parameters<typeof assignSpeakers>[1] = [
      { speaker: 'A', start: 0, end: 3 },
      { speaker: 'B', start: 3, end: 10 },
    ];
    expect(
      assignSpeakers([segment(1, 4), segment(2.5, 6), segment(11, 12)], turns).map((s) => s.speaker),
    ).toEqual(['A', 'B', null]);
  });
});
