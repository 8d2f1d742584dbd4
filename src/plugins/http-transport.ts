import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { AppError } from '../contracts/errors';

export type FetchFunction = typeof fetch;

/**
 * Why a remote server could not be reached from this page. A browser reports
 * a refused origin and an unreachable host with the same TypeError, so a
 * second, opaque (`no-cors`) request tells them apart: if that one gets an
 * answer, the server is up and it is CORS that refuses this origin.
 */
export async function diagnoseUnreachable(
  url: string,
  fetchImpl: FetchFunction,
  origin: string | null,
): Promise<AppError> {
  let reachable: boolean;
  try {
    await fetchImpl(url, { method: 'GET', mode: 'no-cors', cache: 'no-store' });
    reachable = true;
  } catch {
    reachable = false;
  }
  if (reachable) {
    return new AppError(
      'PLUGIN_HOST_UNAVAILABLE',
      `The MCP server at ${url} answers but does not allow this app's origin (CORS).`,
      {
        url,
        reason: 'cors',
        origin,
        hint: 'Allow the origin in Access-Control-Allow-Origin, the methods GET, POST and DELETE, and the headers content-type, mcp-session-id, mcp-protocol-version; expose mcp-session-id.',
      },
    );
  }
  return new AppError('PLUGIN_HOST_UNAVAILABLE', `The MCP server at ${url} could not be reached.`, {
    url,
    reason: 'unreachable',
  });
}

/** undici's "other side closed": the socket ended before the answer began. */
function closedBeforeAnswer(error: unknown): boolean {
  if (!(error instanceof TypeError)) return false;
  const cause = (error as { cause?: { code?: unknown } }).cause;
  return cause?.code === 'UND_ERR_SOCKET';
}

/**
 * Streamable HTTP to a remote MCP server through the SDK's transport. A
 * network-level failure of any request becomes PLUGIN_HOST_UNAVAILABLE with
 * the CORS diagnosis above instead of a bare "Failed to fetch".
 */
export function streamableHttpTransport(
  url: string,
  options: { fetch?: FetchFunction; origin?: string | null } = {},
): Transport {
  const base = options.fetch ?? fetch;
  const origin = options.origin ?? (typeof location === 'undefined' ? null : location.origin);
  const guarded: FetchFunction = async (input, init) => {
    try {
      try {
        return await base(input, init);
      } catch (error) {
        // Node's fetch may reuse a kept-alive socket the server has just
        // closed; the request then fails before any answer. Browsers resend
        // such a request on a new connection, and so do we, once.
        if (!closedBeforeAnswer(error) || init?.signal?.aborted) throw error;
        return await base(input, init);
      }
    } catch (error) {
      if (error instanceof TypeError) throw await diagnoseUnreachable(url, base, origin);
      throw error;
    }
  };
  return new StreamableHTTPClientTransport(new URL(url), { fetch: guarded });
}
