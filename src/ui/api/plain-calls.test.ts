import * as Comlink from 'comlink';
import { afterEach, describe, expect, it } from 'vitest';
import { isAppError } from '../../contracts/errors';
import { callWithPlainData, plainCalls, plainData } from './plain-calls';

/** A remote service over a real MessageChannel, as the core worker is reached. */
function remoteService() {
  const received: unknown[] = [];
  const service = {
    keep(value: unknown) {
      received.push(value);
      return value;
    },
    fail() {
      received.push('fail');
      throw new Error('refused by the service');
    },
  };
  const channel = new MessageChannel();
  const api = { service: Comlink.proxy(service) };
  Comlink.expose(api, channel.port1);
  const remote = Comlink.wrap<typeof api>(channel.port2);
  channels.push(channel);
  return { remote, received, core: plainCalls(() => remote) };
}
const channels: MessageChannel[] = [];
afterEach(() => {
  for (const channel of channels.splice(0)) {
    channel.port1.close();
    channel.port2.close();
  }
});

/** What Svelte's `$state` hands out: a Proxy over plain data, which structured clone refuses. */
const stateLike = <T extends object>(value: T): T => new Proxy(value, {});

describe('calls to the core send plain data', () => {
  it('a proxied argument arrives as plain data (and would fail without the guard)', async () => {
    const { remote, core, received } = remoteService();
    const draft = stateLike({ title: 'Note', tags: stateLike(['a', 'b']), nested: stateLike({ n: 1 }) });
    await expect(remote.service.keep(draft)).rejects.toMatchObject({ name: 'DataCloneError' });
    expect(await core.service.keep(draft)).toEqual({ title: 'Note', tags: ['a', 'b'], nested: { n: 1 } });
    expect(received).toEqual([{ title: 'Note', tags: ['a', 'b'], nested: { n: 1 } }]);
  });

  it('an argument that cannot be cloned at all is INVALID_REQUEST naming the method', async () => {
    const { core, received } = remoteService();
    const error: unknown = await core.service.keep({ onDone: () => 1 }).catch((caught: unknown) => caught);
    expect(isAppError(error)).toBe(true);
    expect(error).toMatchObject({ code: 'INVALID_REQUEST', details: { method: 'core.service.keep' } });
    expect((error as Error).message).toMatch(/^core\.service\.keep could not send its arguments/);
    expect(received).toEqual([]);
  });

  it('a transfer mark survives: the buffer moves instead of being copied', async () => {
    const { core, received } = remoteService();
    const data = new Uint8Array([1, 2, 3]);
    await core.service.keep(Comlink.transfer({ data }, [data.buffer]));
    expect(data.byteLength).toBe(0);
    expect(received).toEqual([{ data: new Uint8Array([1, 2, 3]) }]);
  });

  it("the service's own failure is passed on, and the call is made once", async () => {
    const { core, received } = remoteService();
    await expect(core.service.fail()).rejects.toThrow('refused by the service');
    expect(received).toEqual(['fail']);
  });

  it('follows the live remote on every call', async () => {
    let calls = 0;
    let current = { run: async () => 'first' };
    const api = plainCalls(() => ({ svc: current }));
    const svc = api.svc;
    expect(await svc.run()).toBe('first');
    current = { run: async () => `second ${++calls}` };
    expect(await svc.run()).toBe('second 1');
  });

  it('a clone failure thrown before sending is retried once with copies, nothing else is', async () => {
    const attempts: unknown[][] = [];
    const cloneError = Object.assign(new Error('could not be cloned'), { name: 'DataCloneError' });
    const result = await callWithPlainData(
      'core.x.y',
      async (...args) => {
        attempts.push(args);
        if (attempts.length === 1) throw cloneError;
        return 'ok';
      },
      [stateLike({ a: 1 })],
    );
    expect(result).toBe('ok');
    expect(attempts).toHaveLength(2);
    expect(() => structuredClone(attempts[1])).not.toThrow();
  });
});

describe('plainData', () => {
  it('copies plain objects and arrays, keeps binary data and Comlink proxies as they are', () => {
    const bytes = new Uint8Array([1]);
    const callback = Comlink.proxy({ onEvent: () => {} });
    const date = new Date(0);
    const source = stateLike({ list: stateLike([1, stateLike({ x: 'y' })]), bytes, callback, date });
    const copy = plainData(source);
    expect(copy).not.toBe(source);
    expect(structuredClone({ list: copy.list, bytes: copy.bytes, date: copy.date })).toEqual({
      list: [1, { x: 'y' }],
      bytes,
      date,
    });
    expect(copy.bytes).toBe(bytes);
    expect(copy.callback).toBe(callback);
    expect(copy.date).toBe(date);
  });

  it('keeps shared and circular references', () => {
    const shared = { n: 1 };
    const cyclic: Record<string, unknown> = { a: shared, b: shared };
    cyclic.self = cyclic;
    const copy = plainData(cyclic);
    expect(copy.a).toBe(copy.b);
    expect(copy.self).toBe(copy);
  });
});
