// The agent view's setup against the real core, in-thread over fake-indexeddb.
import { afterAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { core as CoreApi } from '../api/core-client';

vi.mock('../api/core-client', async () =>
  (await import('../../services/test-core')).coreClientDouble({}, { jobEvents: false }),
);

const { core, testCore } = (await import('../api/core-client')) as unknown as {
  core: typeof CoreApi;
  testCore: { close: () => Promise<void> };
};
const { agentView } = await import('./agent.svelte');
const { loadAgentSetup } = await import('./agent.service');
const { toasts } = await import('../toasts/toasts.svelte');

beforeEach(() => {
  agentView.choose(null);
  toasts.reset();
});

afterAll(async () => {
  await testCore.close();
});

describe('the agent view’s model picker', () => {
  it('picks the demo model when nothing else is configured', async () => {
    await loadAgentSetup();
    expect(agentView.choice).toEqual({ provider_id: 'mock', model: 'mock-1' });
  });

  it('still gets a model it can run when the providers cannot be read, and says why', async () => {
    const list = vi.spyOn(core.providers, 'list').mockRejectedValueOnce(new Error('storage gone'));
    await loadAgentSetup();
    list.mockRestore();
    // Not left waiting (the picker would say "Loading models…" for good, with Run off).
    expect(agentView.choice).toEqual({ provider_id: 'mock', model: 'mock-1' });
    expect(toasts.items.length).toBeGreaterThan(0);
  });
});
