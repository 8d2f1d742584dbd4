import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { MetonaRiskLevel, MetonaToolCategory } from '../ir';
import { ScriptedPrompt } from './__fixtures__/agent-harness';
import {
  MemoryGrantStore,
  PermissionGate,
  PermissionWithdrawnError,
  summarizeArguments,
  type PermissionPrompt,
} from './permissions';
import { SecretRedactor } from './redaction';
import { ToolRegistry, defineTool, type RegisteredTool } from './tool-registry';

function writeTool(requiresPermission = true): RegisteredTool {
  const registry = new ToolRegistry().register(
    defineTool({
      name: 'notes.create',
      description: 'Creates a note.',
      parameters: z.object({ title: z.string(), body: z.string().optional() }),
      category: MetonaToolCategory.DATABASE,
      riskLevel: MetonaRiskLevel.LOW,
      requiresPermission,
      async execute() {
        return { result: null };
      },
    }),
  );
  const tool = registry.get('notes.create');
  if (!tool) throw new Error('not registered');
  return tool;
}

function collect() {
  const events: Array<{ event: string; data: Record<string, unknown> }> = [];
  const emit = async (event: string, data: unknown) => {
    events.push({ event, data: data as Record<string, unknown> });
  };
  return { events, emit };
}

const input = (tool: RegisteredTool, emit: ReturnType<typeof collect>['emit'], signal?: AbortSignal) => ({
  runId: 'run',
  tool,
  toolCallId: 'call_1',
  args: { title: 'Plan', body: 'z'.repeat(1_000) },
  signal: signal ?? new AbortController().signal,
  emit,
});

describe('PermissionGate', () => {
  it('lets tools that need no permission through without events', async () => {
    const { events, emit } = collect();
    const outcome = await new PermissionGate().authorize(input(writeTool(false), emit));
    expect(outcome).toEqual({ allowed: true });
    expect(events).toEqual([]);
  });

  it('asks, records the request and the decision, and allows once', async () => {
    const prompt = new ScriptedPrompt('allow_once');
    const gate = new PermissionGate({ prompt });
    const { events, emit } = collect();
    expect(await gate.authorize(input(writeTool(), emit))).toEqual({ allowed: true });
    expect(events.map((e) => e.event)).toEqual(['PermissionRequired', 'PermissionResolved']);
    expect(events[0]?.data).toMatchObject({
      permission: 'notes.write',
      tool: 'notes.create',
      tool_call_id: 'call_1',
      risk_level: 'low',
    });
    expect(String(events[0]?.data.arguments_summary).length).toBeLessThan(700);
    expect(events[1]?.data).toMatchObject({
      request_id: events[0]?.data.request_id,
      decision: 'allow_once',
      source: 'user',
    });
    expect(await gate.listGrants()).toEqual([]);
  });

  it('stores always_allow until revoked', async () => {
    const prompt = new ScriptedPrompt('always_allow', 'deny');
    const grants = new MemoryGrantStore();
    const gate = new PermissionGate({ prompt, grants });
    const { events, emit } = collect();
    await gate.authorize(input(writeTool(), emit));
    expect(await grants.get('notes.write')).toMatchObject({ tool: 'notes.create' });

    expect(await gate.authorize(input(writeTool(), emit))).toEqual({ allowed: true });
    expect(prompt.requests).toHaveLength(1);
    expect(events.at(-1)?.data).toMatchObject({ decision: 'always_allow', source: 'grant' });

    await gate.revoke('notes.write');
    const denied = await gate.authorize(input(writeTool(), emit));
    expect(denied).toMatchObject({ allowed: false, reason: expect.stringMatching(/denied/) });
    expect(prompt.requests).toHaveLength(2);
  });

  it('denies when nobody can be asked or the prompt fails', async () => {
    const { events, emit } = collect();
    expect(await new PermissionGate().authorize(input(writeTool(), emit))).toMatchObject({ allowed: false });
    expect(events.at(-1)?.data).toMatchObject({ decision: 'deny', source: 'unavailable' });

    const broken: PermissionPrompt = { ask: () => Promise.reject(new Error('ui gone')) };
    expect(await new PermissionGate({ prompt: broken }).authorize(input(writeTool(), emit))).toMatchObject({
      allowed: false,
    });
    expect(events.at(-1)?.data).toMatchObject({ decision: 'deny', source: 'unavailable' });
  });

  it('records a prompt withdrawn because its tool went away, not as the user denying it', async () => {
    const gone: PermissionPrompt = {
      ask: (request) => Promise.reject(new PermissionWithdrawnError(request.tool)),
    };
    const { events, emit } = collect();
    const outcome = await new PermissionGate({ prompt: gone }).authorize(input(writeTool(), emit));
    expect(outcome).toMatchObject({
      allowed: false,
      withdrawn: true,
      reason: expect.stringMatching(/removed/),
    });
    expect(events.at(-1)?.data).toMatchObject({ decision: 'deny', source: 'withdrawn' });
  });

  it('stops waiting when the run is cancelled', async () => {
    const never: PermissionPrompt = { ask: () => new Promise(() => undefined) };
    const controller = new AbortController();
    const { events, emit } = collect();
    const pending = new PermissionGate({ prompt: never }).authorize(
      input(writeTool(), emit, controller.signal),
    );
    setTimeout(() => controller.abort(), 10);
    expect(await pending).toMatchObject({ allowed: false, cancelled: true });
    expect(events.at(-1)?.data).toMatchObject({ decision: 'deny', source: 'cancelled' });
  });

  it('summarizes arguments shortly and without secrets', () => {
    const summary = summarizeArguments(
      { note_id: 'n1', text: 'a'.repeat(500), api_key: 'sk-abcdefghijklmnopqrstuvwx' },
      new SecretRedactor(),
    );
    expect(summary).toContain('"note_id":"n1"');
    expect(summary).not.toContain('sk-abcdefghijklmnopqrstuvwx');
    expect(summary.length).toBeLessThan(300);
  });
});
