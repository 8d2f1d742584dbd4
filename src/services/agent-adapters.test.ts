import { afterEach, describe, expect, it } from 'vitest';
import { parseChecklist } from '../agent';
import { isAppError, type EventEnvelope } from '../contracts';
import {
  FakeModelCache,
  WebLlmEngineDouble,
  textScript,
} from '../providers/webllm/__fixtures__/engine-double';
import { WebLlmWorkerHost } from '../providers/webllm/worker-host';
import { SCRIPT_ANSWER, SCRIPT_TASKS, agentScriptStream } from './__fixtures__/openai-agent-script';
import { DEMO_LIMITS_ANSWER } from './agent-demo-provider';
import type { AgentService } from './agent-service';
import { testCore } from './test-core';
import { codeOf } from './test-error-code';

type Core = ReturnType<typeof testCore>;
const cores: Core[] = [];

afterEach(async () => {
  for (const core of cores.splice(0)) await core.close();
});

const instant = async () => undefined;

/** Two OpenAI-compatible hosts: `primary` answers 429 `failures` times, `backup` plays the script. */
function scriptedFetch(failures: number) {
  const calls: Array<{ host: string; body: unknown }> = [];
  let failuresLeft = failures;
  const fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(typeof input === 'string' || input instanceof URL ? input : input.url);
    const body = init?.body ? (JSON.parse(String(init.body)) as Record<string, unknown>) : {};
    calls.push({ host: url.host, body });
    if (url.pathname.endsWith('/models')) {
      return Response.json({ object: 'list', data: [{ id: 'script-model', object: 'model' }] });
    }
    if (url.host === 'primary.test' && failuresLeft > 0) {
      failuresLeft -= 1;
      return Response.json(
        { error: { message: 'Rate limit reached', type: 'requests', code: 'rate_limit_exceeded' } },
        { status: 429, headers: { 'Retry-After': '0' } },
      );
    }
    return new Response(agentScriptStream(body), { headers: { 'Content-Type': 'text/event-stream' } });
  }) as typeof globalThis.fetch;
  return { fetch, calls };
}

async function follow(agent: AgentService, runId: string, decision: 'allow_once' | 'deny' = 'allow_once') {
  const streamed: EventEnvelope[] = [];
  const subscription = agent.subscribe(runId, 0, (envelope) => {
    streamed.push(envelope);
    if (envelope.event === 'PermissionRequired') {
      const { request_id } = envelope.data as { request_id: string };
      void agent.resolvePermission({ run_id: runId, request_id, decision });
    }
  });
  await subscription.closed;
  return streamed;
}

async function setUp(failures: number) {
  const remote = scriptedFetch(failures);
  const core = testCore({
    indexDebounceMs: 0,
    providers: { fetch: remote.fetch, router: { sleep: instant } },
  });
  cores.push(core);
  await core.recover();
  await core.start();
  const { providers, notes } = core.api;
  await providers.create({
    provider_id: 'backup',
    preset: 'custom',
    display_name: 'Backup',
    base_url: 'http://backup.test/v1',
    default_model: 'backup-model',
    api_key: 'sk-backup-0123456789',
  });
  await providers.create({
    provider_id: 'primary',
    preset: 'custom',
    display_name: 'Primary',
    base_url: 'http://primary.test/v1',
    default_model: 'primary-model',
    api_key: 'sk-primary-0123456789',
    fallback: { provider_id: 'backup', model: 'backup-model' },
  });
  const note = await notes.create({
    title: 'Deadlock',
    body: '# Deadlock\n\nFour conditions: mutual exclusion, hold and wait, no preemption, circular wait.\n',
  });
  await core.idle();
  return { core, remote, note };
}

describe('the agent on a configured provider', () => {
  it('searches, reads, asks, writes through an OpenAI-compatible provider; the trace names it', async () => {
    const { core, remote, note } = await setUp(0);
    const agent = core.api.agent;
    const run = await agent.start({ prompt: 'Make a task list in my deadlock note', provider: 'backup' });
    expect(run).toMatchObject({ provider_id: 'backup', model: 'backup-model' });
    const events = await follow(agent, run.run_id);
    await core.idle();

    expect(
      events.filter((e) => e.event === 'ToolCall').map((e) => (e.data as { name: string }).name),
    ).toEqual(['rag.search', 'notes.read', 'tasks.create']);
    expect(events.at(-1)).toMatchObject({ event: 'RunCompleted', data: { output: SCRIPT_ANSWER } });
    const body = (await core.api.notes.get(note.note_id)).body;
    expect(parseChecklist(body).map((task) => task.text)).toEqual(SCRIPT_TASKS);

    const trace = await agent.trace({ run_id: run.run_id });
    expect(trace.config_snapshot).toMatchObject({
      provider_id: 'backup',
      model: 'backup-model',
      fallback: null,
    });
    const tools = (trace.config_snapshot as { tools: Array<{ name: string }> }).tools.map(
      (tool) => tool.name,
    );
    expect(tools).toEqual(expect.arrayContaining(['rag.search', 'notes.read', 'tasks.create']));
    const started = events.filter((e) => e.event === 'ModelCallStarted').map((e) => e.data);
    expect(started).toHaveLength(4);
    for (const data of started) expect(data).toMatchObject({ provider_id: 'backup', model: 'backup-model' });
    // The prompt says what will happen, with the diff, not raw JSON.
    const asked = events.find((e) => e.event === 'PermissionRequired')!.data as Record<string, string>;
    expect(asked.summary).toBe('Add 3 task(s) to “Deadlock”.');
    expect(asked.diff).toContain('+- [ ] Explain the four conditions');
    expect(asked.diff).toMatch(/^--- /m);
    // Native tool calling: the tools went to the provider as functions.
    const first = remote.calls.find((call) => call.host === 'backup.test')!.body as { tools: unknown[] };
    expect(first.tools.length).toBe(tools.length);
  });

  it('fails over after the primary answers 429 four times; the fallback finishes without duplicated text', async () => {
    const { core, remote } = await setUp(4);
    const agent = core.api.agent;
    const run = await agent.start({ prompt: 'Make a task list in my deadlock note', provider: 'primary' });
    const events = await follow(agent, run.run_id);
    await core.idle();

    const chat = remote.calls.filter((call) => !String(call.host).includes('models'));
    expect(chat.filter((call) => call.host === 'primary.test')).toHaveLength(4);
    const switched = events.filter((e) => e.event === 'ProviderSwitched');
    expect(switched).toHaveLength(1);
    expect(switched[0]!.data).toMatchObject({
      from: { provider_id: 'primary', model: 'primary-model' },
      to: { provider_id: 'backup', model: 'backup-model' },
      error_code: 'PROVIDER_RATE_LIMITED',
    });
    // Later steps go straight to the fallback.
    const models = events.filter((e) => e.event === 'ModelCallCompleted').map((e) => e.data);
    for (const data of models) expect(data).toMatchObject({ provider_id: 'backup', model: 'backup-model' });
    const text = events
      .filter((e) => e.event === 'TextDelta')
      .map((e) => (e.data as { delta: string }).delta)
      .join('');
    expect(text).toBe(SCRIPT_ANSWER);
    expect(events.at(-1)).toMatchObject({ event: 'RunCompleted', data: { output: SCRIPT_ANSWER } });
    const trace = await agent.trace({ run_id: run.run_id });
    expect(trace.config_snapshot).toMatchObject({
      provider_id: 'primary',
      fallback: { provider_id: 'backup', model: 'backup-model' },
    });
  });

  it('undoes the agent change from the note, once, and not over a later edit', async () => {
    const { core, note } = await setUp(0);
    const { agent, notes } = core.api;
    const before = await notes.get(note.note_id);
    const first = await agent.start({ prompt: 'Make a task list in my deadlock note', provider: 'backup' });
    await follow(agent, first.run_id);
    await core.idle();
    const changes = await agent.noteChanges(note.note_id);
    expect(changes).toHaveLength(1);
    expect(changes[0]).toMatchObject({ run_id: first.run_id, tool: 'tasks.create', undoable: true });

    const restored = await agent.undoNoteChange(note.note_id);
    expect(restored.body).toBe(before.body);
    expect((await notes.get(note.note_id)).body).toBe(before.body);
    expect((await agent.noteChanges(note.note_id))[0]!.undoable).toBe(false);
    // The note's history: the agent's change, then the undo as a restore of its own.
    expect((await core.api.history.list(note.note_id)).map((version) => version.origin)).toEqual([
      'restore',
      'agent',
    ]);
    const again = await agent.undoNoteChange(note.note_id).catch((error: unknown) => error);
    expect(isAppError(again) && again.code).toBe('RESOURCE_NOT_FOUND');

    // A change the user edited afterwards is not undone over their edit.
    const second = await agent.start({ prompt: 'Make a task list in my deadlock note', provider: 'backup' });
    await follow(agent, second.run_id);
    await core.idle();
    const current = await notes.get(note.note_id);
    await notes.update({ note_id: note.note_id, body: `${current.body}\nMy own line.\n` });
    const conflict = await agent.undoNoteChange(note.note_id).catch((error: unknown) => error);
    expect(isAppError(conflict) && conflict.code).toBe('STATE_CONFLICT');
    expect((await notes.get(note.note_id)).body).toContain('My own line.');
  });

  it("undoes the agent's move and re-tagging, putting folder and tags back", async () => {
    const { core, note } = await setUp(0);
    const { agent, notes } = core.api;
    await notes.update({ note_id: note.note_id, folder: '收件箱', tags: ['草稿'] });
    const before = await notes.get(note.note_id);
    // What notes.organise writes through the agent's notes port.
    await notes.update(
      { note_id: note.note_id, folder: '操作系统', tags: ['数据库'], expected_version: before.version },
      { origin: 'agent', run_id: 'run_1', tool: 'notes.organise' },
    );
    expect(await agent.noteChanges(note.note_id)).toMatchObject([
      { run_id: 'run_1', tool: 'notes.organise', undoable: true },
    ]);

    const restored = await agent.undoNoteChange(note.note_id);
    expect(restored).toMatchObject({
      folder: '收件箱',
      tags: ['草稿'],
      body: before.body,
      title: before.title,
    });
    expect((await notes.folders()).map((folder) => folder.path)).not.toContain('操作系统');
    expect((await agent.noteChanges(note.note_id))[0]!.undoable).toBe(false);
  });

  it('walks back through consecutive agent changes, down to removing a note it created', async () => {
    const { core } = await setUp(0);
    const { agent, notes, history } = core.api;
    const agentWrite = { origin: 'agent' as const, run_id: 'run_1', tool: 'notes.update' };
    // What notes.create and then notes.update write through the agent's notes port, in one run.
    const created = await notes.create(
      { title: '进程调度', body: '# 进程调度\n\nFCFS\n' },
      { origin: 'agent', run_id: 'run_1', tool: 'notes.create' },
    );
    const edited = await notes.update(
      { note_id: created.note_id, body: '# 进程调度\n\nFCFS, SJF\n', expected_version: created.version },
      agentWrite,
    );
    await notes.update(
      { note_id: created.note_id, body: '# 进程调度\n\nFCFS, SJF, RR\n', expected_version: edited.version },
      agentWrite,
    );
    const undoable = async () =>
      (await agent.noteChanges(created.note_id)).filter((change) => change.undoable).map((c) => c.tool);
    expect(await undoable()).toEqual(['notes.update']);

    expect((await agent.undoNoteChange(created.note_id)).body).toBe('# 进程调度\n\nFCFS, SJF\n');
    expect(await undoable()).toEqual(['notes.update']);
    expect((await agent.undoNoteChange(created.note_id)).body).toBe('# 进程调度\n\nFCFS\n');
    // Back at what the creation wrote: the next undo is the creation's, which trashes the note.
    expect(await undoable()).toEqual(['notes.create']);
    expect(await codeOf(agent.undoNoteChange(created.note_id))).toBe('STATE_CONFLICT');
    expect((await history.undoAgentCreation(created.note_id)).deleted_at).not.toBeNull();
    expect(await undoable()).toEqual([]);
  });

  it('stops walking back at a change someone else made in between', async () => {
    const { core, note } = await setUp(0);
    const { agent, notes } = core.api;
    const agentWrite = { origin: 'agent' as const, run_id: 'run_1', tool: 'notes.update' };
    const first = await notes.update({ note_id: note.note_id, body: 'agent one' }, agentWrite);
    const mine = await notes.update({ note_id: note.note_id, body: 'mine', expected_version: first.version });
    await notes.update(
      { note_id: note.note_id, body: 'agent two', expected_version: mine.version },
      agentWrite,
    );

    expect((await agent.undoNoteChange(note.note_id)).body).toBe('mine');
    // The first agent change lies under the user's edit: undoing it would drop "mine".
    expect((await agent.noteChanges(note.note_id)).some((change) => change.undoable)).toBe(false);
    expect(await codeOf(agent.undoNoteChange(note.note_id))).toBe('STATE_CONFLICT');
    expect((await notes.get(note.note_id)).body).toBe('mine');
  });

  it('a denied write leaves the note and its history alone', async () => {
    const { core, note } = await setUp(0);
    const { agent, notes } = core.api;
    const before = await notes.get(note.note_id);
    const run = await agent.start({ prompt: 'Make a task list in my deadlock note', provider: 'backup' });
    const events = await follow(agent, run.run_id, 'deny');
    await core.idle();
    expect(
      events.find((e) => e.event === 'ToolResult' && (e.data as { status: string }).status === 'denied'),
    ).toBeDefined();
    expect((await notes.get(note.note_id)).body).toBe(before.body);
    expect(await agent.noteChanges(note.note_id)).toEqual([]);
  });

  it('refuses a provider that is not configured or is disabled', async () => {
    const { core } = await setUp(0);
    const agent = core.api.agent;
    await core.api.providers.patch('backup', { enabled: false });
    for (const provider of ['nowhere', 'backup']) {
      const error = await agent.start({ prompt: 'tasks', provider }).catch((thrown: unknown) => thrown);
      expect(isAppError(error) && error.code).toBe('PROVIDER_UNAVAILABLE');
    }
  });

  it('the demo answers honestly what it cannot do, and calls no tool', async () => {
    const { core } = await setUp(0);
    const agent = core.api.agent;
    const run = await agent.start({ prompt: 'What is 17*23?' });
    const events = await follow(agent, run.run_id);
    await core.idle();
    expect(events.some((e) => e.event === 'ToolCall')).toBe(false);
    expect(events.at(-1)).toMatchObject({ event: 'RunCompleted', data: { output: DEMO_LIMITS_ANSWER } });
  });

  it('lists the tools a run is offered', async () => {
    const { core } = await setUp(0);
    const tools = await core.api.agent.tools();
    expect(tools.find((tool) => tool.name === 'tasks.create')).toMatchObject({
      requires_permission: true,
      permission: 'notes.write',
    });
    expect(tools.find((tool) => tool.name === 'rag.search')).toMatchObject({ requires_permission: false });
  });
});

describe('the agent on an in-browser model without native tool calling', () => {
  const QWEN = 'Qwen2.5-0.5B-Instruct-q4f32_1-MLC';

  it('calls tools in the prompted format, reads the results back, and the trace names web-llm', async () => {
    const cache = new FakeModelCache();
    cache.seed(QWEN, 1000);
    const engine = new WebLlmEngineDouble({
      cache,
      script: (request) => {
        const last = request.messages.at(-1);
        const text = typeof last?.content === 'string' ? last.content : '';
        // First step: a prompted call; once its result is back, the answer.
        return text.startsWith('Result of')
          ? textScript(QWEN, ['The deadlock note lists four conditions.'])
          : textScript(QWEN, [
              'Searching. <tool_call>{"name": "rag.search", ',
              '"arguments": {"query": "deadlock"}}</tool_call>',
            ]);
      },
    });
    const host = new WebLlmWorkerHost({ load: async () => ({ engine }), cache });
    const gpu = {
      requestAdapter: async () => ({
        features: new Set<string>(),
        limits: { maxBufferSize: 2 ** 30, maxStorageBufferBindingSize: 2 ** 30 },
        info: { vendor: 'google', architecture: 'swiftshader' },
      }),
    };
    const core = testCore({
      indexDebounceMs: 0,
      localModels: () => ({
        client: host,
        device: { gpu, storage: { estimate: async () => ({ quota: 2 ** 34, usage: 0 }) } },
      }),
    });
    cores.push(core);
    await core.recover();
    await core.start();
    await core.api.notes.create({ title: 'Deadlock', body: '# Deadlock\n\nFour conditions of deadlock.\n' });
    await core.idle();

    const run = await core.api.agent.start({
      prompt: 'What does my deadlock note say?',
      provider: 'webllm',
      model: QWEN,
    });
    const events = await follow(core.api.agent, run.run_id);
    await core.idle();

    expect(
      events.filter((e) => e.event === 'ToolCall').map((e) => (e.data as { name: string }).name),
    ).toEqual(['rag.search']);
    expect(events.at(-1)).toMatchObject({
      event: 'RunCompleted',
      data: { output: 'The deadlock note lists four conditions.' },
    });
    // Prompted, not native: no `tools` field; the tools are described in the system prompt,
    // and the result goes back as a user message.
    expect(engine.requests).toHaveLength(2);
    expect(engine.requests[0]).not.toHaveProperty('tools');
    expect(JSON.stringify(engine.requests[0]!.messages[0])).toContain('<tool_call>');
    const back = engine.requests[1]!.messages.at(-1)!;
    expect(back.role).toBe('user');
    expect(String(back.content)).toMatch(/^Result of /);
    const trace = await core.api.agent.trace({ run_id: run.run_id });
    expect(trace.config_snapshot).toMatchObject({ provider_id: 'webllm', model: QWEN });
  });

  it('refuses a model this GPU cannot run with the device check reason, not as unknown, and calls no model', async () => {
    const F16 = 'Qwen2.5-0.5B-Instruct-q4f16_1-MLC';
    const cache = new FakeModelCache();
    const engine = new WebLlmEngineDouble({ cache, script: () => textScript(F16, ['never']) });
    const host = new WebLlmWorkerHost({ load: async () => ({ engine }), cache });
    // SwiftShader: WebGPU without shader-f16.
    const gpu = {
      requestAdapter: async () => ({
        features: new Set<string>(),
        limits: { maxBufferSize: 2 ** 30, maxStorageBufferBindingSize: 2 ** 30 },
        info: { vendor: 'google', architecture: 'swiftshader' },
      }),
    };
    const core = testCore({
      indexDebounceMs: 0,
      localModels: () => ({
        client: host,
        device: { gpu, storage: { estimate: async () => ({ quota: 2 ** 34, usage: 0 }) } },
      }),
    });
    cores.push(core);
    await core.recover();
    await core.start();

    const error = await core.api.agent
      .start({ prompt: 'Find my Lyapunov note', provider: 'webllm', model: F16 })
      .catch((thrown: unknown) => thrown);
    expect(isAppError(error) && error.code).toBe('MODEL_CAPABILITY_MISMATCH');
    expect(isAppError(error) && error.details).toMatchObject({ reason: 'no_shader_f16', model: F16 });
    expect(isAppError(error) && error.message).toMatch(/shader-f16/);
    expect(engine.requests).toHaveLength(0);
    expect(await core.api.agent.list()).toMatchObject({ items: [] });
  });
});
