import { describe, expect, it } from 'vitest';
import type { EventEnvelope } from '../../contracts/events';
import type { TranscriptionJob, TranscriptSegment } from '../../contracts/transcription';
import {
  applyTranscriptionEvent,
  liveFromJob,
  mergeSegments,
  secondsLeft,
  secondsLeftAt,
  type TranscriptionLive,
} from './transcription-events';

const job: TranscriptionJob = {
  job_id: 'transcription_1',
  attachment_id: 'attachment_1',
  status: 'queued',
  progress: null,
  language: null,
  diarization_enabled: false,
  segments: [],
  text: null,
  warnings: [],
  error: null,
  created_at: '2026-08-31T10:30:00Z',
  started_at: null,
  updated_at: '2026-08-31T10:30:00Z',
  completed_at: null,
};

const segment = (id: string, start: number, end: number, text = id): TranscriptSegment => ({
  segment_id: id,
  speaker: null,
  start_time: start,
  end_time: end,
  text,
  confidence: null,
  words: [],
});

let sequence = 0;
function event(
  name: string,
  data: unknown = {},
  resource_id = job.job_id,
  timestamp = '2026-08-31T10:30:01Z',
): EventEnvelope {
  sequence += 1;
  return { resource_id, sequence, event: name, data, timestamp } as EventEnvelope;
}

function fold(events: EventEnvelope[], start: TranscriptionLive = liveFromJob(job)): TranscriptionLive {
  return events.reduce(applyTranscriptionEvent, start);
}

describe('applyTranscriptionEvent', () => {
  it('follows a job from queued through model download and live segments to completed', () => {
    sequence = 0;
    const queued = fold([event('Queued')]);
    expect(queued).toMatchObject({ status: 'queued', percent: null, modelLoading: null });

    const loading = fold(
      [
        event('Started'),
        event('ModelLoading', {
          status: 'progress',
          file: 'encoder_model.onnx',
          percent: 42.5,
          source: 'device',
        }),
      ],
      queued,
    );
    expect(loading).toMatchObject({
      status: 'running',
      modelLoading: { percent: 42.5, file: 'encoder_model.onnx', source: 'device' },
    });
    // From a worker that does not say, or says something unknown: the source is not claimed.
    const unsaid = fold([event('ModelLoading', { status: 'progress', percent: 10, source: 'moon' })], queued);
    expect(unsaid.modelLoading).toMatchObject({ percent: 10, source: null });

    const ready = fold([event('ModelLoading', { status: 'ready', percent: 100 })], loading);
    expect(ready.modelLoading).toBeNull();

    const first = fold(
      [
        event('TranscriptionStarted', { window_count: 2 }),
        event('Progress', {
          phase: 'transcribing',
          current: 1,
          total: 2,
          percent: 50,
          segments: [segment('s1', 0, 2.4, 'Hello'), segment('s2', 2.4, 5, 'world')],
        }),
      ],
      ready,
    );
    expect(first.percent).toBe(50);
    expect(first.segments.map((s) => s.text)).toEqual(['Hello', 'world']);

    const done = fold(
      [
        event('Progress', { current: 2, total: 2, percent: null, segments: [segment('s3', 5, 7, 'again')] }),
        event('Completed', { segments: [] }),
      ],
      first,
    );
    expect(done).toMatchObject({ status: 'completed', percent: 100, error: null });
    expect(done.segments.map((s) => s.segment_id)).toEqual(['s1', 's2', 's3']);
  });

  it('derives the percentage from current/total when the event carries none', () => {
    sequence = 0;
    const live = fold([event('Started'), event('Progress', { current: 1, total: 4, percent: null })]);
    expect(live.percent).toBe(25);
  });

  it('ignores replayed events, other jobs’ events and names it does not know', () => {
    sequence = 0;
    const started = event('Started');
    const progress = event('Progress', { percent: 30, segments: [segment('s1', 0, 1)] });
    const once = fold([started, progress]);
    const replayed = applyTranscriptionEvent(once, progress);
    expect(replayed).toBe(once);
    const foreign = applyTranscriptionEvent(once, event('Cancelled', {}, 'transcription_2'));
    expect(foreign.status).toBe('running');
    const unknown = applyTranscriptionEvent(once, event('SomethingNew', { percent: 99 }));
    expect(unknown).toMatchObject({ status: 'running', percent: 30 });
  });

  it('keeps malformed live segments out', () => {
    sequence = 0;
    const live = fold([
      event('Progress', { percent: 10, segments: [{ segment_id: 'x' }, segment('ok', 1, 2), 'nope'] }),
    ]);
    expect(live.segments.map((s) => s.segment_id)).toEqual(['ok']);
  });

  it('reports a failure with its error code and keeps the segments so far', () => {
    sequence = 0;
    const live = fold([
      event('Progress', { percent: 50, segments: [segment('s1', 0, 1)] }),
      event('Failed', {
        error: { code: 'TRANSCRIPTION_MODEL_UNAVAILABLE', message: 'The model could not be loaded.' },
      }),
    ]);
    expect(live).toMatchObject({
      status: 'failed',
      percent: 50,
      error: { code: 'TRANSCRIPTION_MODEL_UNAVAILABLE', message: 'The model could not be loaded.' },
    });
    expect(live.segments).toHaveLength(1);
  });

  it('keeps why the audio could not be read, from the failure’s details', () => {
    sequence = 0;
    const live = fold([
      event('Failed', {
        error: {
          code: 'UNSUPPORTED_AUDIO_FORMAT',
          message: 'The WAV file is incomplete.',
          details: { container: 'wav', reason: 'damaged' },
        },
      }),
    ]);
    expect(live.error).toEqual({
      code: 'UNSUPPORTED_AUDIO_FORMAT',
      message: 'The WAV file is incomplete.',
      audio: { reason: 'damaged' },
    });
  });

  it('does not move a finished job back when late events arrive', () => {
    sequence = 0;
    const cancelled = fold([
      event('Started'),
      event('Cancelled', { error: { code: 'TRANSCRIPTION_CANCELLED' } }),
    ]);
    expect(cancelled.status).toBe('cancelled');
    const late = applyTranscriptionEvent(cancelled, event('Progress', { percent: 90 }));
    expect(late).toMatchObject({ status: 'cancelled', percent: null });
  });
});

describe('model loading', () => {
  const loading = (status: string, file: string, percent: number | null) =>
    event('ModelLoading', { status, file, percent, source: 'network' });

  it('says the model is being prepared once every file seen has arrived, weights among them', () => {
    sequence = 0;
    const download = fold([
      event('Started'),
      loading('initiate', 'config.json', null),
      loading('done', 'config.json', 100),
    ]);
    // Only the configuration so far: the weights are still to come, not "preparing".
    expect(download.modelLoading).toMatchObject({ percent: 100, preparing: false });

    const weights = fold(
      [
        loading('initiate', 'onnx/encoder_model_quantized.onnx', 100),
        loading('initiate', 'onnx/decoder_model_merged_quantized.onnx', 100),
        loading('progress', 'onnx/encoder_model_quantized.onnx', 40),
        loading('done', 'onnx/encoder_model_quantized.onnx', 100),
      ],
      download,
    );
    // The decoder has not said its size yet: 100 % of what is known, and still downloading.
    expect(weights.modelLoading).toMatchObject({ percent: 100, preparing: false });

    const arrived = fold([loading('done', 'onnx/decoder_model_merged_quantized.onnx', 100)], weights);
    expect(arrived.modelLoading).toMatchObject({ percent: 100, preparing: true, source: 'network' });
    expect(fold([event('ModelLoading', { status: 'ready', percent: 100 })], arrived).modelLoading).toBeNull();
  });

  it('counts external weight data as weights', () => {
    sequence = 0;
    const live = fold([
      loading('initiate', 'onnx/model.onnx', null),
      loading('initiate', 'onnx/model.onnx_data', null),
      loading('done', 'onnx/model.onnx', 20),
    ]);
    expect(live.modelLoading?.preparing).toBe(false);
    expect(fold([loading('done', 'onnx/model.onnx_data', 100)], live).modelLoading?.preparing).toBe(true);
  });
});

describe('audio time', () => {
  it('follows processed of total seconds, and estimates the rest from the events’ own times', () => {
    sequence = 0;
    const started = fold([
      event('Started'),
      event('TranscriptionStarted', { duration_seconds: 3600 }, job.job_id, '2026-08-31T10:30:00Z'),
    ]);
    expect(started).toMatchObject({ audio: { processed: 0, duration: 3600 }, secondsLeft: null });

    // 30 s of audio took 10 s: the other 3570 s take about 1190 s.
    const first = fold(
      [
        event(
          'Progress',
          { current: 1, total: 144, processed_seconds: 30, duration_seconds: 3600 },
          job.job_id,
          '2026-08-31T10:30:10Z',
        ),
      ],
      started,
    );
    expect(first.audio).toEqual({ processed: 30, duration: 3600 });
    expect(first.secondsLeft).toBeCloseTo(1190);
    expect(first.estimatedAt).toBe('2026-08-31T10:30:10Z');

    // Between windows the page counts down from the estimate (never below zero); a page clock
    // behind the event's time (it ticks every 30 s) shows the estimate as it is.
    expect(secondsLeftAt(first, Date.parse('2026-08-31T10:31:10Z'))).toBeCloseTo(1130);
    expect(secondsLeftAt(first, Date.parse('2026-08-31T10:30:00Z'))).toBeCloseTo(1190);
    expect(secondsLeftAt(first, Date.parse('2026-08-31T11:30:00Z'))).toBe(0);

    const done = fold([event('Completed', {})], first);
    expect(done.secondsLeft).toBeNull();
    expect(secondsLeftAt(done, Date.parse('2026-08-31T10:31:10Z'))).toBeNull();
  });

  it('keeps a bare percentage for a core that does not say where in the audio it is', () => {
    sequence = 0;
    const live = fold([event('Started'), event('Progress', { current: 1, total: 2, percent: 50 })]);
    expect(live).toMatchObject({ percent: 50, audio: null, secondsLeft: null });
  });

  it('estimates nothing without a start, before any audio is done, or from a clock that went back', () => {
    const audio = { processed: 30, duration: 60 };
    expect(secondsLeft(audio, null, '2026-08-31T10:30:10Z')).toBeNull();
    expect(
      secondsLeft({ processed: 0, duration: 60 }, '2026-08-31T10:30:00Z', '2026-08-31T10:30:10Z'),
    ).toBeNull();
    expect(secondsLeft(audio, '2026-08-31T10:30:10Z', '2026-08-31T10:30:00Z')).toBeNull();
    expect(secondsLeft(audio, '2026-08-31T10:30:00Z', '2026-08-31T10:30:03Z')).toBeCloseTo(3);
  });
});

describe('a run that goes on after a closed tab', () => {
  it('keeps the segments so far, says where it resumes, and counts the pace of the new run only', () => {
    sequence = 0;
    const cut = fold([
      event('Queued'),
      event('Started'),
      event('TranscriptionStarted', { duration_seconds: 240 }, job.job_id, '2026-08-31T10:30:00Z'),
      event(
        'Progress',
        {
          current: 1,
          total: 10,
          processed_seconds: 30,
          duration_seconds: 240,
          segments: [segment('segment_001', 0, 12), segment('segment_002', 12, 23.5)],
        },
        job.job_id,
        '2026-08-31T10:30:10Z',
      ),
    ]);
    expect(cut.resumedFrom).toBeNull();

    // Reopened: queued again, said to resume where the kept transcript ends.
    const queued = fold([event('Queued', { status: 'queued', resumed: true })], cut);
    expect(queued).toMatchObject({ status: 'queued', resumedFrom: 23.5 });
    expect(queued.segments.map((s) => s.segment_id)).toEqual(['segment_001', 'segment_002']);

    const started = fold(
      [
        event('Started'),
        event(
          'TranscriptionStarted',
          { duration_seconds: 240, resumed_from_seconds: 23.5 },
          job.job_id,
          '2026-08-31T11:00:00Z',
        ),
      ],
      queued,
    );
    expect(started).toMatchObject({
      status: 'running',
      resumedFrom: 23.5,
      audio: { processed: 23.5, duration: 240 },
    });

    // 55 - 23.5 = 31.5 s of audio in 21 s: the other 185 s take about 123.3 s.
    const next = fold(
      [
        event(
          'Progress',
          {
            current: 2,
            total: 10,
            processed_seconds: 55,
            duration_seconds: 240,
            segments: [segment('segment_003', 25, 30)],
          },
          job.job_id,
          '2026-08-31T11:00:21Z',
        ),
      ],
      started,
    );
    expect(next.segments.map((s) => s.segment_id)).toEqual(['segment_001', 'segment_002', 'segment_003']);
    expect(next.secondsLeft).toBeCloseTo((21 / 31.5) * 185);
  });

  it('a retry says where it resumes from its TranscriptionStarted alone', () => {
    sequence = 0;
    const live = fold([
      event('Queued'),
      event('Started'),
      event('TranscriptionStarted', { duration_seconds: 240, resumed_from_seconds: 49 }),
    ]);
    expect(live).toMatchObject({ resumedFrom: 49, audio: { processed: 49, duration: 240 } });
  });
});

describe('liveFromJob', () => {
  it('shows a completed job at 100 % with its transcript and warnings', () => {
    const live = liveFromJob({
      ...job,
      status: 'completed',
      segments: [segment('a', 0, 1)],
      warnings: ['DIARIZATION_UNAVAILABLE'],
      completed_at: '2026-08-31T10:31:00Z',
    });
    expect(live).toMatchObject({ status: 'completed', percent: 100, warnings: ['DIARIZATION_UNAVAILABLE'] });
  });

  it('reads a running job’s stored progress', () => {
    const live = liveFromJob({
      ...job,
      status: 'running',
      progress: { phase: 'transcribing', current: 3, total: 4, percent: null, message: null },
    });
    expect(live.percent).toBe(75);
  });
});

describe('mergeSegments', () => {
  it('sorts by start time and adds each id once', () => {
    const merged = mergeSegments(
      [segment('b', 5, 6)],
      [segment('a', 1, 2), segment('b', 5, 6), segment('c', 8, 9)],
    );
    expect(merged.map((s) => s.segment_id)).toEqual(['a', 'b', 'c']);
  });
});
