import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool, parseChecklist, type AgentToolSpec } from '../agent';
import secretsScript from '../agent/__fixtures__/secrets.script.json';
import slowToolScript from '../agent/__fixtures__/slow-tool.script.json';
import { waitingTool } from '../agent/__fixtures__/agent-harness';
import { ScriptedAdapter, type AgentScript } from '../agent/__fixtures__/scripted-adapter';
import { isAppError, type EventEnvelope } from '../contracts';
import { EventLog } from '../core/event-log';
import { JobRuntime } from '../core/job-runtime';
import {
  EventRepository,
  JobRepository,
  MIGRATIONS,
  NotesAgentDatabase,
  SecretsVault,
  type Migration,
} from '../db';
import { AGENT_STORES, AGENT_TABLES } from '../db/agent-stores';
import { freshDatabase } from '../db/test-database';
import { MetonaRiskLevel, MetonaToolCategory } from '../ir';
import { MOCK_MODEL } from '../providers/mock';
import { tasksFromNote } from './agent-demo-provider';
import { createAgentService, type AgentAdapterFactory, type AgentService } from './agent-service';
import { createCoreApi } from './core-api';

const MIGRATIONS_WITH_AGENT: readonly Migration[] = [
  ...MIGRATIONS,
  { version: MIGRATIONS.at(-1)!.version + 1, stores: AGENT_STORES },
];

const DEADLOCK_BODY = [
  '# Deadlock',
  '',
  '## Four conditions',
  '',
  'A deadlock needs mutual exclusion, hold and wait, no preemption and circular wait.',
  '',
  "The banker's algorithm avoids deadlock by only granting safe requests.",
  '',
].join('\n');

interface Opened {
  db: NotesAgentDatabase;
  core: ReturnType<typeof createCoreApi>;
  events: EventLog;
  runtime: JobRuntime;
  vault: SecretsVault;
  agent: AgentService;
}
const opened: Opened[] = [];

function open(
  options: { name?: string; adapters?: AgentAdapterFactory; extraTools?: AgentToolSpec[] } = {},
): Opened {
  const db = options.name
    ? new NotesAgentDatabase(options.name, MIGRATIONS_WITH_AGENT)
    : freshDatabase(MIGRATIONS_WITH_AGENT);
  const core = createCoreApi(db, { indexDebounceMs: 0 });
  const events = new EventLog(new EventRepository(db));
  const runtime = new JobRuntime(new JobRepository(db), events);
  const vault = new SecretsVault(db);
  const agent = createAgentService({
    db,
    events,
    runtime,
    notes: core.api.notes,
    search: core.api.search,
    vault,
    ...(options.adapters && { adapters: options.adapters }),
    ...(options.extraTools && { extraTools: options.extraTools }),
  });
  const handle = { db, core, events, runtime, vault, agent };
  opened.push(handle);
  return handle;
}

afterEach(async () => {
  for (const handle of opened.splice(0)) {
    handle.core.dispose();
    await handle.runtime.idle().catch(() => undefined);
    await handle.core.idle().catch(() => undefined);
    handle.db.close();
  }
});

const scripted =
  (script: unknown): AgentAdapterFactory =>
  async () => ({ adapter: new ScriptedAdapter(script as AgentScript), model: MOCK_MODEL });

async function codeOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    return isAppError(error) ? error.code : `not an AppError: ${String(error)}`;
  }
  return 'resolved';
}

/** Streams a run's events to the end, answering permission prompts with `decide`. */
async function follow(
  agent: AgentService,
  runId: string,
  decide?: (data: { request_id: string }) => 'allow_once' | 'always_allow' | 'deny',
): Promise<EventEnvelope[]> {
  const streamed: EventEnvelope[] = [];
  const subscription = agent.subscribe(runId, 0, (envelope) => {
    streamed.push(envelope);
    if (envelope.event === 'PermissionRequired' && decide) {
      const data = envelope.data as { request_id: string };
      void agent.resolvePermission({ run_id: runId, request_id: data.request_id, decision: decide(data) });
    }
  });
  await subscription.closed;
  return streamed;
}

/** The run's status as read by a subscriber the moment the terminal event reaches it. */
function statusAtTerminalEvent(
  agent: AgentService,
  runId: string,
): Promise<{ event: string; status: string }> {
  return new Promise((resolve, reject) => {
    agent.subscribe(runId, 0, (envelope) => {
      if (!['RunCompleted', 'RunFailed', 'RunCancelled'].includes(envelope.event)) return;
      agent.get(runId).then((row) => resolve({ event: envelope.event, status: row.status }), reject);
    });
  });
}

async function seedNotes(handle: Opened) {
  await handle.core.start();
  const note = await handle.core.api.notes.create({
    title: 'Operating systems: deadlock',
    body: DEADLOCK_BODY,
  });
  await handle.core.api.notes.create({ title: 'Dinner', body: 'Braise the pork belly slowly for an hour.' });
  await handle.core.idle();
  return note;
}

describe('AgentService', () => {
  it('runs search → read → tasks.create on a real note, asking permission (allow once)', async () => {
    const handle = open();
    const { agent, core, runtime } = handle;
    const note = await seedNotes(handle);
    const blocksBefore = await core.api.notes.blocks(note.note_id);

    const run = await agent.start({ prompt: 'Find my deadlock note and create three review tasks from it' });
    expect(run.status).toBe('queued');
    const streamed = await follow(agent, run.run_id, () => 'allow_once');
    await runtime.idle();

    const names = streamed.map((envelope) => envelope.event);
    expect(names[0]).toBe('RunStarted');
    expect(names.at(-1)).toBe('RunCompleted');
    const toolCalls = streamed
      .filter((e) => e.event === 'ToolCall')
      .map((e) => (e.data as { name: string }).name);
    expect(toolCalls).toEqual(['rag.search', 'notes.read', 'tasks.create']);
    const resolved = streamed.find((e) => e.event === 'PermissionResolved')!.data as Record<string, unknown>;
    expect(resolved).toMatchObject({ decision: 'allow_once', source: 'user', permission: 'notes.write' });
    expect(names.indexOf('PermissionRequired')).toBeLessThan(names.indexOf('PermissionResolved'));

    const updated = await core.api.notes.get(note.note_id);
    const tasks = parseChecklist(updated.body);
    expect(tasks).toHaveLength(3);
    expect(tasks.map((task) => task.text)).toEqual(tasksFromNote(DEADLOCK_BODY, 3));
    // The blocks that were there keep their ids.
    const blocksAfter = await core.api.notes.blocks(note.note_id);
    for (const block of blocksBefore) {
      expect(blocksAfter.find((after) => after.text === block.text)?.block_id).toBe(block.block_id);
    }

    const done = await agent.get(run.run_id);
    expect(done).toMatchObject({ status: 'completed', tool_calls: 3, steps: 4 });
    expect(done.output).toContain('3 review tasks');
    expect((await runtime.get(done.job_id)).status).toBe('completed');
    expect((await agent.list({ limit: 10 })).items.map((item) => item.run_id)).toEqual([run.run_id]);
    // The finished run is remembered as an episode, recallable by later chats and runs.
    expect(await agent.memories()).toMatchObject([
      {
        type: 'episodic',
        source: 'agent_thought',
        sessionId: run.run_id,
        content: expect.stringContaining('3 review tasks'),
      },
    ]);

    // The trace reads back exactly what was streamed, from any cursor.
    const full = await agent.trace({ run_id: run.run_id });
    expect(full.items).toEqual(streamed);
    expect(full.status).toBe('completed');
    expect(full.summary).toMatchObject({ model_calls: 4, tool_calls: 3, errors: 0 });
    expect(full.config_snapshot).toMatchObject({ provider_id: 'mock', model: MOCK_MODEL });
    const cursor = streamed[4]!.sequence;
    const page = await agent.trace({ run_id: run.run_id, after_sequence: cursor, limit: 3 });
    expect(page.items).toEqual(streamed.slice(5, 8));
    expect(page.has_more).toBe(true);
    expect((await agent.events(run.run_id, { after_sequence: cursor })).items).toEqual(streamed.slice(5));

    // Answering again is a conflict.
    const requestId = (resolved as { request_id: string }).request_id;
    expect(
      await codeOf(agent.resolvePermission({ run_id: run.run_id, request_id: requestId, decision: 'deny' })),
    ).toBe('STATE_CONFLICT');
  });

  it('leaves the note alone when the user denies, and remembers "always allow" until revoked', async () => {
    const handle = open();
    const { agent, core } = handle;
    const note = await seedNotes(handle);

    const denied = await agent.start({ prompt: 'deadlock review tasks' });
    const deniedEvents = await follow(agent, denied.run_id, () => 'deny');
    const result = deniedEvents.find(
      (e) => e.event === 'ToolResult' && (e.data as { name: string }).name === 'tasks.create',
    );
    expect(result?.data).toMatchObject({ status: 'denied', success: false });
    expect(deniedEvents.at(-1)?.event).toBe('RunCompleted');
    expect((await core.api.notes.get(note.note_id)).body).toBe(DEADLOCK_BODY);
    expect(
      await codeOf(
        agent.resolvePermission({ run_id: denied.run_id, request_id: 'permission_nope', decision: 'deny' }),
      ),
    ).toBe('RESOURCE_NOT_FOUND');

    const always = await agent.start({ prompt: 'deadlock review tasks' });
    await follow(agent, always.run_id, () => 'always_allow');
    expect((await agent.grants()).map((grant) => grant.permission)).toEqual(['notes.write']);

    const granted = await agent.start({ prompt: 'deadlock review tasks' });
    const grantedEvents = await follow(agent, granted.run_id);
    expect(grantedEvents.map((e) => e.event)).not.toContain('PermissionRequired');
    expect(grantedEvents.find((e) => e.event === 'PermissionResolved')?.data).toMatchObject({
      source: 'grant',
    });
    expect(parseChecklist((await core.api.notes.get(note.note_id)).body)).toHaveLength(6);

    await agent.revokeGrant('notes.write');
    expect(await agent.grants()).toEqual([]);
    expect(await codeOf(agent.revokeGrant('notes.write'))).toBe('RESOURCE_NOT_FOUND');
  });

  it('cancels a run during a tool: the tool is aborted and the run and its job end cancelled', async () => {
    const { tool, started } = waitingTool('test.wait');
    const handle = open({ adapters: scripted(slowToolScript), extraTools: [tool] });
    const { agent, runtime } = handle;
    const run = await agent.start({ prompt: 'wait' });
    const following = follow(agent, run.run_id);
    await started;
    await agent.cancel(run.run_id);
    const streamed = await following;
    await runtime.idle();

    expect(streamed.at(-1)?.event).toBe('RunCancelled');
    expect(streamed.find((e) => e.event === 'ToolResult')?.data).toMatchObject({ status: 'cancelled' });
    const row = await agent.get(run.run_id);
    expect(row.status).toBe('cancelled');
    expect((await runtime.get(row.job_id)).status).toBe('cancelled');
    expect((await agent.trace({ run_id: run.run_id })).status).toBe('cancelled');
    expect(await codeOf(agent.cancel(run.run_id))).toBe('STATE_CONFLICT');
  });

  it('writes the final run row before the terminal event, for completed, failed and cancelled runs', async () => {
    const handle = open();
    await seedNotes(handle);
    const completed = await handle.agent.start({ prompt: 'deadlock review tasks' });
    const seenCompleted = statusAtTerminalEvent(handle.agent, completed.run_id);
    void follow(handle.agent, completed.run_id, () => 'allow_once');
    expect(await seenCompleted).toEqual({ event: 'RunCompleted', status: 'completed' });

    // One model call allowed and the first answer asks for a tool: the run fails.
    const failed = await handle.agent.start({ prompt: 'deadlock review tasks', max_steps: 1 });
    expect(await statusAtTerminalEvent(handle.agent, failed.run_id)).toEqual({
      event: 'RunFailed',
      status: 'failed',
    });

    const { tool, started } = waitingTool('test.wait');
    const waiting = open({ adapters: scripted(slowToolScript), extraTools: [tool] });
    const cancelled = await waiting.agent.start({ prompt: 'wait' });
    const seenCancelled = statusAtTerminalEvent(waiting.agent, cancelled.run_id);
    await started;
    await waiting.agent.cancel(cancelled.run_id);
    expect(await seenCancelled).toEqual({ event: 'RunCancelled', status: 'cancelled' });
    await handle.runtime.idle();
    await waiting.runtime.idle();
  });

  it('fails at start-up a run that a closed tab left running', async () => {
    // The "closed" tab's tool hangs until released, so the test can end it cleanly.
    let markStarted!: () => void;
    let release!: () => void;
    const started = new Promise<void>((resolve) => (markStarted = resolve));
    const released = new Promise<never>(
      (_resolve, reject) => (release = () => reject(new Error('released'))),
    );
    const tool = defineTool({
      name: 'test.wait',
      description: 'Hangs (tests).',
      parameters: z.object({}),
      category: MetonaToolCategory.CUSTOM,
      riskLevel: MetonaRiskLevel.SAFE,
      requiresPermission: false,
      execute: () => {
        markStarted();
        return released;
      },
    });
    const first = open({ adapters: scripted(slowToolScript), extraTools: [tool] });
    const run = await first.agent.start({ prompt: 'wait' });
    await started;

    // A new tab opens the same database: recovery fails the job, then the run.
    const second = open({ name: first.db.name });
    expect(await second.runtime.recover()).toMatchObject({ failed: 1 });
    expect(await second.agent.recover()).toEqual({ failed: 1 });

    const row = await second.agent.get(run.run_id);
    expect(row.status).toBe('failed');
    expect(row.error?.code).toBe('JOB_INTERRUPTED');
    const trace = await second.agent.trace({ run_id: run.run_id });
    expect(trace.status).toBe('failed');
    expect(trace.items.at(-1)).toMatchObject({ event: 'RunFailed', data: { code: 'JOB_INTERRUPTED' } });

    // The old tab's loop is let go so the test ends cleanly (its job stays failed).
    release();
    await first.runtime.idle();
    expect((await second.runtime.get(row.job_id)).status).toBe('failed');
  });

  it('keeps API keys and vault secrets out of every stored event, artifact and run row', async () => {
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
            headers: { Authorization: `Bearer ${api_key}` },
            echoed: `key=${api_key} vault=${note}`,
            body: 'x'.repeat(20_000),
          },
        };
      },
    });
    const apiKey = 'sk-live-0123456789abcdefABCDEF';
    const vaultSecret = 'hunter2-vault-secret';
    const handle = open({ adapters: scripted(secretsScript), extraTools: [leak] });
    await handle.vault.put('provider.deepseek.api_key', vaultSecret);
    const run = await handle.agent.start({ prompt: `Use ${vaultSecret} and key ${apiKey}` });
    const streamed = await follow(handle.agent, run.run_id);
    await handle.runtime.idle();
    expect(streamed.at(-1)?.event).toBe('RunCompleted');

    const stored = JSON.stringify([
      await handle.db.events.toArray(),
      await handle.db.table(AGENT_TABLES.artifacts).toArray(),
      await handle.db.table(AGENT_TABLES.runs).toArray(),
    ]);
    expect(stored).toContain('[REDACTED]');
    expect(stored).toContain('result_artifact');
    expect(stored).not.toContain(apiKey);
    expect(stored).not.toContain(vaultSecret);
  });

  it('rejects invalid input and answers missing runs with AGENT_RUN_NOT_FOUND', async () => {
    const { agent, core } = open();
    await core.start();
    expect(await codeOf(agent.start({ prompt: '  ' }))).toBe('VALIDATION_FAILED');
    expect(await codeOf(agent.start({ prompt: 'x', extra: true } as never))).toBe('VALIDATION_FAILED');
    expect(await codeOf(agent.start({ prompt: 'x', max_steps: 0 }))).toBe('VALIDATION_FAILED');
    expect(await codeOf(agent.start({ prompt: 'x', allowed_tools: ['nope.tool'] }))).toBe('INVALID_REQUEST');
    expect(await codeOf(agent.start({ prompt: 'x', provider: 'nowhere' }))).toBe('PROVIDER_UNAVAILABLE');
    expect(await codeOf(agent.list({ limit: 0 }))).toBe('VALIDATION_FAILED');

    for (const call of [
      agent.get('run_missing'),
      agent.cancel('run_missing'),
      agent.trace({ run_id: 'run_missing' }),
      agent.events('run_missing'),
      agent.resolvePermission({ run_id: 'run_missing', request_id: 'p', decision: 'allow_once' }),
    ]) {
      expect(await codeOf(call)).toBe('AGENT_RUN_NOT_FOUND');
    }
    expect(
      await codeOf(agent.resolvePermission({ run_id: 'r', request_id: 'p', decision: 'maybe' } as never)),
    ).toBe('VALIDATION_FAILED');
    expect(await codeOf(agent.deleteMemory('memory_missing'))).toBe('RESOURCE_NOT_FOUND');

    const run = await agent.start({ prompt: 'What is 2 + 2?', allowed_tools: ['math.evaluate'] });
    await follow(agent, run.run_id);
    expect(await codeOf(agent.trace({ run_id: run.run_id, after_sequence: -1 }))).toBe(
      'TRACE_CURSOR_INVALID',
    );
    expect(await codeOf(agent.trace({ run_id: run.run_id, after_sequence: 1.5 }))).toBe(
      'TRACE_CURSOR_INVALID',
    );
    expect(await codeOf(agent.trace({ run_id: run.run_id, after_sequence: 10_000 }))).toBe(
      'TRACE_CURSOR_INVALID',
    );
  });

  it('lists and deletes stored memories', async () => {
    const { agent, db } = open();
    await db.table(AGENT_TABLES.memories).put({
      id: 'memory_1',
      type: 'semantic',
      content: 'The user reviews OS notes on Fridays.',
      source: 'user_input',
      importance: 0.7,
      createdAt: Date.now(),
    });
    expect((await agent.memories()).map((item) => item.id)).toEqual(['memory_1']);
    await agent.deleteMemory('memory_1');
    expect(await agent.memories()).toEqual([]);
  });
});
