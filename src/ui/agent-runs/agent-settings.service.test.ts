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
const { toasts } = await import('../toasts/toasts.svelte');

const grants = new DexieGrantStore(testCore.db);
const memories = new DexieMemoryStore(testCore.db);

beforeEach(async () => {
  agentSettings.reset();
  toasts.reset();
  for (const grant of await grants.list()) await grants.delete(grant.permission);
  for (const item of await memories.list()) await memories.delete(item.id);
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
});
