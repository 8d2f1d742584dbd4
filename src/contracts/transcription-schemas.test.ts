import { describe, expect, it } from 'vitest';
import { ASR_MODELS, ASR_PROFILES, approxDownloadMb, resolveAsrProfile } from '../media/asr-models';
import {
  AppError,
  parseInput,
  type JobDto,
  createTranscriptionSchema,
  listTranscriptionsSchema,
  toTranscriptionJob,
  transcriptNoteSchema,
  transcriptSegmentSchema,
  transcriptSegmentsSchema,
  transcriptionJobSchema,
  TRANSCRIPTION_EVENT_NAMES,
} from '.';

function fields(schema: Parameters<typeof parseInput>[0], input: unknown): string[] {
  try {
    parseInput(schema, input);
  } catch (error) {
    if (error instanceof AppError && error.code === 'VALIDATION_FAILED') {
      return (error.details.fields as Array<{ path: string }>).map((field) => field.path);
    }
    throw error;
  }
  return [];
}

describe('§5.1 create request', () => {
  it('fills the contract defaults', () => {
    expect(createTranscriptionSchema.parse({ attachment_id: 'attachment_123' })).toEqual({
      attachment_id: 'attachment_123',
      language: null,
      diarization: true,
      word_timestamps: false,
      profile_id: 'default',
      metadata: {},
    });
    expect(createTranscriptionSchema.parse({ attachment_id: 'a', language: 'en-US' }).language).toBe('en-us');
  });

  it.each([
    ['a model path as profile', { attachment_id: 'a', profile_id: '/home/me/models/whisper' }, 'profile_id'],
    ['a Windows path as profile', { attachment_id: 'a', profile_id: 'C:\\models\\w' }, 'profile_id'],
    ['a hub id as profile', { attachment_id: 'a', profile_id: 'onnx-community/whisper-tiny' }, 'profile_id'],
    ['a directory walk', { attachment_id: 'a', profile_id: 'x..y' }, 'profile_id'],
    ['a URL as profile', { attachment_id: 'a', profile_id: 'https://evil.example/model' }, 'profile_id'],
    ['an extra model_path field', { attachment_id: 'a', model_path: '/models/whisper' }, ''],
    ['a path as attachment', { attachment_id: '../etc/passwd' }, 'attachment_id'],
    ['a file URL as attachment', { attachment_id: 'file:///tmp/a.wav' }, 'attachment_id'],
    ['a missing attachment', {}, 'attachment_id'],
    ['a bad language', { attachment_id: 'a', language: 'english!' }, 'language'],
    ['huge metadata', { attachment_id: 'a', metadata: { blob: 'x'.repeat(20_000) } }, 'metadata'],
  ])('rejects %s', (_label, input, path) => {
    expect(fields(createTranscriptionSchema, input)).toContain(path);
  });
});

describe('§5.2 segments', () => {
  const segment = {
    segment_id: 'segment_001',
    start_time: 12.4,
    end_time: 18.9,
    text: '这一部分介绍进程调度。',
  };

  it('accepts the contract example with empty speaker, confidence and words', () => {
    expect(
      transcriptSegmentSchema.parse({ ...segment, speaker: null, confidence: null, words: null }),
    ).toEqual({
      ...segment,
      speaker: null,
      confidence: null,
      words: [],
    });
  });

  it('rejects negative durations and overlapping or unsorted segments', () => {
    expect(transcriptSegmentSchema.safeParse({ ...segment, end_time: 10 }).success).toBe(false);
    const second = { ...segment, segment_id: 'segment_002', start_time: 18, end_time: 20 };
    expect(transcriptSegmentsSchema.safeParse([segment, second]).success).toBe(false);
    expect(transcriptSegmentsSchema.safeParse([segment, { ...second, start_time: 18.9 }]).success).toBe(true);
  });
});

describe('TranscriptionJob', () => {
  const job: JobDto = {
    job_id: 'job_1',
    kind: 'transcription',
    status: 'queued',
    progress: null,
    input: { attachment_id: 'attachment_123', language: null, diarization: true, profile_id: 'default' },
    result: null,
    error: null,
    created_at: '2026-08-31T10:30:00.000Z',
    started_at: null,
    updated_at: '2026-08-31T10:30:00.000Z',
    completed_at: null,
  };

  it('a queued runtime job reads as the contract response example', () => {
    expect(transcriptionJobSchema.parse(toTranscriptionJob(job))).toEqual({
      job_id: 'job_1',
      attachment_id: 'attachment_123',
      status: 'queued',
      progress: null,
      language: null,
      diarization_enabled: true,
      segments: [],
      text: null,
      warnings: [],
      error: null,
      created_at: '2026-08-31T10:30:00.000Z',
      started_at: null,
      updated_at: '2026-08-31T10:30:00.000Z',
      completed_at: null,
    });
  });

  it('reads the first phase status `processing` as running, and checks terminal fields', () => {
    const wire = { ...toTranscriptionJob(job), status: 'processing' };
    expect(transcriptionJobSchema.parse(wire).status).toBe('running');
    expect(transcriptionJobSchema.safeParse({ ...wire, status: 'completed' }).success).toBe(false);
    expect(
      transcriptionJobSchema.safeParse({ ...wire, status: 'failed', completed_at: '2026-08-31T10:31:00Z' })
        .success,
    ).toBe(false);
  });

  it('list query pages and filters by status', () => {
    expect(listTranscriptionsSchema.parse({ status: 'processing' })).toEqual({
      status: 'running',
      limit: 50,
      offset: 0,
    });
    expect(listTranscriptionsSchema.safeParse({ limit: 0 }).success).toBe(false);
    expect(listTranscriptionsSchema.safeParse({ status: 'done' }).success).toBe(false);
  });

  it('names the §5.3 events verbatim', () => {
    expect(TRANSCRIPTION_EVENT_NAMES).toEqual([
      'Queued',
      'ModelLoading',
      'DiarizationStarted',
      'DiarizationCompleted',
      'TranscriptionStarted',
      'Progress',
      'Completed',
      'Failed',
      'Cancelled',
    ]);
  });
});

describe('§5.4 note request', () => {
  it('fills defaults and normalises the folder', () => {
    expect(transcriptNoteSchema.parse({ title: ' 操作系统课程录音 ', folder: '/课程/操作系统/' })).toEqual({
      title: '操作系统课程录音',
      folder: '课程/操作系统',
      include_timestamps: true,
      include_speakers: true,
      template_id: null,
    });
  });

  it('rejects unknown templates and folder walks', () => {
    expect(fields(transcriptNoteSchema, { template_id: 'fancy' })).toEqual(['template_id']);
    expect(fields(transcriptNoteSchema, { folder: 'a/../b' })).toEqual(['folder']);
  });
});

describe('model catalog', () => {
  it('offers tiny, base and small, multilingual, with approximate sizes', () => {
    expect(ASR_MODELS.map((model) => model.model_id)).toEqual([
      'onnx-community/whisper-tiny',
      'onnx-community/whisper-base',
      'onnx-community/whisper-small',
    ]);
    expect(ASR_MODELS.every((model) => model.multilingual)).toBe(true);
    for (const model of ASR_MODELS) {
      expect(model.approx_download_mb.q8).toBeLessThan(model.approx_download_mb.fp16);
      expect(model.approx_download_mb.fp16).toBeLessThan(model.approx_download_mb.fp32);
    }
    expect(approxDownloadMb(resolveAsrProfile('default'), 'wasm')).toBe(41);
    expect(
      ASR_PROFILES.every(
        (profile) =>
          createTranscriptionSchema.safeParse({ attachment_id: 'a', profile_id: profile.profile_id }).success,
      ),
    ).toBe(true);
  });

  it('an unknown profile is TRANSCRIPTION_PROFILE_NOT_FOUND (404)', () => {
    expect(() => resolveAsrProfile('whisper-large')).toThrow(
      expect.objectContaining({ code: 'TRANSCRIPTION_PROFILE_NOT_FOUND', status: 404 }),
    );
  });
});
