import { afterEach, describe, expect, it } from 'vitest';
import { MemoryLeaseManager } from '../core/job-leases';
import { restartableCores } from './test-core';

/*
 * A second tab's start-up over the same notebook: what the first, still open,
 * tab is doing stays its own; only what a closed tab left behind is recovered.
 */
describe('start-up recovery with another tab open', () => {
  const cores = restartableCores();
  afterEach(() => cores.closeAll());

  it('leaves an answer another live tab is streaming alone, and fails one whose tab closed', async () => {
    const leases = new MemoryLeaseManager();
    const firstTab = leases.tab();
    const first = cores.open({ jobLeases: firstTab });
    const turn = await first.api.chat.send({ content: '/scenario long' });

    const second = cores.open({ jobLeases: leases.tab() }, true);
    expect(await second.api.chat.recover()).toBe(0);
    expect((await second.db.messages.get(turn.turn_id))?.status).toBe('streaming');

    // The first tab closes mid-answer: its lease goes with it, and the next start fails the answer.
    await first.api.chat.cancel(turn.turn_id);
    await first.api.chat.settled(turn.turn_id);
    const row = (await first.db.messages.get(turn.turn_id))!;
    await first.db.messages.put({ ...row, status: 'streaming' });
    firstTab.close();
    const third = cores.open({ jobLeases: leases.tab() }, true);
    expect(await third.api.chat.recover()).toBe(1);
    expect((await third.db.messages.get(turn.turn_id))?.status).toBe('failed');
  });
});
