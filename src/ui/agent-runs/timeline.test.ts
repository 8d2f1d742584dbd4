import { describe, expect, it } from 'vitest';
import type { EventEnvelope } from '../../contracts/events';
import { argumentsLine, buildTimeline, diffLines, pendingPermission, runPhase } from './timeline';

let sequence = 0;
function envelope(event: string, data: Record<string, unknown>): EventEnvelope {
  sequence += 1;
  return { id: sequence, sequence, event, resource_id: 'run_1', data, timestamp: '2026-01-01T00:00:00Z' };
}

describe('buildTimeline', () => {
  it('keeps the code of a failed model call beside its message, for the UI to word it', () => {
    sequence = 0;
    const [, call] = buildTimeline([
      envelope('RunStarted', { input: 'hi' }),
      envelope('ModelCallStarted', { model_call_id: 'm1', step: 1, provider_id: 'custom', model: 'm' }),
      envelope('ModelCallFailed', {
        model_call_id: 'm1',
        duration_ms: 9,
        code: 'PROVIDER_UNAVAILABLE',
        message: 'Could not reach the provider: Failed to fetch.',
      }),
    ]);
    expect(call).toMatchObject({
      status: 'failed',
      error: 'Could not reach the provider: Failed to fetch.',
      error_code: 'PROVIDER_UNAVAILABLE',
    });
  });

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

  it('shows the permission question and its answer before the tool call they let run (or stopped)', () => {
    sequence = 0;
    const asked = (id: string, tool: string) => [
      envelope('ToolCall', { tool_call_id: id, name: tool, step: 1, arguments: { title: 'A' } }),
      envelope('PermissionRequired', {
        request_id: `p_${id}`,
        tool,
        tool_call_id: id,
        permission: 'notes.write',
      }),
      envelope('PermissionResolved', {
        request_id: `p_${id}`,
        tool,
        tool_call_id: id,
        decision: 'allow_once',
      }),
    ];
    const events = [
      envelope('RunStarted', { input: 'hi' }),
      ...asked('t1', 'notes.create'),
      envelope('ToolResult', { tool_call_id: 't1', status: 'ok', success: true, summary: 'Created' }),
      ...asked('t2', 'notes.update'),
      envelope('ToolResult', { tool_call_id: 't2', status: 'denied', success: false, error: 'Denied' }),
    ];
    const items = buildTimeline(events);
    expect(items.map((item) => `${item.event}${item.kind === 'tool_call' ? ` ${item.name}` : ''}`)).toEqual([
      'RunStarted',
      'PermissionRequired',
      'PermissionResolved',
      'ToolCall notes.create',
      'PermissionRequired',
      'PermissionResolved',
      'ToolCall notes.update',
    ]);
    // Live, before the answer: the question shows above the waiting call.
    const waiting = buildTimeline(events.slice(0, 3));
    expect(waiting.map((item) => item.event)).toEqual(['RunStarted', 'PermissionRequired', 'ToolCall']);
    expect(runPhase(events.slice(0, 3), waiting)).toEqual({ kind: 'approval', tool: 'notes.create' });
  });

  it('marks a tool call waiting for the user’s answer, then running once allowed, until its result', () => {
    sequence = 0;
    const events = [
      envelope('RunStarted', { input: 'hi' }),
      envelope('ToolCall', { tool_call_id: 't1', name: 'slow.tool', step: 1, arguments: {} }),
      envelope('PermissionRequired', { request_id: 'p1', tool: 'slow.tool', tool_call_id: 't1' }),
      envelope('PermissionResolved', { request_id: 'p1', tool: 'slow.tool', tool_call_id: 't1' }),
      envelope('ToolResult', { tool_call_id: 't1', status: 'ok', success: true, summary: 'done' }),
    ];
    const call = (count: number) =>
      buildTimeline(events.slice(0, count)).find((item) => item.kind === 'tool_call');
    expect(call(2)).toMatchObject({ status: null, awaiting_approval: false });
    expect(call(3)).toMatchObject({ status: null, awaiting_approval: true });
    expect(call(4)).toMatchObject({ status: null, awaiting_approval: false });
    expect(call(5)).toMatchObject({ status: 'ok', awaiting_approval: false });
  });

  it('keeps a failed tool call’s error code and the text the model sent when it was not JSON', () => {
    sequence = 0;
    const [call] = buildTimeline([
      envelope('ToolCall', {
        tool_call_id: 't1',
        name: 'notes.search',
        arguments: {},
        arguments_text: '{"query": "Alpha",,',
      }),
      envelope('ToolResult', {
        tool_call_id: 't1',
        status: 'invalid_arguments',
        success: false,
        error: 'not valid JSON',
        error_code: 'VALIDATION_FAILED',
      }),
    ]);
    expect(call).toMatchObject({
      name: 'notes.search',
      arguments_text: '{"query": "Alpha",,',
      error_code: 'VALIDATION_FAILED',
    });
  });
});

describe('failover and diffs in the timeline', () => {
  it('clears text a discarded attempt streamed, and names the provider that answered', () => {
    sequence = 0;
    const events = [
      envelope('ModelCallStarted', { model_call_id: 'm1', step: 1, provider_id: 'primary', model: 'p-1' }),
      envelope('TextDelta', { model_call_id: 'm1', delta: 'Half an ans' }),
      envelope('AttemptDiscarded', { model_call_id: 'm1', provider_id: 'primary', model: 'p-1', attempt: 1 }),
      envelope('ProviderSwitched', { model_call_id: 'm1', from: {}, to: {} }),
      envelope('TextDelta', { model_call_id: 'm1', delta: 'The answer.' }),
      envelope('ModelCallCompleted', { model_call_id: 'm1', provider_id: 'backup', model: 'b-1' }),
    ];
    const call = buildTimeline(events)[0];
    expect(call).toMatchObject({
      kind: 'model_call',
      text: 'The answer.',
      provider_id: 'backup',
      model: 'b-1',
    });
  });

  it('gives the permission prompt its summary and diff, and marks diff lines', () => {
    sequence = 0;
    const diff = '--- a/n\n+++ b/n\n@@ -1,1 +1,2 @@\n # T\n+- [ ] task\n-old\n';
    const events = [
      envelope('PermissionRequired', {
        request_id: 'p1',
        permission: 'notes.write',
        tool: 'tasks.create',
        summary: 'Add 1 task(s) to “T”.',
        diff,
      }),
    ];
    expect(pendingPermission(events)).toMatchObject({ summary: 'Add 1 task(s) to “T”.', diff });
    expect(diffLines(diff).map((line) => line.kind)).toEqual([
      'header',
      'header',
      'header',
      'context',
      'add',
      'remove',
    ]);
  });
});

describe('runPhase', () => {
  it('names what a live run waits on: the model, the user’s answer, a tool; nothing once it ended', () => {
    sequence = 0;
    const phaseAfter = (events: EventEnvelope[]) => runPhase(events, buildTimeline(events));
    const started = [envelope('RunStarted', { input: 'hi' })];
    expect(phaseAfter([])).toBeNull();
    expect(phaseAfter(started)).toEqual({ kind: 'working' });
    const calling = [
      ...started,
      envelope('ModelCallStarted', { model_call_id: 'm1', step: 1, provider_id: 'custom', model: 'm' }),
    ];
    expect(phaseAfter(calling)).toEqual({ kind: 'model', provider_id: 'custom', model: 'm' });
    const tool = [
      ...calling,
      envelope('ModelCallCompleted', { model_call_id: 'm1', duration_ms: 5 }),
      envelope('ToolCall', { tool_call_id: 't1', name: 'notes.create', step: 1 }),
    ];
    expect(phaseAfter(tool)).toEqual({ kind: 'tool', tool: 'notes.create' });
    const asking = [
      ...tool,
      envelope('PermissionRequired', {
        request_id: 'p1',
        permission: 'notes.write',
        tool: 'notes.create',
        action: { kind: 'note_create', title: '进程调度摘要' },
      }),
    ];
    expect(phaseAfter(asking)).toEqual({ kind: 'approval', tool: 'notes.create' });
    expect(pendingPermission(asking)?.action).toEqual({
      kind: 'note_create',
      title: '进程调度摘要',
    });
    expect(phaseAfter([...asking, envelope('RunCancelled', { reason: 'user' })])).toBeNull();
  });

  it('keeps the folder a new note would land in, for the prompt to name', () => {
    sequence = 0;
    const ask = (action: Record<string, unknown>) =>
      pendingPermission([
        envelope('PermissionRequired', {
          request_id: 'p1',
          permission: 'notes.write',
          tool: 'notes.create',
          action,
        }),
      ])?.action;
    expect(ask({ kind: 'note_create', title: 'Alpha summary', folder: 'Projects/Alpha' })).toEqual({
      kind: 'note_create',
      title: 'Alpha summary',
      folder: 'Projects/Alpha',
    });
    expect(ask({ kind: 'note_create', title: 'Top', folder: '' })).toEqual({
      kind: 'note_create',
      title: 'Top',
    });
    expect(ask({ kind: 'note_append', title: 'T', folder: 'X' })).toEqual({
      kind: 'note_append',
      title: 'T',
    });
  });

  it('ignores a preview action of an unknown kind (the prompt falls back to the tool’s own line)', () => {
    sequence = 0;
    const events = [
      envelope('PermissionRequired', {
        request_id: 'p1',
        tool: 'x.y',
        summary: 'Do it.',
        action: { kind: 'rm' },
      }),
    ];
    expect(pendingPermission(events)?.action).toBeNull();
  });

  it('keeps a move-and-tag action’s folder and tags, dropping what is not a string', () => {
    sequence = 0;
    const asking = (action: Record<string, unknown>) => [
      envelope('PermissionRequired', { request_id: 'p1', tool: 'notes.organise', summary: 'Move.', action }),
    ];
    expect(
      pendingPermission(
        asking({
          kind: 'note_organise',
          title: '进程调度',
          folder: '操作系统',
          tags_added: ['数据库', 3],
          tags_removed: ['旧'],
        }),
      )?.action,
    ).toEqual({
      kind: 'note_organise',
      title: '进程调度',
      folder: '操作系统',
      tags_added: ['数据库'],
      tags_removed: ['旧'],
    });
    // Tags only: the note stays in its folder.
    expect(
      pendingPermission(asking({ kind: 'note_organise', title: 'n', tags_added: ['a'] }))?.action,
    ).toEqual({ kind: 'note_organise', title: 'n', folder: null, tags_added: ['a'], tags_removed: [] });
  });
});

describe('argumentsLine', () => {
  it('reads an object as name: value pairs, strings unquoted', () => {
    expect(argumentsLine({ expression: '17 * 23' })).toBe('expression: 17 * 23');
    expect(argumentsLine({ query: 'deadlock\n  conditions', top_k: 5, tags: ['os'] })).toBe(
      'query: deadlock conditions, top_k: 5, tags: ["os"]',
    );
  });

  it('says nothing for no arguments and cuts a long line with an ellipsis', () => {
    expect(argumentsLine(undefined)).toBe('');
    expect(argumentsLine(null)).toBe('');
    expect(argumentsLine({})).toBe('');
    const line = argumentsLine({ body: 'x'.repeat(500) }, 40);
    expect(line).toHaveLength(40);
    expect(line.endsWith('…')).toBe(true);
  });

  it('keeps a non-object as it is', () => {
    expect(argumentsLine('raw text')).toBe('raw text');
    expect(argumentsLine([1, 2])).toBe('[1,2]');
  });
});
