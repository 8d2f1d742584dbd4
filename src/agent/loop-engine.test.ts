import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { EventEnvelope } from '../contracts';
import { MetonaRiskLevel, MetonaToolCategory, metonaRequestSchema, type MetonaMessage } from '../ir';
import compressionScript from './__fixtures__/compression.script.json';
import invalidArgumentsScript from './__fixtures__/invalid-arguments.script.json';
import loopForeverScript from './__fixtures__/loop-forever.script.json';
import malformedJsonScript from './__fixtures__/malformed-json.script.json';
import secretsScript from './__fixtures__/secrets.script.json';
import slowToolScript from './__fixtures__/slow-tool.script.json';
import threeToolsScript from './__fixtures__/three-tools.script.json';
import twoCallsScript from './__fixtures__/two-calls.script.json';
import unknownToolScript from './__fixtures__/unknown-tool.script.json';
import writeScript from './__fixtures__/write-then-answer.script.json';
import {
  ScriptedPrompt,
  allEvents,
  createHarness,
  dataOf,
  names,
  waitingTool,
} from './__fixtures__/agent-harness';
import { ScriptedAdapter, type AgentScript } from './__fixtures__/scripted-adapter';
import type { AgentState } from './loop-engine';
import { estimateRequestTokens } from './token-estimate';
import { defineTool } from './tool-registry';
import { parseChecklist } from './tools';
import { traceSnapshot } from './trace';

const script = (json: unknown) => json as AgentScript;

describe('AgentLoop', () => {
  it('runs a multi-step task with three tools and records the whole trace', async () => {
    const prompt = new ScriptedPrompt('allow_once');
    const h = await createHarness({ prompt });
    const adapter = new ScriptedAdapter(script(threeToolsScript));
    const states: AgentState[] = [];
    const result = await h.loop.run({
      runId: 'run_three',
      sessionId: 's1',
      input: '查找死锁内容并创建三个复习任务',
      adapter,
      model: 'mock-1',
      allowedTools: ['rag.search', 'notes.read', 'tasks.create'],
      onStateChange: (state) => states.push(state),
    });

    expect(result).toMatchObject({ status: 'completed', steps: 4, tool_calls: 3, invalid_tool_calls: 0 });
    expect(result.output).toBe('I added three review tasks to “Operating systems: deadlock”.');
    expect(states).toEqual([
      ...['thinking', 'acting', 'observing'],
      ...['thinking', 'acting', 'observing'],
      ...['thinking', 'acting', 'observing'],
      'thinking',
      'done',
    ]);

    // The tasks are in the note, as a checklist.
    const note = await h.notes.read(h.seeded.note_id);
    expect(parseChecklist(note?.body ?? '').map((task) => task.text)).toEqual([
      'Review the four deadlock conditions',
      "Practice the banker's algorithm",
      'Compare prevention and avoidance',
    ]);
    expect(prompt.requests).toHaveLength(1);
    expect(prompt.requests[0]).toMatchObject({ permission: 'notes.write', tool: 'tasks.create' });

    // One MetonaRequest per iteration, valid IR, tools narrowed to the allowed ones.
    expect(adapter.requests).toHaveLength(4);
    for (const [index, request] of adapter.requests.entries()) {
      expect(metonaRequestSchema.safeParse(request).success).toBe(true);
      expect(request.meta.iteration).toBe(index + 1);
      expect(request.tools?.map((tool) => tool.name).sort()).toEqual([
        'notes.read',
        'rag.search',
        'tasks.create',
      ]);
      expect(request.constraints?.allowedTools).toEqual(['rag.search', 'notes.read', 'tasks.create']);
    }
    // Tool results come back as role 'tool' messages with a summary and the raw result.
    const second = adapter.requests[1]?.messages ?? [];
    expect(second.map((message) => message.role)).toEqual(['user', 'assistant', 'tool']);
    const toolMessage = second[2] as MetonaMessage;
    expect(toolMessage.toolResult).toMatchObject({
      toolCallId: 'call_search',
      toolName: 'rag.search',
      success: true,
    });
    expect(toolMessage.toolResult?.summary).toMatch(/Operating systems: deadlock/);
    expect(toolMessage.toolResult?.result).toMatchObject({ hits: expect.any(Array) });
    expect(second[1]?.reasoningContent).toBe('Search the notebook first.');

    const events = await allEvents(h.events, 'run_three');
    expect(names(events)).toEqual([
      'RunStarted',
      ...['ModelCallStarted', 'ThinkingDelta', 'ModelCallCompleted', 'Usage', 'ToolCall', 'ToolResult'],
      ...Array(dataOf(events, 'Citation').length - 1).fill('Citation'), // rag.search hits; notes.read cites 1
      ...['ModelCallStarted', 'ModelCallCompleted', 'Usage', 'ToolCall', 'ToolResult', 'Citation'],
      ...['ModelCallStarted', 'ModelCallCompleted', 'Usage', 'ToolCall'],
      ...['PermissionRequired', 'PermissionResolved', 'ToolResult'],
      ...['ModelCallStarted', 'TextDelta', 'TextDelta', 'ModelCallCompleted', 'Usage', 'RunCompleted'],
    ]);
    expect(events.map((event) => event.sequence)).toEqual(events.map((_, index) => index + 1));

    const modelCalls = dataOf<{ model_call_id: string; provider_id: string; model: string; step: number }>(
      events,
      'ModelCallStarted',
    );
    expect(modelCalls.map((call) => [call.provider_id, call.model, call.step])).toEqual([
      ['mock', 'mock-1', 1],
      ['mock', 'mock-1', 2],
      ['mock', 'mock-1', 3],
      ['mock', 'mock-1', 4],
    ]);
    const toolCalls = dataOf<{ name: string; parent_model_call_id: string }>(events, 'ToolCall');
    expect(toolCalls.map((call) => call.parent_model_call_id)).toEqual(
      modelCalls.slice(0, 3).map((call) => call.model_call_id),
    );
    const toolResults = dataOf<{ status: string; duration_ms: number; parent_model_call_id: string }>(
      events,
      'ToolResult',
    );
    expect(toolResults.map((r) => r.status)).toEqual(['ok', 'ok', 'ok']);
    expect(toolResults.every((r) => r.duration_ms >= 0 && r.parent_model_call_id)).toBe(true);
    expect(dataOf(events, 'ModelCallCompleted')[0]).toMatchObject({
      finish_reason: 'tool_calls',
      input_tokens: 120,
      output_tokens: 12,
    });
    expect(dataOf(events, 'PermissionResolved')[0]).toMatchObject({
      permission: 'notes.write',
      decision: 'allow_once',
      source: 'user',
    });
    const toolResult = dataOf<{ result: { diff: string } }>(events, 'ToolResult')[2];
    expect(toolResult?.result.diff).toContain('+- [ ] Review the four deadlock conditions');
    expect(dataOf(events, 'RunCompleted')[0]).toMatchObject({
      steps: 4,
      tool_calls: 3,
      token_usage: { input_tokens: 1320, output_tokens: 76, total_tokens: 1396 },
    });
    expect(dataOf(events, 'RunStarted')[0]).toMatchObject({
      run_id: 'run_three',
      config_snapshot: { provider_id: 'mock', model: 'mock-1', max_steps: 10 },
    });
  });

  it('reports invalid arguments to the model without executing, and counts them', async () => {
    const h = await createHarness();
    const adapter = new ScriptedAdapter(script(invalidArgumentsScript));
    const result = await h.loop.run({
      runId: 'run_invalid',
      sessionId: 's',
      input: 'read it',
      adapter,
      model: 'mock-1',
    });

    expect(result).toMatchObject({ status: 'completed', tool_calls: 2, invalid_tool_calls: 1 });
    const retry = adapter.requests[1]?.messages.at(-1)?.toolResult;
    expect(retry).toMatchObject({ success: false, toolName: 'notes.read' });
    expect(retry?.error).toMatch(/Invalid arguments for notes\.read: note_id: .*not executed/);
    const events = await allEvents(h.events, 'run_invalid');
    expect(dataOf(events, 'ToolResult').map((r) => r.status)).toEqual(['invalid_arguments', 'ok']);
    expect((await traceSnapshot(h.events, 'run_invalid')).summary).toMatchObject({
      tool_calls: 2,
      errors: 1,
    });
  });

  it('reports an unknown tool to the model and goes on', async () => {
    const h = await createHarness();
    const adapter = new ScriptedAdapter(script(unknownToolScript));
    const result = await h.loop.run({
      runId: 'run_unknown',
      sessionId: 's',
      input: 'delete',
      adapter,
      model: 'mock-1',
    });

    expect(result).toMatchObject({
      status: 'completed',
      output: 'I cannot delete files.',
      invalid_tool_calls: 1,
    });
    const reported = adapter.requests[1]?.messages.at(-1)?.toolResult;
    expect(reported?.error).toMatch(/Unknown tool "files\.delete"\. Available tools: rag\.search/);
    const events = await allEvents(h.events, 'run_unknown');
    expect(dataOf(events, 'ToolResult')[0]).toMatchObject({ status: 'unknown_tool', success: false });
  });

  it('does not write when the user denies permission, and tells the model', async () => {
    const prompt = new ScriptedPrompt('deny');
    const h = await createHarness({ prompt });
    const adapter = new ScriptedAdapter(script(writeScript));
    const result = await h.loop.run({
      runId: 'run_deny',
      sessionId: 's',
      input: 'add milk',
      adapter,
      model: 'mock-1',
    });

    expect(result.status).toBe('completed');
    expect((await h.notes.list({ limit: 10, offset: 0 })).total).toBe(1); // no new note
    const events = await allEvents(h.events, 'run_deny');
    const required = dataOf<{ request_id: string; arguments_summary: string }>(events, 'PermissionRequired');
    expect(required[0]?.arguments_summary).toContain('Buy milk');
    expect(dataOf(events, 'PermissionResolved')).toEqual([
      expect.objectContaining({ request_id: required[0]?.request_id, decision: 'deny', source: 'user' }),
    ]);
    expect(dataOf(events, 'ToolResult')[0]).toMatchObject({ status: 'denied', success: false });
    expect(adapter.requests[1]?.messages.at(-1)?.toolResult?.error).toMatch(
      /denied permission "notes\.write"/,
    );
  });

  it('writes after allow, and an always-allow grant skips the prompt until revoked', async () => {
    const prompt = new ScriptedPrompt('always_allow', 'allow_once');
    const h = await createHarness({ prompt });
    const run = (runId: string) =>
      h.loop.run({
        runId,
        sessionId: 's',
        input: 'add milk',
        adapter: new ScriptedAdapter(script(writeScript)),
        model: 'mock-1',
      });

    expect((await run('run_a')).status).toBe('completed');
    expect(await h.grants.list()).toEqual([
      expect.objectContaining({ permission: 'notes.write', tool: 'tasks.create' }),
    ]);
    expect((await run('run_b')).status).toBe('completed');
    expect(prompt.requests).toHaveLength(1);
    const second = await allEvents(h.events, 'run_b');
    expect(names(second)).not.toContain('PermissionRequired');
    expect(dataOf(second, 'PermissionResolved')[0]).toMatchObject({
      decision: 'always_allow',
      source: 'grant',
    });

    expect(await h.permissions.revoke('notes.write')).toBe(true);
    expect((await run('run_c')).status).toBe('completed');
    expect(prompt.requests).toHaveLength(2);
    const titles = (await h.notes.list({ limit: 10, offset: 0 })).items.map((item) => item.title);
    expect(titles.filter((title) => title === 'Groceries')).toHaveLength(3);
  });

  it('cancels during a tool: the tool is aborted and the run ends RunCancelled', async () => {
    const { tool, started } = waitingTool('test.wait');
    const h = await createHarness({ tools: [tool] });
    const controller = new AbortController();
    void started.then(() => controller.abort());
    const result = await h.loop.run({
      runId: 'run_cancel',
      sessionId: 's',
      input: 'wait',
      adapter: new ScriptedAdapter(script(slowToolScript)),
      model: 'mock-1',
      signal: controller.signal,
    });

    expect(result.status).toBe('cancelled');
    const events = await allEvents(h.events, 'run_cancel');
    expect(names(events).slice(-3)).toEqual(['ToolCall', 'ToolResult', 'RunCancelled']);
    expect(dataOf(events, 'ToolResult')[0]).toMatchObject({ status: 'cancelled' });
    const snapshot = await traceSnapshot(h.events, 'run_cancel');
    expect(snapshot).toMatchObject({ status: 'cancelled', summary: { errors: 0 } });
  });

  it('cancels during a slow model stream', async () => {
    const h = await createHarness();
    const controller = new AbortController();
    // After the first chunk the stream waits far longer than any test: only the abort ends it.
    const adapter = new ScriptedAdapter([
      {
        id: 'slow',
        chunk_delay_ms: 0,
        steps: [
          { type: 'text', chunks: ['a'] },
          { type: 'delay', ms: 3_600_000 },
          { type: 'text', chunks: ['b', 'c'] },
        ],
      },
    ]);
    const send = adapter.sendStream.bind(adapter);
    adapter.sendStream = (request, onEvent, options) =>
      send(
        request,
        (event) => {
          onEvent(event);
          if (event.type === 'text_delta') controller.abort();
        },
        options,
      );
    const result = await h.loop.run({
      runId: 'run_cancel_model',
      sessionId: 's',
      input: 'hi',
      adapter,
      model: 'mock-1',
      signal: controller.signal,
    });

    expect(result.status).toBe('cancelled');
    const events = await allEvents(h.events, 'run_cancel_model');
    expect(names(events).slice(-2)).toEqual(['ModelCallFailed', 'RunCancelled']);
    expect(dataOf(events, 'ModelCallFailed')[0]).toMatchObject({
      metona_code: 'user_aborted',
      code: 'JOB_CANCELLED',
    });
    expect(dataOf(events, 'TextDelta')).toHaveLength(1);
  });

  it('fails with max_iterations when the model never answers within max_steps', async () => {
    const h = await createHarness();
    const result = await h.loop.run({
      runId: 'run_max',
      sessionId: 's',
      input: 'count',
      adapter: new ScriptedAdapter(script(loopForeverScript)),
      model: 'mock-1',
      maxSteps: 2,
    });

    expect(result).toMatchObject({
      status: 'failed',
      steps: 2,
      tool_calls: 1,
      error: { reason: 'max_iterations', code: 'JOB_FAILED' },
    });
    const events = await allEvents(h.events, 'run_max');
    expect(dataOf(events, 'RunFailed')[0]).toMatchObject({
      reason: 'max_iterations',
      metona_code: 'max_iterations',
    });
    // The second step's tool call was not executed: no step is left to read its result. The
    // trace says so, instead of dropping the call.
    expect(dataOf(events, 'ToolCall').map((call) => call.tool_call_id)).toEqual(['call_m1', 'call_m2']);
    expect(dataOf(events, 'ToolResult').at(-1)).toMatchObject({
      tool_call_id: 'call_m2',
      status: 'step_limit',
      success: false,
      error: 'Not run: the run reached its limit of 2 steps.',
    });
    expect(events.map((event) => event.event).slice(-3)).toEqual(['ToolCall', 'ToolResult', 'RunFailed']);
  });

  it('reports arguments that are not JSON to the model with the parse error, and goes on', async () => {
    const h = await createHarness();
    const adapter = new ScriptedAdapter(script(malformedJsonScript));
    const result = await h.loop.run({
      runId: 'run_malformed',
      sessionId: 's',
      input: 'read it',
      adapter,
      model: 'mock-1',
    });

    expect(result).toMatchObject({
      status: 'completed',
      output: 'The note is about deadlocks.',
      tool_calls: 2,
      invalid_tool_calls: 1,
    });
    const told = adapter.requests[1]?.messages.at(-1)?.toolResult;
    expect(told).toMatchObject({ success: false, toolName: 'notes.read' });
    expect(told?.error).toMatch(/notes\.read were not valid JSON \(.+\)\. You sent: \{"note_id": "note_1",,/);
    expect(told?.error).toContain('error code VALIDATION_FAILED');
    // The assistant turn sent back carries readable arguments, never the broken text.
    expect(adapter.requests[1]?.messages.at(-2)?.toolCalls?.[0]?.args).toEqual({});
    const events = await allEvents(h.events, 'run_malformed');
    expect(dataOf(events, 'ToolCall')[0]).toMatchObject({
      name: 'notes.read',
      arguments: {},
      arguments_text: '{"note_id": "note_1",,',
    });
    expect(dataOf(events, 'ToolResult').map((r) => [r.status, r.error_code])).toEqual([
      ['invalid_arguments', 'VALIDATION_FAILED'],
      ['ok', undefined],
    ]);
  });

  it('a model that only ever sends broken JSON ends at the step limit', async () => {
    const h = await createHarness();
    const broken = {
      id: 'broken',
      steps: [
        { type: 'tool_call', id: 'call_x', name: 'notes.read', argument_chunks: ['{"note_id":'] },
        { type: 'finish', reason: 'tool_calls' },
      ],
    };
    const result = await h.loop.run({
      runId: 'run_broken',
      sessionId: 's',
      input: 'read it',
      adapter: new ScriptedAdapter(script({ turns: [broken, broken, broken, broken] })),
      model: 'mock-1',
      maxSteps: 3,
    });
    expect(result).toMatchObject({ status: 'failed', steps: 3, error: { reason: 'max_iterations' } });
  });

  it('reports a tool that times out to the model and continues', async () => {
    const { tool } = waitingTool('test.wait', 30);
    const h = await createHarness({ tools: [tool] });
    const adapter = new ScriptedAdapter(script(slowToolScript));
    const result = await h.loop.run({
      runId: 'run_timeout',
      sessionId: 's',
      input: 'wait',
      adapter,
      model: 'mock-1',
    });

    expect(result).toMatchObject({ status: 'completed', output: 'The tool did not answer in time.' });
    const events = await allEvents(h.events, 'run_timeout');
    expect(dataOf(events, 'ToolResult')[0]).toMatchObject({ status: 'timeout', success: false });
    expect(adapter.requests[1]?.messages.at(-1)?.toolResult?.error).toMatch(/did not finish within 30 ms/);
  });

  it('records a built-in tool that throws as a tool error with a code, and tells the model the code', async () => {
    const broken = defineTool({
      name: 'test.wait',
      description: 'Throws like a tool with a bug (tests).',
      parameters: z.object({}),
      category: MetonaToolCategory.CUSTOM,
      riskLevel: MetonaRiskLevel.SAFE,
      requiresPermission: false,
      execute: () => Promise.reject(new TypeError("Cannot read properties of undefined (reading 'id')")),
    });
    const h = await createHarness({ tools: [broken] });
    const adapter = new ScriptedAdapter(script(slowToolScript));
    const result = await h.loop.run({
      runId: 'run_throw',
      sessionId: 's',
      input: 'go',
      adapter,
      model: 'mock-1',
    });

    expect(result.status).toBe('completed');
    const events = await allEvents(h.events, 'run_throw');
    expect(dataOf(events, 'ToolResult')[0]).toMatchObject({
      status: 'error',
      success: false,
      error_code: 'INTERNAL_ERROR',
      error: "The tool test.wait failed: Cannot read properties of undefined (reading 'id')",
    });
    expect(adapter.requests[1]?.messages.at(-1)?.toolResult?.error).toMatch(/\(error code INTERNAL_ERROR\)$/);
  });

  it('fails with timeout when the whole run passes its deadline', async () => {
    const { tool } = waitingTool('test.wait');
    const h = await createHarness({ tools: [tool] });
    const result = await h.loop.run({
      runId: 'run_deadline',
      sessionId: 's',
      input: 'wait',
      adapter: new ScriptedAdapter(script(slowToolScript)),
      model: 'mock-1',
      timeoutMs: 50,
    });
    expect(result).toMatchObject({ status: 'failed', error: { reason: 'timeout' } });
    const events = await allEvents(h.events, 'run_deadline');
    expect(dataOf(events, 'RunFailed')[0]).toMatchObject({ reason: 'timeout', metona_code: 'timeout' });
  });

  it('compresses a long history with the model and brings the window below 0.5', async () => {
    const h = await createHarness();
    const history: MetonaMessage[] = [];
    for (let round = 0; round < 12; round++) {
      history.push(
        {
          role: 'user',
          content: `Round ${round}: ${'Kyoto temples and gardens and trains. '.repeat(12)}`,
          timestamp: round,
        },
        {
          role: 'assistant',
          content: `Noted round ${round}: ${'budget itinerary details. '.repeat(12)}`,
          timestamp: round,
        },
      );
    }
    const adapter = new ScriptedAdapter(script(compressionScript));
    const contextWindow = 2_000;
    const result = await h.loop.run({
      runId: 'run_compress',
      sessionId: 's',
      input: 'What should I book first?',
      history,
      adapter,
      model: 'mock-1',
      contextWindow,
      keptRounds: 4,
      allowedTools: ['math.evaluate'],
    });

    expect(result).toMatchObject({ status: 'completed', output: 'Book the ryokan first.' });
    const [summaryRequest, answerRequest] = adapter.requests;
    expect(summaryRequest?.tools).toBeUndefined();
    expect(summaryRequest?.messages[0]?.content).toMatch(/^Transcript to summarize:\nUser: Round 0/);
    expect(answerRequest).toBeDefined();
    const ratio = estimateRequestTokens(answerRequest!) / contextWindow;
    expect(ratio).toBeLessThan(0.5);
    expect(answerRequest?.messages[0]).toMatchObject({ role: 'system' });
    expect(answerRequest?.messages[0]?.content).toContain('budget is 2000 EUR');
    expect(answerRequest?.messages.at(-1)).toMatchObject({
      role: 'user',
      content: 'What should I book first?',
    });

    const events = await allEvents(h.events, 'run_compress');
    expect(dataOf(events, 'ModelCallStarted').map((call) => call.purpose)).toEqual(['compression', 'step']);
    expect(names(events).filter((name) => name === 'TextDelta')).toHaveLength(1); // the summary is not streamed
    expect(result.messages.length).toBeLessThan(history.length);
  });

  it('runs at most maxToolCalls per step and reports the rest', async () => {
    const h = await createHarness();
    const adapter = new ScriptedAdapter(script(twoCallsScript));
    const result = await h.loop.run({
      runId: 'run_limit',
      sessionId: 's',
      input: 'x',
      adapter,
      model: 'mock-1',
      maxToolCalls: 1,
    });
    expect(result.status).toBe('completed');
    const events = await allEvents(h.events, 'run_limit');
    expect(dataOf(events, 'ToolResult').map((r) => r.status)).toEqual(['ok', 'not_allowed']);
    expect(adapter.requests[0]?.constraints?.maxToolCalls).toBe(1);
  });

  it('refuses tools outside allowedTools even when the model calls them', async () => {
    const h = await createHarness();
    const adapter = new ScriptedAdapter(script(twoCallsScript));
    await h.loop.run({
      runId: 'run_allowed',
      sessionId: 's',
      input: 'x',
      adapter,
      model: 'mock-1',
      allowedTools: ['math.evaluate'],
    });
    const events = await allEvents(h.events, 'run_allowed');
    expect(dataOf(events, 'ToolResult').map((r) => r.status)).toEqual(['ok', 'not_allowed']);
    expect(adapter.requests[0]?.tools?.map((tool) => tool.name)).toEqual(['math.evaluate']);
  });

  it('stops at the token budget before running more tools', async () => {
    const h = await createHarness();
    const adapter = new ScriptedAdapter([
      {
        id: 'expensive',
        steps: [
          { type: 'tool_call', name: 'math.evaluate', argument_chunks: ['{"expression":"1+1"}'] },
          { type: 'usage', input_tokens: 5_000, output_tokens: 100 },
        ],
      },
    ]);
    const result = await h.loop.run({
      runId: 'run_budget',
      sessionId: 's',
      input: 'add',
      adapter,
      model: 'mock-1',
      tokenBudget: 3_000,
    });
    expect(result).toMatchObject({ status: 'failed', tool_calls: 0, error: { reason: 'token_budget' } });
    expect(result.token_usage.total_tokens).toBe(5_100);
    // The request asked for no more output than the budget left.
    const maxTokens = adapter.requests[0]?.params.maxTokens ?? Infinity;
    expect(maxTokens + estimateRequestTokens(adapter.requests[0]!)).toBeLessThanOrEqual(3_000);
  });

  it('fails before calling the model when the first request alone passes the budget', async () => {
    const h = await createHarness();
    const adapter = new ScriptedAdapter(script(threeToolsScript));
    const result = await h.loop.run({
      runId: 'run_small',
      sessionId: 's',
      input: 'x',
      adapter,
      model: 'mock-1',
      tokenBudget: 50,
    });
    expect(result).toMatchObject({ status: 'failed', steps: 1, error: { reason: 'token_budget' } });
    expect(adapter.requests).toHaveLength(0);
  });

  it('fails with the provider error code when the model call fails', async () => {
    const h = await createHarness();
    const adapter = new ScriptedAdapter(
      ['http-500' as never].map(() => ({
        id: 'down',
        steps: [{ type: 'error' as const, code: 'model_overloaded' as const, message: 'Overloaded' }],
      })),
    );
    const result = await h.loop.run({
      runId: 'run_error',
      sessionId: 's',
      input: 'hi',
      adapter,
      model: 'mock-1',
    });
    expect(result).toMatchObject({
      status: 'failed',
      error: { reason: 'model_error', code: 'PROVIDER_UNAVAILABLE' },
    });
    const events = await allEvents(h.events, 'run_error');
    expect(names(events)).toEqual(['RunStarted', 'ModelCallStarted', 'ModelCallFailed', 'RunFailed']);
  });

  it('recalls relevant memories into the system prompt', async () => {
    const h = await createHarness();
    await h.memory.put({
      id: 'm1',
      type: 'semantic',
      content: 'The user prefers review tasks in Chinese.',
      source: 'user_input',
      importance: 0.9,
      createdAt: Date.now(),
    });
    const adapter = new ScriptedAdapter([{ id: 'answer', steps: [{ type: 'text', chunks: ['ok'] }] }]);
    await h.loop.run({ sessionId: 's', input: 'create review tasks', adapter, model: 'mock-1' });
    expect(adapter.requests[0]?.systemPrompt.dynamicReminders).toContain('prefers review tasks in Chinese');
  });

  it('packs as many relevant memories as fit a tenth of the window, not a fixed five', async () => {
    const h = await createHarness();
    const now = Date.now();
    // Twelve short relevant facts fit a 32k window's share; a fixed top 5 would drop seven.
    for (let index = 0; index < 12; index++) {
      await h.memory.put({
        id: `short_${index}`,
        type: 'semantic',
        content: `Review tasks fact ${index}.`,
        source: 'user_input',
        importance: 0.5,
        createdAt: now,
      });
    }
    const adapter = new ScriptedAdapter([{ id: 'answer', steps: [{ type: 'text', chunks: ['ok'] }] }]);
    await h.loop.run({
      sessionId: 's',
      input: 'review tasks',
      adapter,
      model: 'mock-1',
      contextWindow: 32_768,
    });
    const wide = adapter.requests[0]?.systemPrompt.dynamicReminders ?? '';
    expect(wide.match(/Review tasks fact \d+/g)).toHaveLength(12);

    // An 8,000-token window leaves 800: the long memory, though ranked first, does not fit; the short ones still do.
    await h.memory.put({
      id: 'long',
      type: 'episodic',
      content: `Review tasks: ${'a long account of an earlier run '.repeat(150)}`,
      source: 'agent_thought',
      importance: 1,
      createdAt: now,
    });
    const small = new ScriptedAdapter([{ id: 'answer', steps: [{ type: 'text', chunks: ['ok'] }] }]);
    await h.loop.run({
      sessionId: 's',
      input: 'review tasks',
      adapter: small,
      model: 'mock-1',
      contextWindow: 8000,
    });
    const tight = small.requests[0]?.systemPrompt.dynamicReminders ?? '';
    expect(tight).not.toContain('a long account');
    expect(tight.match(/Review tasks fact \d+/g)).toHaveLength(12);
  });

  it('streams events that a reader can resume with after_sequence', async () => {
    const prompt = new ScriptedPrompt('allow_once');
    const h = await createHarness({ prompt });
    const streamed: EventEnvelope[] = [];
    const subscription = h.events.subscribe('run_stream', 0, (envelope) => streamed.push(envelope));
    const result = await h.loop.run({
      runId: 'run_stream',
      sessionId: 's',
      input: 'find deadlock and create tasks',
      adapter: new ScriptedAdapter(script(threeToolsScript)),
      model: 'mock-1',
    });
    await subscription.closed;

    const stored = await allEvents(h.events, 'run_stream');
    expect(streamed).toEqual(stored);
    expect(result.last_sequence).toBe(stored.at(-1)?.sequence);

    // A reader that saw everything gets nothing new, at the same cursor.
    const lastSeen = streamed.at(-1)?.sequence ?? 0;
    const rest = await traceSnapshot(h.events, 'run_stream', lastSeen);
    expect(rest).toMatchObject({ items: [], next_sequence: lastSeen, has_more: false, status: 'completed' });

    // A reader that dropped out mid-run resumes exactly where it left off.
    const cut = 7;
    let cursor = streamed[cut - 1]?.sequence ?? 0;
    const resumed: EventEnvelope[] = [];
    for (;;) {
      const page = await traceSnapshot(h.events, 'run_stream', cursor, 5);
      resumed.push(...page.items);
      cursor = page.next_sequence;
      if (!page.has_more) break;
    }
    expect([...streamed.slice(0, cut), ...resumed]).toEqual(streamed);

    // So does a live subscription with after_sequence.
    const replayed: EventEnvelope[] = [];
    await h.events.subscribe('run_stream', streamed[cut - 1]?.sequence ?? 0, (e) => replayed.push(e)).closed;
    expect(replayed).toEqual(streamed.slice(cut));
  });

  it('keeps secrets out of every stored event and artifact', async () => {
    const leak = defineTool({
      name: 'test.leak',
      description: 'Returns credentials and a large body (tests).',
      parameters: z.object({ api_key: z.string(), note: z.string() }),
      category: MetonaToolCategory.CUSTOM,
      riskLevel: MetonaRiskLevel.SAFE,
      requiresPermission: false,
      async execute({ api_key, note }) {
        return {
          result: {
            headers: { Authorization: `Bearer ${api_key}`, 'x-api-key': api_key },
            echoed: `key=${api_key} vault=${note}`,
            body: 'x'.repeat(20_000),
          },
        };
      },
    });
    const vaultSecret = 'hunter2-vault-secret';
    const apiKey = 'sk-live-0123456789abcdefABCDEF';
    const h = await createHarness({ tools: [leak], secrets: [vaultSecret] });
    const result = await h.loop.run({
      runId: 'run_secret',
      sessionId: 's',
      input: `Use my key ${apiKey} and Authorization: Bearer abcdefghijklmnop123`,
      adapter: new ScriptedAdapter(script(secretsScript)),
      model: 'mock-1',
    });
    expect(result.status).toBe('completed');

    const events = await allEvents(h.events, 'run_secret');
    const stored = JSON.stringify(events) + JSON.stringify(h.artifacts.all());
    for (const secret of [apiKey, vaultSecret, 'abcdefghijklmnop123']) expect(stored).not.toContain(secret);
    expect(stored).toContain('[REDACTED]');

    // The 20 kB result went to an artifact, referenced from the event.
    const toolResult = dataOf<{ result_artifact: { artifact_id: string }; result: string }>(
      events,
      'ToolResult',
    )[0];
    expect(toolResult?.result_artifact.artifact_id).toBeTruthy();
    expect(typeof toolResult?.result).toBe('string');
    const artifact = await h.artifacts.get(toolResult?.result_artifact.artifact_id ?? '');
    expect(artifact?.content.length).toBeGreaterThan(20_000);
    expect(JSON.parse(artifact?.content ?? '{}').headers.Authorization).toBe('[REDACTED]');
  });
});
