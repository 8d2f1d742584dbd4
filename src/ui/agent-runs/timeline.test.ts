import { describe, expect, it } from 'vitest';
import type { EventEnvelope } from '../../contracts/events';
import { buildTimeline, pendingPermission } from './timeline';

let sequence = 0;
function envelope(event: string, data: Record<string, unknown>): EventEnvelope {
  sequence += 1;
  return { id: sequence, sequence, event, resource_id: 'run_1', data, timestamp: '2026-01-01T00:00:00Z' };
}

describe('buildTimeline', () => {
  it('folds deltas into model calls and results into tool calls, and finds the open permission', () => {
    sequence = 0;
    const events = [
      envelope('RunStarted', { input: 'hi' }),
      envelope('ModelCallStarted', { model_call_id: 'm1', step: 1, provider_id: 'mock', model: 'mock-1' }),
      envelope('ThinkingDelta', { model_call_id: 'm1', delta: 'Hmm' }),
      envelope('TextDelta', { model_call_id: 'm1', delta: 'Hel' }),
      envelope('TextDelta', { model_call_id: 'm1', delta: 'lo' }),
      envelope('ModelCallCompleted', { model_call_id: 'm1', duration_ms: 5, finish_reason: 'tool_calls' }),
      envelope('Usage', { model_call_id: 'm1', total_tokens: 42 }),
      envelope('ToolCall', {
        tool_call_id: 't1',
        name: 'tasks.create',
        step: 1,
        arguments: { tasks: ['a'] },
      }),
      envelope('PermissionRequired', { request_id: 'p1', permission: 'notes.write', tool: 'tasks.create' }),
    ];
    expect(pendingPermission(events)?.request_id).toBe('p1');
    const more = [
      ...events,
      envelope('PermissionResolved', { request_id: 'p1', decision: 'allow_once' }),
      envelope('ToolResult', { tool_call_id: 't1', status: 'ok', success: true, summary: 'Added 1 task' }),
    ];
    expect(pendingPermission(more)).toBeNull();
    const items = buildTimeline(more);
    expect(items.map((item) => item.event)).toEqual([
      'RunStarted',
      'ModelCallStarted',
      'ToolCall',
      'PermissionRequired',
      'PermissionResolved',
    ]);
    expect(items[1]).toMatchObject({ text: 'Hello', thinking: 'Hmm', status: 'completed', total_tokens: 42 });
    expect(items[2]).toMatchObject({ status: 'ok', success: true, summary: 'Added 1 task' });
    // Same events, same timeline (replay).
    expect(buildTimeline([...more].reverse())).toEqual(items);
  });
});
