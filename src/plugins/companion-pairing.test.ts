import { afterEach, describe, expect, it, vi } from 'vitest';
import { CompanionTransport, type SocketFactory } from './companion-transport';
import { companionServerTransport, exchangePairingCode } from './companion-pairing';

const TOKEN = 't'.repeat(32);
const answer = (status: number, body: unknown): typeof fetch =>
  (async () => new Response(JSON.stringify(body), { status })) as typeof fetch;

describe('pairing with the companion', () => {
  it('posts the code to /pair and returns the token with the address, without its trailing slash', async () => {
    const requests: Array<{ url: string; body: unknown }> = [];
    const fetchImpl = (async (url: string, init: RequestInit) => {
      requests.push({ url, body: JSON.parse(init.body as string) });
      return new Response(JSON.stringify({ token: TOKEN }));
    }) as unknown as typeof fetch;
    expect(await exchangePairingCode({ url: 'http://127.0.0.1:7777/', code: '12345678' }, fetchImpl)).toEqual(
      {
        base: 'http://127.0.0.1:7777',
        token: TOKEN,
      },
    );
    expect(requests).toEqual([{ url: 'http://127.0.0.1:7777/pair', body: { code: '12345678' } }]);
  });

  it.each([
    [
      'a refused code',
      answer(401, {
        error: { code: 'PLUGIN_HOST_UNAVAILABLE', message: 'The pairing code is not valid.', details: {} },
      }),
      { status: 401 },
    ],
    [
      'an unreachable companion',
      (async () => {
        throw new TypeError('fetch failed');
      }) as typeof fetch,
      { url: 'http://127.0.0.1:7777' },
    ],
    ['an answer without a usable token', answer(200, { token: 'short' }), {}],
  ])('%s is PLUGIN_HOST_UNAVAILABLE', async (_case, fetchImpl, details) => {
    await expect(
      exchangePairingCode({ url: 'http://127.0.0.1:7777', code: '12345678' }, fetchImpl),
    ).rejects.toMatchObject({ code: 'PLUGIN_HOST_UNAVAILABLE', details });
  });
});

describe('a companion that refuses the page, and another server on its port', () => {
  afterEach(() => vi.unstubAllGlobals());

  it("says the origin to allow when the companion answers that it refuses this page's origin", async () => {
    vi.stubGlobal('location', { origin: 'http://127.0.0.1:8080' });
    const fetchImpl = answer(403, {
      error: {
        code: 'PLUGIN_HOST_UNAVAILABLE',
        message: 'This origin is not allowed.',
        details: { reason: 'origin_refused', origin: 'http://127.0.0.1:8080' },
      },
    });
    await expect(
      exchangePairingCode({ url: 'http://127.0.0.1:7777', code: '12345678' }, fetchImpl),
    ).rejects.toMatchObject({
      code: 'PLUGIN_HOST_UNAVAILABLE',
      message: expect.stringContaining('allowed_origins'),
      details: { reason: 'origin_refused', origin: 'http://127.0.0.1:8080' },
    });
  });

  it('says a server that answers but not readably (no CORS) is another program or a companion refusing this origin', async () => {
    vi.stubGlobal('location', { origin: 'http://127.0.0.1:8080' });
    // What a browser does: the CORS request fails; a no-cors one resolves with an opaque answer.
    const fetchImpl = (async (_url: string, init?: RequestInit) => {
      if (init?.mode === 'no-cors') return new Response(null, { status: 200 });
      throw new TypeError('Failed to fetch');
    }) as unknown as typeof fetch;
    await expect(
      exchangePairingCode({ url: 'http://127.0.0.1:7777', code: '12345678' }, fetchImpl),
    ).rejects.toMatchObject({
      code: 'PLUGIN_HOST_UNAVAILABLE',
      message:
        'Something on port 7777 answers but not to this page: another program, or a companion that does not allow http://127.0.0.1:8080.',
      details: { reason: 'unreadable_answer', port: '7777', origin: 'http://127.0.0.1:8080' },
    });
  });

  it.each([
    ['a web page', new Response('<!doctype html><p>Not found', { status: 404 })],
    ['JSON of another shape', new Response(JSON.stringify({ status: 'ok' }), { status: 200 })],
  ])('says something else answers on the port when it answers readably with %s', async (_case, reply) => {
    const fetchImpl = (async () => reply) as unknown as typeof fetch;
    await expect(
      exchangePairingCode({ url: 'http://localhost:5173/', code: '12345678' }, fetchImpl),
    ).rejects.toMatchObject({ details: { reason: 'not_companion', port: '5173' } });
  });
});

describe('stdio servers through the companion', () => {
  const server = { pluginId: 'demo', command: 'node', args: ['server.js'] };
  const socket: SocketFactory = () => {
    throw new Error('not opened in this test');
  };

  it('without a socket it is unavailable, and the vault is not read', async () => {
    let read = false;
    const pairing = async () => {
      read = true;
      return { token: TOKEN, base: 'http://127.0.0.1:7777' };
    };
    await expect(companionServerTransport(server, undefined, pairing)).rejects.toMatchObject({
      code: 'PLUGIN_HOST_UNAVAILABLE',
      details: { plugin_id: 'demo', transport: 'stdio' },
    });
    expect(read).toBe(false);
  });

  it('unpaired, it asks for the pairing; paired, it is a companion transport', async () => {
    await expect(
      companionServerTransport(server, socket, async () => ({ token: undefined, base: undefined })),
    ).rejects.toMatchObject({
      code: 'PLUGIN_HOST_UNAVAILABLE',
      message: expect.stringContaining('Pair the companion'),
    });
    const transport = await companionServerTransport(server, socket, async () => ({
      token: TOKEN,
      base: 'http://127.0.0.1:7777',
    }));
    expect(transport).toBeInstanceOf(CompanionTransport);
  });
});
