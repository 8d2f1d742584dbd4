import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { zipSync, type Zippable } from 'fflate';
import { afterEach, describe, expect, it } from 'vitest';
import { ScriptedAdapter, type AgentScript } from '../agent/__fixtures__/scripted-adapter';
import type { EventEnvelope } from '../contracts';
import { inProcessPluginWorker } from '../plugins/__fixtures__/in-process-worker';
import { connectPluginWorker } from '../plugins/worker-connector';
import { freshDatabase } from '../db/test-database';
import { MOCK_MODEL } from '../providers/mock';
import type { AgentService } from './agent-service';
import { createCoreApi } from './core-api';

const SAMPLE_DIR = join(process.cwd(), 'e2e/plugins/sample-greeter');
const greetScript: AgentScript = {
  description: 'One call of the sample plugin tool, then an answer.',
  turns: [
    {
      id: 'greet-1',
      steps: [
        {
          type: 'tool_call',
          id: 'call_greet',
          name: 'sample-greeter.greet',
          argument_chunks: ['{"name":"Ada"}'],
        },
        { type: 'finish', reason: 'tool_calls' },
      ],
    },
    { id: 'greet-2', steps: [{ type: 'text', chunks: ['Greeted.'] }] },
  ],
} as unknown as AgentScript;

const cores: Array<ReturnType<typeof createCoreApi>> = [];
afterEach(async () => {
  for (const core of cores.splice(0)) {
    for (const plugin of (await core.api.plugins.list()).items) await core.api.plugins.disable(plugin);
    core.dispose();
    await core.idle();
  }
});

async function follow(agent: AgentService, runId: string, decision: 'allow_once' | 'deny') {
  const streamed: EventEnvelope[] = [];
  const subscription = agent.subscribe(runId, 0, (envelope) => {
    streamed.push(envelope);
    if (envelope.event === 'PermissionRequired') {
      const data = envelope.data as { request_id: string };
      void agent.resolvePermission({ run_id: runId, request_id: data.request_id, decision });
    }
  });
  await subscription.closed;
  return streamed;
}

/** A core with the sample greeter installed, configured and enabled. */
async function coreWithGreeter() {
  const core = createCoreApi(freshDatabase(), {
    indexDebounceMs: 0,
    plugins: {
      worker: (code, permissions) => connectPluginWorker(inProcessPluginWorker, code, permissions),
    },
    agentAdapters: async () => ({ adapter: new ScriptedAdapter(greetScript), model: MOCK_MODEL }),
  });
  cores.push(core);
  const { plugins } = core.api;
  const files: Zippable = {};
  for (const name of readdirSync(SAMPLE_DIR))
    files[name] = new Uint8Array(readFileSync(join(SAMPLE_DIR, name)));
  const { package_id } = await plugins.stagePackage({ name: 'sample.zip', bytes: zipSync(files) });
  await plugins.install({ package_id });
  await plugins.grantPermissions({ plugin_id: 'sample-greeter', permissions: ['secrets.use'] });
  await plugins.updateSettings({
    plugin_id: 'sample-greeter',
    schema_version: 1,
    values: { greeting: 'Hi' },
  });
  await plugins.putSecret({ plugin_id: 'sample-greeter', key: 'api_key', secret: 'sk-1' });
  await plugins.enable({ plugin_id: 'sample-greeter' });
  return core;
}

describe('the agent uses enabled plugin tools', () => {
  it('calls a plugin tool behind the same permission prompt as built-in tools, and loses it on disable', async () => {
    const { plugins, agent } = (await coreWithGreeter()).api;
    const run = await agent.start({ prompt: 'greet Ada' });
    const events = await follow(agent, run.run_id, 'allow_once');
    const required = events.find((event) => event.event === 'PermissionRequired');
    expect(required?.data).toMatchObject({
      tool: 'sample-greeter.greet',
      permission: 'sample-greeter.tools',
    });
    const result = events.find((event) => event.event === 'ToolResult');
    expect(result?.data).toMatchObject({ name: 'sample-greeter.greet', status: 'ok', success: true });
    expect(JSON.stringify(result?.data)).toContain('Hello, Ada!');
    expect(events.at(-1)?.event).toBe('RunCompleted');

    await plugins.disable({ plugin_id: 'sample-greeter' });
    const after = await agent.start({ prompt: 'greet Ada again' });
    const afterEvents = await follow(agent, after.run_id, 'allow_once');
    expect(afterEvents.find((event) => event.event === 'ToolResult')?.data).toMatchObject({
      status: 'unknown_tool',
    });
  });

  it('withdraws a waiting prompt when the plugin is uninstalled: the call does not run and the run goes on', async () => {
    const { plugins, agent } = (await coreWithGreeter()).api;
    const run = await agent.start({ prompt: 'greet Ada' });
    const streamed: EventEnvelope[] = [];
    let requestId = '';
    const subscription = agent.subscribe(run.run_id, 0, (envelope) => {
      streamed.push(envelope);
      if (envelope.event === 'PermissionRequired') {
        requestId = (envelope.data as { request_id: string }).request_id;
        void plugins.uninstall({ plugin_id: 'sample-greeter' });
      }
    });
    await subscription.closed;

    const names = streamed.map((event) => event.event);
    expect(names.indexOf('PermissionResolved')).toBeGreaterThan(names.indexOf('PermissionRequired'));
    expect(streamed.find((event) => event.event === 'PermissionResolved')?.data).toMatchObject({
      request_id: requestId,
      decision: 'deny',
      source: 'withdrawn',
    });
    const result = streamed.find((event) => event.event === 'ToolResult')?.data;
    expect(result).toMatchObject({ name: 'sample-greeter.greet', status: 'withdrawn', success: false });
    expect(JSON.stringify(result)).not.toContain('Hello');
    expect(names.at(-1)).toBe('RunCompleted');
    // The answer came too late to matter: the request is no longer open.
    await expect(
      agent.resolvePermission({ run_id: run.run_id, request_id: requestId, decision: 'allow_once' }),
    ).rejects.toMatchObject({ code: 'STATE_CONFLICT' });
  });
});
