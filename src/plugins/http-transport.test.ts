import { describe, expect, it } from 'vitest';
import { streamableHttpTransport } from './http-transport';

const URL_ = 'http://127.0.0.1:9/mcp';
const initialized = { jsonrpc: '2.0' as const, method: 'notifications/initialized' };

/** undici's error for a kept-alive socket the server closed before answering. */
const closedSocket = () => new TypeError('fetch failed', { cause: { code: 'UND_ERR_SOCKET' } });

function scriptedFetch(outcomes: (() => Response | Error)[]) {
  const posts: string[] = [];
  const probes: string[] = [];
  const fetchImpl = (async (_input: RequestInfo | URL, init?: RequestInit) => {
    if (init?.mode === 'no-cors') {
      probes.push(init.method ?? 'GET');
      throw new TypeError('Failed to fetch');
    }
    // After `initialized` the SDK opens its GET event stream; a 405 says there is none.
    if (init?.method === 'GET') return new Response(null, { status: 405 });
    posts.push(String(init?.body));
    const outcome = outcomes.shift()?.() ?? new Response(null, { status: 202 });
    if (outcome instanceof Error) throw outcome;
    return outcome;
  }) as typeof fetch;
  return { fetchImpl, posts, probes };
}

describe('streamableHttpTransport', () => {
  it('resends a request once when the server closed a reused socket before answering', async () => {
    const { fetchImpl, posts, probes } = scriptedFetch([closedSocket]);
    const transport = streamableHttpTransport(URL_, { fetch: fetchImpl, origin: null });
    await transport.start();
    await transport.send(initialized);
    expect(posts).toHaveLength(2);
    expect(posts[0]).toBe(posts[1]);
    expect(probes).toEqual([]);
    await transport.close();
  });

  it('gives up after one resend and says the server could not be reached', async () => {
    const { fetchImpl, posts, probes } = scriptedFetch([closedSocket, closedSocket]);
    const transport = streamableHttpTransport(URL_, { fetch: fetchImpl, origin: null });
    await transport.start();
    await expect(transport.send(initialized)).rejects.toMatchObject({
      code: 'PLUGIN_HOST_UNAVAILABLE',
      details: { reason: 'unreachable' },
    });
    expect(posts).toHaveLength(2);
    expect(probes).toHaveLength(1);
    await transport.close();
  });

  it('does not resend other network failures', async () => {
    const { fetchImpl, posts } = scriptedFetch([() => new TypeError('Failed to fetch')]);
    const transport = streamableHttpTransport(URL_, { fetch: fetchImpl, origin: null });
    await transport.start();
    await expect(transport.send(initialized)).rejects.toMatchObject({ code: 'PLUGIN_HOST_UNAVAILABLE' });
    expect(posts).toHaveLength(1);
    await transport.close();
  });
});
