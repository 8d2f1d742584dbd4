import { describe, expect, it } from 'vitest';
import { raceAbort } from './abort';

describe('raceAbort', () => {
  it('settles with the work when nothing aborts', async () => {
    await expect(raceAbort(Promise.resolve(7), new AbortController().signal)).resolves.toBe(7);
    await expect(raceAbort(Promise.reject(new Error('broken')), undefined)).rejects.toThrow('broken');
  });

  it('rejects with the abort reason while the work is still pending', async () => {
    const controller = new AbortController();
    const never = new Promise<number>(() => undefined);
    const raced = raceAbort(never, controller.signal);
    controller.abort();
    await expect(raced).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('rejects at once for a signal that is already aborted', async () => {
    const controller = new AbortController();
    controller.abort(new Error('stop'));
    await expect(raceAbort(Promise.resolve(1), controller.signal)).rejects.toThrow('stop');
  });
});
