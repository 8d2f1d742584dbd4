import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  AppError,
  CONTRACT_ERROR_CODES,
  ERROR_CODES,
  canTransition,
  errorCodeEntry,
  createNoteSchema,
  errorEnvelopeSchema,
  eventEnvelopeSchema,
  httpStatusFor,
  isErrorEnvelope,
  jobSchema,
  jobStatusSchema,
  parseInput,
  sequenceQuerySchema,
  toErrorEnvelope,
  pageQuerySchema,
  updateSettingsSchema,
} from './index';

describe('error envelope', () => {
  it('serialises an AppError as {error:{code,message,details}} and back', () => {
    const error = new AppError('RESOURCE_NOT_FOUND', 'Resource was not found.', { id: 'n1' });
    const envelope = error.toEnvelope();
    expect(envelope).toEqual({
      error: { code: 'RESOURCE_NOT_FOUND', message: 'Resource was not found.', details: { id: 'n1' } },
    });
    expect(errorEnvelopeSchema.parse(envelope)).toEqual(envelope);
    const back = AppError.fromEnvelope(envelope);
    expect(back).toBeInstanceOf(AppError);
    expect(back.code).toBe('RESOURCE_NOT_FOUND');
    expect(back.status).toBe(404);
  });

  it('hides the text of unknown errors behind INTERNAL_ERROR', () => {
    const envelope = toErrorEnvelope(new Error('at /home/user/secret.ts:12 sk-live-abc'));
    expect(envelope.error.code).toBe('INTERNAL_ERROR');
    expect(JSON.stringify(envelope)).not.toContain('sk-live');
  });

  it('maps aborts to JOB_CANCELLED', () => {
    expect(toErrorEnvelope(new DOMException('stop', 'AbortError')).error.code).toBe('JOB_CANCELLED');
  });

  it('rejects an unknown code in an envelope', () => {
    expect(
      errorEnvelopeSchema.safeParse({ error: { code: 'NOPE', message: 'x', details: {} } }).success,
    ).toBe(false);
    expect(isErrorEnvelope({ error: { code: 'NOPE', message: 'x' } })).toBe(false);
  });

  it('assigns the HTTP status §14 names', () => {
    expect(httpStatusFor('STATE_CONFLICT')).toBe(409);
    expect(httpStatusFor('VALIDATION_FAILED')).toBe(422);
    expect(httpStatusFor('AGENT_RUN_NOT_FOUND')).toBe(404);
    expect(httpStatusFor('PROVIDER_RATE_LIMITED')).toBe(429);
    expect(httpStatusFor('PROVIDER_UNAVAILABLE')).toBe(503);
    expect(httpStatusFor('PAYLOAD_TOO_LARGE')).toBe(413);
    expect(httpStatusFor('NOT_IMPLEMENTED')).toBe(501);
    expect(httpStatusFor('THEME_CSS_UNSAFE')).toBe(422);
  });

  it('gives upstream provider failures 5xx, user-input parse errors 422, and trust approval 403', () => {
    for (const code of [
      'PROVIDER_AUTH_FAILED',
      'PROVIDER_PROTOCOL_ERROR',
      'PROVIDER_STREAM_INTERRUPTED',
      'PROVIDER_UNAVAILABLE',
      'PROVIDER_TIMEOUT',
      'MCP_TOOL_CALL_FAILED',
    ] as const) {
      expect([502, 503, 504]).toContain(httpStatusFor(code));
    }
    expect(httpStatusFor('MERMAID_PARSE_FAILED')).toBe(422);
    expect(httpStatusFor('FUNCTION_PLOT_PARSE_FAILED')).toBe(422);
    expect(httpStatusFor('MCP_TRUST_APPROVAL_REQUIRED')).toBe(403);
    expect(httpStatusFor('PROVIDER_CONTENT_FILTERED')).toBe(422);
  });

  it('lists every contract code once, and every code has a status', () => {
    expect(new Set(ERROR_CODES).size).toBe(ERROR_CODES.length);
    expect(CONTRACT_ERROR_CODES).toContain('INDEX_MODEL_MISMATCH');
    expect(CONTRACT_ERROR_CODES).toContain('TRACE_CURSOR_INVALID');
    for (const code of ERROR_CODES) expect(httpStatusFor(code)).toBeGreaterThanOrEqual(400);
  });

  it('every catalog entry says whether its message names the specifics', () => {
    for (const code of ERROR_CODES) expect(typeof errorCodeEntry(code).detailed).toBe('boolean');
    // Messages that name the file, tool, command or method: the toast needs them.
    for (const code of ['UNSUPPORTED_AUDIO_FORMAT', 'PLUGIN_COMMAND_NOT_FOUND', 'INVALID_REQUEST'] as const) {
      expect(errorCodeEntry(code).detailed).toBe(true);
    }
    // Messages that only restate the code: the localized text says it all.
    for (const code of ['NOTE_NOT_FOUND', 'INTERNAL_ERROR', 'JOB_CANCELLED'] as const) {
      expect(errorCodeEntry(code).detailed).toBe(false);
    }
  });

  it('turns zod failures into VALIDATION_FAILED with field paths but not values', () => {
    const schema = z.object({ title: z.string().max(3) });
    try {
      parseInput(schema, { title: 'secret-value' });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(AppError);
      const envelope = (error as AppError).toEnvelope();
      expect(envelope.error.code).toBe('VALIDATION_FAILED');
      expect(envelope.error.details).toMatchObject({ fields: [{ path: 'title' }] });
      expect(JSON.stringify(envelope)).not.toContain('secret-value');
    }
  });
});

describe('jobs', () => {
  const base = {
    job_id: 'job_1',
    kind: 'import',
    progress: null,
    error: null,
    created_at: '2026-08-31T10:30:00Z',
    started_at: null,
    updated_at: '2026-08-31T10:30:00Z',
    completed_at: null,
  };

  it('accepts legacy processing as running', () => {
    expect(jobStatusSchema.parse('processing')).toBe('running');
    expect(jobSchema.parse({ ...base, status: 'processing' }).status).toBe('running');
    expect(jobStatusSchema.safeParse('done').success).toBe(false);
  });

  it('requires completed_at on terminal jobs and an error code on failed ones', () => {
    expect(jobSchema.safeParse({ ...base, status: 'completed' }).success).toBe(false);
    expect(
      jobSchema.safeParse({ ...base, status: 'failed', completed_at: '2026-08-31T10:31:00Z' }).success,
    ).toBe(false);
    const failed = jobSchema.parse({
      ...base,
      status: 'failed',
      completed_at: '2026-08-31T10:31:00Z',
      error: { code: 'JOB_INTERRUPTED', message: 'x', details: {} },
    });
    expect(failed.error?.code).toBe('JOB_INTERRUPTED');
  });

  it('accepts null percent and the §4.2 progress example', () => {
    const progress = {
      phase: 'transcribing',
      current: 42,
      total: 100,
      percent: 42.0,
      message: '正在转写音频',
    };
    expect(jobSchema.parse({ ...base, status: 'running', progress }).progress).toEqual(progress);
    expect(
      jobSchema.parse({ ...base, status: 'running', progress: { ...progress, percent: null, total: null } })
        .progress?.percent,
    ).toBeNull();
  });

  it('allows only the state machine moves', () => {
    expect(canTransition('queued', 'running')).toBe(true);
    expect(canTransition('running', 'completed')).toBe(true);
    expect(canTransition('completed', 'running')).toBe(false);
    expect(canTransition('cancelled', 'completed')).toBe(false);
    expect(canTransition('queued', 'completed')).toBe(false);
  });
});

describe('pages and cursors', () => {
  it('defaults and bounds offset pages', () => {
    expect(pageQuerySchema.parse({})).toEqual({ limit: 50, offset: 0 });
    expect(pageQuerySchema.safeParse({ limit: 0 }).success).toBe(false);
    expect(pageQuerySchema.safeParse({ offset: -1 }).success).toBe(false);
  });

  it('rejects negative after_sequence', () => {
    expect(sequenceQuerySchema.safeParse({ after_sequence: -1 }).success).toBe(false);
    expect(sequenceQuerySchema.parse({ after_sequence: 42 }).after_sequence).toBe(42);
  });

  it('validates the §4.4 envelope example', () => {
    const envelope = {
      id: 42,
      sequence: 42,
      event: 'Progress',
      resource_id: 'job_123',
      data: { percent: 50 },
      timestamp: '2026-08-31T10:30:00Z',
    };
    expect(eventEnvelopeSchema.parse(envelope)).toEqual(envelope);
    expect(eventEnvelopeSchema.safeParse({ ...envelope, id: 41 }).success).toBe(false);
    expect(eventEnvelopeSchema.safeParse({ ...envelope, timestamp: '2026-08-31 10:30' }).success).toBe(false);
  });
});

describe('note and settings input', () => {
  it('normalises folders and tags', () => {
    const note = createNoteSchema.parse({ folder: '/课程//操作系统/ ', tags: ['#os', 'os', ' 调度 '] });
    expect(note.folder).toBe('课程/操作系统');
    expect(note.tags).toEqual(['os', '调度']);
  });

  it('rejects path traversal in folders', () => {
    expect(createNoteSchema.safeParse({ folder: 'a/../b' }).success).toBe(false);
  });

  it('rejects unknown settings keys', () => {
    expect(updateSettingsSchema.safeParse({ locale: 'en' }).success).toBe(true);
    expect(updateSettingsSchema.safeParse({ locael: 'en' }).success).toBe(false);
  });
});
