import { describe, expect, it } from 'vitest';
import standardStream from '../ir/__fixtures__/standard-stream.jsonl?raw';
import {
  MetonaProviderError,
  metonaStreamEventSchema,
  type MetonaRequest,
  type MetonaStreamEvent,
} from '../ir';
import { MockAdapter } from './mock';
import { ModelEventProjector, streamModelEvents, type ModelEvent } from './model-events';

const clock = () => Date.parse('2026-08-31T10:30:00Z');
const events = standardStream
  .split('\n')
  .filter(Boolean)
  .map((line) => metonaStreamEventSchema.parse(JSON.parse(line)) as MetonaStreamEvent);
const envelope = { requestId: 'r', sessionId: 's', iteration: 1, timestamp: 0 };

const request: MetonaRequest = {
  meta: { sessionId: 's', iteration: 1, requestId: 'r_model', timestamp: 0, agentVersion: 'test' },
  systemPrompt: { roleDefinition: '', outputConstraints: '', safetyGuidelines: '' },
  messages: [{ role: 'user', content: 'hi', timestamp: 0 }],
  params: { stream: true },
};

describe('ModelEventProjector', () => {
  it("projects the standard's example stream into §8.2 events", () => {
    const projector = new ModelEventProjector({ resourceId: 'msg_1', clock });
    const out = events.flatMap((event) => projector.push(event));
    out.push(...projector.finish());
    expect(out.map((e) => e.event)).toEqual([
      'ThinkingDelta',
      'TextDelta',
      'TextDelta',
      'ToolCallStart',
      'ToolCallDelta',
      'ToolCallEnd',
      'Usage',
      'Done',
    ]);
    expect(out.map((e) => e.sequence)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(out.every((e) => e.id === e.sequence && e.resource_id === 'msg_1')).toBe(true);
    expect(out[0]!.timestamp).toBe('2026-08-31T10:30:00.000Z');
    const [start, delta, end] = out.slice(3, 6);
    expect(start).toMatchObject({ data: { tool_call_id: 'tc_1', name: 'read_file', index: 0 } });
    expect(delta).toMatchObject({
      data: { tool_call_id: 'tc_1', arguments_delta: '{"file_path":"/home/user/data.csv"}' },
    });
    expect(end).toMatchObject({
      data: { tool_call_id: 'tc_1', arguments: { file_path: '/home/user/data.csv' } },
    });
    expect(out[6]!.data).toEqual({ input_tokens: 120, output_tokens: 45, total_tokens: 165 });
    expect(out[7]!.data).toEqual({ status: 'completed' });
  });

  it('Done carries the provider, model and finish reason that answered', () => {
    const projector = new ModelEventProjector({ resourceId: 'x', startSequence: 41 });
    const [done] = projector.finish({
      response: {
        meta: { requestId: 'r', provider: 'ollama', model: 'qwen3:8b', latencyMs: 1, timestamp: 0 },
        content: '',
        usage: { inputTokens: 0, outputTokens: 0, totalTokens: 0 },
        finishReason: 'length',
      },
    });
    expect(done).toMatchObject({
      sequence: 41,
      event: 'Done',
      data: { status: 'completed', provider: 'ollama', model: 'qwen3:8b', finish_reason: 'length' },
    });
  });

  it('a failure is Error then Done(failed); nothing follows', () => {
    const projector = new ModelEventProjector({ resourceId: 'x' });
    const out: ModelEvent[] = [
      ...projector.push({ ...envelope, seq: 0, type: 'text_delta', delta: 'par' }),
      ...projector.push({
        ...envelope,
        seq: 1,
        type: 'error',
        error: { code: 'network_error', message: 'cut', retryable: true, providerCode: 'stream_interrupted' },
      }),
      ...projector.push({ ...envelope, seq: 2, type: 'text_delta', delta: 'late' }),
      ...projector.finish(),
      ...projector.finish(),
    ];
    expect(out.map((e) => e.event)).toEqual(['TextDelta', 'Error', 'Done']);
    expect(out[1]!.data).toMatchObject({
      code: 'PROVIDER_STREAM_INTERRUPTED',
      metona_code: 'network_error',
      retryable: true,
    });
    expect(out[2]!.data).toEqual({ status: 'failed', error_code: 'PROVIDER_STREAM_INTERRUPTED' });
    expect(projector.terminated).toBe(true);
  });

  it('a cancellation is Done(cancelled) without an Error', () => {
    const projector = new ModelEventProjector({ resourceId: 'x' });
    projector.push({
      ...envelope,
      seq: 0,
      type: 'error',
      error: { code: 'user_aborted', message: 'stop', retryable: false },
    });
    expect(projector.finish().map((e) => [e.event, e.data])).toEqual([['Done', { status: 'cancelled' }]]);
  });

  it('a rejection that never reached the stream still ends with Error then Done', () => {
    const projector = new ModelEventProjector({ resourceId: 'x' });
    const out = projector.finish({
      error: new MetonaProviderError({ code: 'auth_invalid', message: 'bad key', retryable: false }),
    });
    expect(out.map((e) => e.event)).toEqual(['Error', 'Done']);
    expect(out[0]!.data).toMatchObject({ code: 'PROVIDER_AUTH_FAILED' });
  });

  it('never invents ThinkingDelta from thinking_start/thinking_end alone', () => {
    const projector = new ModelEventProjector({ resourceId: 'x' });
    expect([
      ...projector.push({ ...envelope, seq: 0, type: 'thinking_start' }),
      ...projector.push({ ...envelope, seq: 1, type: 'thinking_end' }),
    ]).toEqual([]);
  });
});

describe('streamModelEvents', () => {
  it('runs a call and delivers its ModelEvents, never rejecting', async () => {
    const received: ModelEvent[] = [];
    const ok = await streamModelEvents(new MockAdapter({ scenario: 'reasoning' }), request, (e) =>
      received.push(e),
    );
    expect(ok.status).toBe('completed');
    expect(received.at(-1)).toMatchObject({
      event: 'Done',
      resource_id: 'r_model',
      data: { provider: 'mock', model: 'mock-1' },
    });

    const failed: ModelEvent[] = [];
    const outcome = await streamModelEvents(new MockAdapter({ scenario: 'http-500' }), request, (e) =>
      failed.push(e),
    );
    expect(outcome).toMatchObject({ status: 'failed', error: { code: 'model_overloaded' } });
    expect(failed.map((e) => e.event)).toEqual(['Error', 'Done']);
  });

  it('reports a Stop as cancelled', async () => {
    const controller = new AbortController();
    const received: ModelEvent[] = [];
    setTimeout(() => controller.abort(), 80);
    const outcome = await streamModelEvents(
      new MockAdapter({ scenario: 'slow-text' }),
      request,
      (e) => received.push(e),
      {
        signal: controller.signal,
      },
    );
    expect(outcome.status).toBe('cancelled');
    expect(received.at(-1)).toMatchObject({ event: 'Done', data: { status: 'cancelled' } });
  });
});
