import { describe, expect, it } from 'vitest';
import type { AgentCaseDto, EventEnvelope } from '../contracts';
import { isTerminalAgentEvent, openTaskCount, scoreAgentCase } from './agent-score';

const ENTRY: AgentCaseDto = {
  case_id: 'review',
  prompt: 'review tasks',
  allowed_tools: ['rag.search', 'notes.read', 'tasks.create'],
  expected_tools: ['rag.search', 'tasks.create'],
  expected_conditions: { citation_required: true, tasks_created: 2, answer_contains: ['done'] },
  tags: [],
};

let sequence = 0;
function event(name: string, data: Record<string, unknown>): EventEnvelope {
  sequence += 1;
  return {
    id: sequence,
    sequence,
    event: name,
    resource_id: 'run_1',
    data,
    timestamp: '2026-12-01T00:00:00Z',
  };
}

const base = {
  entry: ENTRY,
  before: { notes: 1, tasks: 0 },
  latency: 12.345,
  tokenBudget: 1000,
  runId: 'run_1',
};

describe('scoreAgentCase', () => {
  it('passes a case that met every condition, counting calls, steps and tokens from the trace', () => {
    const events = [
      event('ToolCall', { name: 'rag.search' }),
      event('ToolResult', { name: 'rag.search', status: 'ok', success: true }),
      event('ToolCall', { name: 'tasks.create' }),
      event('ToolResult', { name: 'tasks.create', status: 'ok', success: true }),
      event('RunCompleted', { steps: 3, output: 'all done', token_usage: { total_tokens: 420 } }),
    ];
    expect(scoreAgentCase({ ...base, events, status: 'completed', after: { notes: 1, tasks: 2 } })).toEqual({
      kind: 'agent',
      case_id: 'review',
      prompt: 'review tasks',
      trace_run_id: 'run_1',
      status: 'completed',
      passed: true,
      failure_reason: null,
      tools_called: ['rag.search', 'tasks.create'],
      expected_tools: ['rag.search', 'tasks.create'],
      invalid_tool_calls: 0,
      tool_calls: 2,
      argument_errors: 0,
      steps: 3,
      latency_ms: 12.35,
      token_usage: 420,
    });
  });

  it('names every unmet condition and counts refused calls', () => {
    const events = [
      event('ToolCall', { name: 'tasks.create' }),
      event('ToolResult', { name: 'tasks.create', status: 'invalid_arguments', success: false }),
      event('ToolCall', { name: 'shell.run' }),
      event('ToolResult', { name: 'shell.run', status: 'unknown_tool', success: false }),
      event('RunFailed', {
        steps: 2,
        code: 'AGENT_STEP_LIMIT',
        message: 'too many steps',
        token_usage: { total_tokens: 2000 },
      }),
    ];
    const result = scoreAgentCase({ ...base, events, status: 'failed', after: { notes: 2, tasks: 0 } });
    expect(result.passed).toBe(false);
    expect(result.failure_reason).toBe(
      [
        'run failed (AGENT_STEP_LIMIT: too many steps)',
        'expected tools not called: rag.search',
        'tasks_created: expected 2, got 0',
        'citation_required: no note was searched or read successfully',
        'answer does not contain "done"',
        'token budget exceeded: 2000 > 1000',
      ].join('; '),
    );
    expect(result).toMatchObject({ tool_calls: 2, invalid_tool_calls: 2, argument_errors: 1, steps: 2 });
  });

  it('names a run the runtime stopped at its token budget once, as the budget failure', () => {
    const events = [
      event('ToolCall', { name: 'rag.search' }),
      event('ToolResult', { name: 'rag.search', status: 'ok', success: true }),
      event('RunFailed', {
        steps: 1,
        code: 'JOB_FAILED',
        reason: 'token_budget',
        message: 'The run reached its token budget of 1000 tokens (980 used).',
        token_usage: { total_tokens: 980 },
      }),
    ];
    const entry = { ...ENTRY, expected_tools: ['rag.search'], expected_conditions: {} };
    const result = scoreAgentCase({ ...base, entry, events, status: 'failed', after: base.before });
    expect(result).toMatchObject({
      passed: false,
      status: 'failed',
      token_usage: 980,
      failure_reason: 'token budget exceeded: the run was stopped at 980 of 1000 tokens',
    });
  });

  it('counts open checklist items and knows the terminal events', () => {
    expect(openTaskCount('# T\n\n- [ ] a\n* [ ] b\n- [x] done\n  - [ ] nested\ntext - [ ] not')).toBe(3);
    expect(['RunCompleted', 'RunFailed', 'RunCancelled', 'ToolCall'].map(isTerminalAgentEvent)).toEqual([
      true,
      true,
      true,
      false,
    ]);
  });
});
