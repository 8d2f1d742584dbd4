import { describe, expect, it } from 'vitest';
import { AppError } from '../contracts';
import { EventLog } from '../core/event-log';
import { MemoryEventStore } from '../core/event-store';
import { REDACTED, SecretRedactor, isSensitiveKey } from './redaction';
import { MemoryArtifactStore, TraceRecorder, traceSnapshot } from './trace';

const snapshot = {
  provider_id: 'mock',
  model: 'mock-1',
  agent_version: 'test',
  max_steps: 3,
  token_budget: null,
  timeout_ms: null,
  allowed_tools: null,
  max_tool_calls: null,
  context_window: 1000,
  kept_rounds: 5,
  tools: [],
  params: {},
  metadata: {},
};

async function recordedRun(log: EventLog, runId = 'run_1') {
  const trace = new TraceRecorder({ log, runId });
  await trace.emit('RunStarted', { run_id: runId, session_id: 's', input: 'hi', config_snapshot: snapshot });
  await trace.emit('ModelCallStarted', {
    model_call_id: 'mc1',
    provider_id: 'mock',
    model: 'mock-1',
    step: 1,
    purpose: 'step',
  });
  await trace.emit('ModelCallCompleted', {
    model_call_id: 'mc1',
    duration_ms: 5,
    finish_reason: 'tool_calls',
    input_tokens: 10,
    output_tokens: 2,
    tool_calls: 1,
  });
  await trace.emit('Usage', {
    model_call_id: 'mc1',
    input_tokens: 10,
    output_tokens: 2,
    total_tokens: 12,
    estimated: false,
    run_total_tokens: 12,
  });
  await trace.emit('ToolCall', {
    tool_call_id: 't1',
    name: 'notes.read',
    step: 1,
    parent_model_call_id: 'mc1',
    arguments: {},
  });
  await trace.emit('ToolResult', {
    tool_call_id: 't1',
    name: 'notes.read',
    step: 1,
    parent_model_call_id: 'mc1',
    status: 'invalid_arguments',
    success: false,
    summary: 'bad',
    duration_ms: 0,
  });
  return trace;
}

describe('traceSnapshot', () => {
  it('pages a running run and summarizes it', async () => {
    const log = new EventLog(new MemoryEventStore());
    await recordedRun(log);
    const first = await traceSnapshot(log, 'run_1', 0, 4);
    expect(first).toMatchObject({
      run_id: 'run_1',
      status: 'running',
      next_sequence: 4,
      has_more: true,
      summary: { model_calls: 1, tool_calls: 1, token_usage: 12, errors: 1 },
      config_snapshot: snapshot,
    });
    expect(first.items.map((item) => item.event)).toEqual([
      'RunStarted',
      'ModelCallStarted',
      'ModelCallCompleted',
      'Usage',
    ]);
    const second = await traceSnapshot(log, 'run_1', first.next_sequence, 4);
    expect(second).toMatchObject({ next_sequence: 6, has_more: false });
  });

  it('reports the terminal status and its duration', async () => {
    const log = new EventLog(new MemoryEventStore());
    const trace = await recordedRun(log);
    await trace.emit('RunFailed', {
      code: 'JOB_FAILED',
      message: 'max',
      reason: 'max_iterations',
      steps: 3,
      duration_ms: 1530,
      token_usage: { input_tokens: 10, output_tokens: 2, total_tokens: 12 },
    });
    const result = await traceSnapshot(log, 'run_1', 6);
    expect(result).toMatchObject({
      status: 'failed',
      items: [{ event: 'RunFailed', sequence: 7 }],
      summary: { duration_ms: 1530, errors: 2 },
    });
  });

  it('gives the run list’s totals over the whole run, whatever page was asked for', async () => {
    const log = new EventLog(new MemoryEventStore());
    const trace = await recordedRun(log);
    const running = await traceSnapshot(log, 'run_1', 0, 1);
    expect(running.summary.totals).toMatchObject({ steps: 1, tokens_known: true, duration_ms: null });
    await trace.emit('RunCompleted', {
      output: 'done',
      steps: 1,
      finish_reason: 'stop',
      duration_ms: 800,
      token_usage: { input_tokens: 10, output_tokens: 2, total_tokens: 12 },
      tool_calls: 1,
    });
    const ended = await traceSnapshot(log, 'run_1', 0, 1);
    expect(ended.summary.totals).toEqual({
      steps: 1,
      input_tokens: 10,
      output_tokens: 2,
      total_tokens: 12,
      tokens_known: true,
      tokens_estimated: false,
      duration_ms: 800,
    });
  });

  it('names the contract errors', async () => {
    const log = new EventLog(new MemoryEventStore());
    await recordedRun(log);
    await log.publish('job_1', 'Progress', {});
    const codeOf = (promise: Promise<unknown>) =>
      promise.then(
        () => 'resolved',
        (error: unknown) => (error instanceof AppError ? error.code : 'other'),
      );
    expect(await codeOf(traceSnapshot(log, 'run_missing'))).toBe('AGENT_RUN_NOT_FOUND');
    expect(await codeOf(traceSnapshot(log, 'run_1', -1))).toBe('TRACE_CURSOR_INVALID');
    expect(await codeOf(traceSnapshot(log, 'run_1', 1.5))).toBe('TRACE_CURSOR_INVALID');
    expect(await codeOf(traceSnapshot(log, 'run_1', 99))).toBe('TRACE_CURSOR_INVALID');
    expect(await codeOf(traceSnapshot(log, 'run_1', 0, 0))).toBe('INVALID_REQUEST');
    expect(await codeOf(traceSnapshot(log, 'job_1'))).toBe('TRACE_NOT_AVAILABLE');
    expect(await codeOf(traceSnapshot(log, 'run_1', 6))).toBe('resolved'); // the end itself is a valid cursor
  });
});

describe('TraceRecorder', () => {
  it('keeps emit order for events nobody awaited', async () => {
    const log = new EventLog(new MemoryEventStore());
    const trace = new TraceRecorder({ log, runId: 'r' });
    for (let i = 0; i < 20; i++)
      void trace.emit('TextDelta', { model_call_id: 'm', step: 1, delta: String(i) });
    await trace.flush();
    const deltas = (await log.list('r', 0, 100)).items.map((item) => (item.data as { delta: string }).delta);
    expect(deltas).toEqual(Array.from({ length: 20 }, (_, i) => String(i)));
    expect(trace.lastSequence).toBe(20);
  });

  it('moves large payloads to artifacts, or truncates them without a store', async () => {
    const log = new EventLog(new MemoryEventStore());
    const artifacts = new MemoryArtifactStore();
    const big = { text: 'y'.repeat(10_000) };
    const withStore = new TraceRecorder({ log, runId: 'a', artifacts, maxInlineBytes: 1_000 });
    const envelope = await withStore.emit('ToolCall', {
      tool_call_id: 't',
      name: 'notes.create',
      step: 1,
      parent_model_call_id: 'm',
      arguments: big,
    });
    const data = envelope.data as { arguments: string; arguments_artifact: { artifact_id: string } };
    expect(data.arguments.length).toBeLessThan(1_100);
    expect(JSON.parse((await artifacts.get(data.arguments_artifact.artifact_id))?.content ?? '')).toEqual(
      big,
    );

    const without = new TraceRecorder({ log, runId: 'b', maxInlineBytes: 1_000 });
    const cut = await without.emit('ToolCall', {
      tool_call_id: 't',
      name: 'notes.create',
      step: 1,
      parent_model_call_id: 'm',
      arguments: big,
    });
    expect(cut.data).toMatchObject({ arguments_truncated: true });
  });
});

describe('SecretRedactor', () => {
  it('scrubs registered values, key shapes, auth headers and secret-named fields', () => {
    const redactor = new SecretRedactor(['my-vault-value-123', 'abc']);
    const out = redactor.redact({
      text: 'token my-vault-value-123 and sk-proj-abcdefghijklmnopqrstuv and ghp_abcdefghijklmnopqrstuvwxyz12',
      header: 'Authorization: Bearer eyJhbGciOi.abcdefghijk.lmnopqrstuv',
      nested: [{ api_key: 'plain', apiKey: 'plain2', input_tokens: 5, has_secret: true }],
      config: 'x-api-key=hello123',
      short: 'abc stays: too short to register',
    });
    const text = JSON.stringify(out);
    for (const secret of ['my-vault-value-123', 'sk-proj-', 'ghp_', 'eyJhbGciOi', 'plain', 'hello123']) {
      expect(text).not.toContain(secret);
    }
    expect(out.nested[0]).toEqual({ api_key: REDACTED, apiKey: REDACTED, input_tokens: 5, has_secret: true });
    expect(out.short).toBe('abc stays: too short to register');
  });

  it('knows secret field names without catching token counts', () => {
    for (const key of [
      'api_key',
      'X-API-Key',
      'Authorization',
      'fallbackApiKey',
      'client_secret',
      'password',
    ]) {
      expect(isSensitiveKey(key)).toBe(true);
    }
    for (const key of ['input_tokens', 'total_tokens', 'max_tokens', 'note_id', 'secrets_count']) {
      expect(isSensitiveKey(key)).toBe(false);
    }
  });
});
