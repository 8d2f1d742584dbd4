// Settings' agent section against the real core, in-thread over
// fake-indexeddb: list the stored grants and revoke one. Memories are the
// Memory page's (ui/memory), which this section only links to.
import { afterAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { DexieGrantStore, DexieMemoryStore } from '../../db/agent-stores';
import type { NotesAgentDatabase } from '../../db';
import type { core as CoreApi } from '../api/core-client';

vi.mock('../api/core-client', async () =>
  (await import('../../services/test-core')).coreClientDouble({}, { jobEvents: false }),
);

const { core, testCore } = (await import('../api/core-client')) as unknown as {
  core: typeof CoreApi;
  testCore: { db: NotesAgentDatabase; close: () => Promise<void> };
};
const { agentSettings } = await import('./agent-settings.svelte');
const service = await import('./agent-settings.service');
const { agentView } = await import('./agent.svelte');
const { startRun } = await import('./agent.service');
const { toasts } = await import('../toasts/toasts.svelte');

const grants = new DexieGrantStore(testCore.db);
const memories = new DexieMemoryStore(testCore.db);

beforeEach(async () => {
  agentSettings.reset();
  toasts.reset();
  for (const grant of await grants.list()) await grants.delete(grant.permission);
  for (const item of await memories.list()) await memories.delete(item.id);
  for (const name of await core.agent.disabledTools())
    await core.agent.setToolEnabled({ tool: name, enabled: true });
});

afterAll(async () => {
  await testCore.close();
});

describe('agent settings workflows', () => {
  it('lists the always-allowed grants and revokes one', async () => {
    await grants.put({
      permission: 'notes.write',
      tool: 'update_note',
      granted_at: '2024-05-01T08:00:00.000Z',
    });
    await grants.put({
      permission: 'notes.create',
      tool: 'create_note',
      granted_at: '2024-05-02T08:00:00.000Z',
    });

    await service.refreshAgentSettings();
    expect(agentSettings.loaded).toBe(true);
    expect(agentSettings.grants.map((grant) => grant.permission)).toEqual(['notes.create', 'notes.write']);

    await service.revokeGrant('notes.write');
    expect(agentSettings.grants.map((grant) => grant.tool)).toEqual(['create_note']);
    expect((await core.agent.grants()).map((grant) => grant.permission)).toEqual(['notes.create']);
    await service.refreshAgentSettings();
    expect(agentSettings.grants.map((grant) => grant.permission)).toEqual(['notes.create']);
    expect(toasts.items).toHaveLength(0);
  });

  it('reads grants only: stored memories are left to the Memory page', async () => {
    await memories.put({
      id: 'm1',
      type: 'semantic',
      content: 'Prefers Chinese',
      source: 'user_input',
      importance: 0.5,
      createdAt: 1_000,
    });
    await service.refreshAgentSettings();
    expect(agentSettings.grants).toEqual([]);
    expect('memories' in agentSettings).toBe(false);
    expect('deleteMemory' in service).toBe(false);
    expect((await core.agent.memories()).map((item) => item.id)).toEqual(['m1']);
  });

  it('reports a grant that is already gone and re-reads the list', async () => {
    await grants.put({
      permission: 'notes.write',
      tool: 'update_note',
      granted_at: '2024-05-01T08:00:00.000Z',
    });
    await service.refreshAgentSettings();
    await grants.delete('notes.write');

    await service.revokeGrant('notes.write');
    expect(toasts.items).toHaveLength(1);
    expect(agentSettings.grants).toEqual([]);
  });

  it('lists every tool on at first, and keeps one turned off', async () => {
    await service.refreshAgentSettings();
    const names = agentSettings.tools.map((tool) => tool.name);
    expect(names).toEqual(expect.arrayContaining(['notes.create', 'notes.organise', 'tasks.create']));
    expect(names.every((name) => agentSettings.isEnabled(name))).toBe(true);

    await service.setToolEnabled('notes.organise', false);
    expect(agentSettings.isEnabled('notes.organise')).toBe(false);
    agentSettings.reset();
    await service.refreshAgentSettings();
    expect(agentSettings.disabled).toEqual(['notes.organise']);

    await service.setToolEnabled('notes.organise', true);
    expect(agentSettings.isEnabled('notes.organise')).toBe(true);
    expect(await core.agent.disabledTools()).toEqual([]);
    expect(toasts.items).toHaveLength(0);
  });

  it('keeps both of two switches flipped at once', async () => {
    await Promise.all([
      core.agent.setToolEnabled({ tool: 'notes.organise', enabled: false }),
      core.agent.setToolEnabled({ tool: 'tasks.create', enabled: false }),
    ]);
    expect((await core.agent.disabledTools()).sort()).toEqual(['notes.organise', 'tasks.create']);
  });

  it('refuses to turn off a tool that does not exist, and says so', async () => {
    await service.setToolEnabled('nowhere.tool', false);
    expect(toasts.items).toHaveLength(1);
    expect(await core.agent.disabledTools()).toEqual([]);
  });

  it('starts a run with the tools left on, and with none when every tool is off', async () => {
    // Only what the run is started with matters here, not the run itself.
    const start = vi.spyOn(core.agent, 'start').mockRejectedValue(new Error('not started in this test'));
    try {
      await service.setToolEnabled('notes.organise', false);
      agentView.setInput('Tidy my notes');
      await startRun();
      const allowed = start.mock.calls[0]![0].allowed_tools;
      expect(allowed).toContain('notes.create');
      expect(allowed).not.toContain('notes.organise');

      for (const tool of await core.agent.tools())
        await core.agent.setToolEnabled({ tool: tool.name, enabled: false });
      agentView.setInput('Just say hello');
      await startRun();
      expect(start.mock.calls[1]![0].allowed_tools).toEqual([]);
    } finally {
      start.mockRestore();
    }
  });

  it('starts a run with every tool while none is off', async () => {
    // Only what the run is started with matters here, not the run itself.
    const start = vi.spyOn(core.agent, 'start').mockRejectedValue(new Error('not started in this test'));
    try {
      agentView.setInput('What is 2 + 2?');
      await startRun();
      expect(start.mock.calls[0]![0]).not.toHaveProperty('allowed_tools');
    } finally {
      start.mockRestore();
    }
  });
});
