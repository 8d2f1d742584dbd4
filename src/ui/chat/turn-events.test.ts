import { describe, expect, it } from 'vitest';
import type { ChatMessageDto } from '../../contracts/chat';
import type { EventEnvelope } from '../../contracts/events';
import { loadingLine, shortModelName } from './loading-line';
import { applyTurnEvent, toLiveMessage } from './turn-events';

const base: ChatMessageDto = {
  message_id: 'turn_1',
  conversation_id: 'conv_1',
  role: 'assistant',
  position: 1,
  content: '',
  reasoning_content: null,
  reasoning_duration_ms: null,
  tool_calls: [],
  status: 'streaming',
  provider_id: 'openai',
  model: 'gpt-4o-mini',
  finish_reason: null,
  usage: null,
  latency_ms: null,
  tokens_per_second: null,
  error: null,
  created_at: '2026-01-01T00:00:00Z',
  completed_at: null,
};

let sequence = 0;
function event(name: string, data: unknown, seconds = 0): EventEnvelope {
  sequence += 1;
  return {
    id: sequence,
    sequence,
    event: name,
    resource_id: 'turn_1',
    data,
    timestamp: new Date(Date.UTC(2026, 0, 1, 0, 0, seconds)).toISOString().replace('.000', ''),
  };
}

describe('applyTurnEvent', () => {
  it('builds the message from thinking, text, tool calls, usage and Done', () => {
    const events = [
      event('ThinkingDelta', { delta: 'Hmm' }, 1),
      event('ThinkingDelta', { delta: '…' }, 2),
      event('TextDelta', { delta: 'Hi' }, 4),
      event('ToolCallStart', { tool_call_id: 'c1', name: 'search', index: 0 }, 5),
      event('ToolCallEnd', { tool_call_id: 'c1', name: 'search', arguments: { q: 'x' } }, 5),
      event('Usage', { input_tokens: 1, output_tokens: 2, total_tokens: 3 }, 5),
      event('Done', { status: 'completed', finish_reason: 'stop', provider: 'mock', model: 'mock-1' }, 6),
      event('SomethingNew', {}, 7),
    ];
    const message = events.reduce(applyTurnEvent, toLiveMessage(base));
    expect(message).toMatchObject({
      reasoning_content: 'Hmm…',
      reasoning_duration_ms: 3000,
      content: 'Hi',
      tool_calls: [{ tool_call_id: 'c1', name: 'search', arguments: { q: 'x' } }],
      usage: { total_tokens: 3 },
      status: 'completed',
      provider_id: 'mock',
      model: 'mock-1',
    });
  });

  it('clears a discarded attempt and follows a provider switch; records an error', () => {
    const events = [
      event('TextDelta', { delta: 'partial' }),
      event('AttemptDiscarded', {
        provider_id: 'openai',
        model: 'm',
        attempt: 1,
        error_code: 'PROVIDER_STREAM_INTERRUPTED',
      }),
      event('ProviderSwitched', {
        from: { provider_id: 'openai', model: 'm' },
        to: { provider_id: 'mock', model: 'mock-1' },
        error_code: 'PROVIDER_UNAVAILABLE',
      }),
      event('Error', { code: 'PROVIDER_UNAVAILABLE', message: 'down', retryable: true }),
      event('Done', { status: 'failed', error_code: 'PROVIDER_UNAVAILABLE' }),
    ];
    const message = events.reduce(applyTurnEvent, toLiveMessage(base));
    expect(message).toMatchObject({
      content: '',
      provider_id: 'mock',
      status: 'failed',
      error: { code: 'PROVIDER_UNAVAILABLE' },
    });
  });

  const QWEN = 'Qwen2.5-1.5B-Instruct-q4f32_1-MLC';
  const loading = (progress: number) =>
    event('ModelLoading', {
      provider: 'webllm',
      model: QWEN,
      progress,
      text: 'Loading model from cache[1/4]',
    });

  it('shows the load progress until the first text, then never again', () => {
    let message = toLiveMessage({ ...base, provider_id: 'webllm', model: QWEN });
    message = [loading(0), loading(0.42)].reduce(applyTurnEvent, message);
    expect(message.loading).toEqual({ model: QWEN, progress: 0.42 });
    expect(loadingLine(message.loading!)).toBe('Loading Qwen2.5-1.5B into the GPU… 42 %');
    message = [event('TextDelta', { delta: 'Hi' }), loading(0.9)].reduce(applyTurnEvent, message);
    expect(message.loading).toBeNull(); // a late report does not bring the line back
    expect(message.content).toBe('Hi');
  });

  it('ends the load line on thinking, on Stop and on a load failure', () => {
    const start = toLiveMessage(base);
    expect(
      applyTurnEvent(applyTurnEvent(start, loading(0.5)), event('ThinkingDelta', { delta: 'h' })).loading,
    ).toBeNull();
    const stopped = [loading(0.5), event('Done', { status: 'cancelled' })].reduce(applyTurnEvent, start);
    expect(stopped).toMatchObject({ loading: null, status: 'cancelled' });
    const failed = [
      loading(0.1),
      event('Error', {
        code: 'PROVIDER_UNAVAILABLE',
        message: 'The model host is unreachable (offline?)',
        retryable: true,
      }),
    ].reduce(applyTurnEvent, start);
    expect(failed).toMatchObject({
      loading: null,
      error: { message: 'The model host is unreachable (offline?)' },
    });
    // Sources listed before the answer leave the line in place.
    const cited = [
      loading(0.3),
      event('Citation', { index: 1, note_id: 'n', block_id: 'b', title: 't', snippet: 's' }),
    ].reduce(applyTurnEvent, start);
    expect(cited.loading).toEqual({ model: QWEN, progress: 0.3 });
  });

  const digest = (status: string) => event('MemoryDigest', { status });

  it('says earlier chats are being summarised from running to finished, and never after the answer began', () => {
    const start = toLiveMessage(base);
    expect(start.digesting).toBe(false);
    const running = applyTurnEvent(start, digest('running'));
    expect(running.digesting).toBe(true);
    // Sources listed meanwhile leave the status in place.
    expect(
      applyTurnEvent(
        running,
        event('Citation', { index: 1, note_id: 'n', block_id: 'b', title: 't', snippet: 's' }),
      ).digesting,
    ).toBe(true);
    expect(applyTurnEvent(running, digest('finished')).digesting).toBe(false);
    // A missed `finished`: any output or the end takes the status away.
    expect(applyTurnEvent(running, event('TextDelta', { delta: 'Hi' })).digesting).toBe(false);
    expect(applyTurnEvent(running, event('Done', { status: 'cancelled' })).digesting).toBe(false);
    // A replayed `running` after text or the end does not bring it back.
    const answered = applyTurnEvent(start, event('TextDelta', { delta: 'Hi' }));
    expect(applyTurnEvent(answered, digest('running')).digesting).toBe(false);
    const done = applyTurnEvent(start, event('Done', { status: 'completed' }));
    expect(applyTurnEvent(done, digest('running')).digesting).toBe(false);
  });
});

describe('shortModelName', () => {
  it.each([
    ['Qwen2.5-1.5B-Instruct-q4f32_1-MLC', 'Qwen2.5-1.5B'],
    ['Llama-3.2-1B-Instruct-q4f16_1-MLC', 'Llama-3.2-1B'],
    ['gemma-2-2b-it-q4f32_1-MLC-1k', 'gemma-2-2b'],
    ['Qwen3-1.7B-q4f32_1-MLC', 'Qwen3-1.7B'],
    ['mock-1', 'mock-1'],
  ])('%s → %s', (id, short) => expect(shortModelName(id)).toBe(short));
});
