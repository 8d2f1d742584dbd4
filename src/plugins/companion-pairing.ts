import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { AppError, isAppError } from '../contracts/errors';
import { CompanionTransport, type SocketFactory } from './companion-transport';

/** Vault names of the pairing: the token is a secret, never a setting; the address lives beside it. */
export const COMPANION_TOKEN_SECRET = 'plugin.companion.token';
export const COMPANION_URL_SECRET = 'plugin.companion.url';

/** The companion listens on loopback only. */
export const COMPANION_URL_PATTERN = /^http:\/\/(127\.0\.0\.1|localhost):\d{1,5}\/?$/;

/**
 * A CORS refusal and a closed port look the same to a page; a `no-cors` request
 * (whose answer the page may not read) still tells them apart: it resolves only
 * when something answered there.
 */
async function answersOpaquely(base: string, fetchImpl: typeof fetch): Promise<boolean> {
  try {
    await fetchImpl(`${base}/pair`, { mode: 'no-cors' });
    return true;
  } catch {
    return false;
  }
}

/**
 * Trades the 8-digit code the companion printed for its token, once. A
 * refusal, an unreachable companion or an answer without a usable token
 * are all PLUGIN_HOST_UNAVAILABLE, with what the user can check.
 */
export async function exchangePairingCode(
  request: { url: string; code: string },
  fetchImpl: typeof fetch,
): Promise<{ base: string; token: string }> {
  const base = request.url.replace(/\/$/, '');
  let token: unknown;
  try {
    const response = await fetchImpl(`${base}/pair`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ code: request.code }),
    });
    if (!response.ok) {
      throw new AppError('PLUGIN_HOST_UNAVAILABLE', 'The companion refused the pairing code.', {
        status: response.status,
      });
    }
    token = ((await response.json()) as { token?: unknown }).token;
  } catch (error) {
    if (isAppError(error)) throw error;
    const origin = globalThis.location?.origin;
    if (origin && (await answersOpaquely(base, fetchImpl))) {
      throw new AppError(
        'PLUGIN_HOST_UNAVAILABLE',
        `The companion is running but refused this page's origin (${origin}); add it to allowed_origins in COMPANION_CONFIG.`,
        { url: base, origin, reason: 'origin_refused' },
      );
    }
    throw new AppError('PLUGIN_HOST_UNAVAILABLE', 'The companion could not be reached; is it running?', {
      url: base,
    });
  }
  if (typeof token !== 'string' || token.length < 20) {
    throw new AppError('PLUGIN_HOST_UNAVAILABLE', 'The companion did not answer with a token.');
  }
  return { base, token };
}

/**
 * A stdio server through the paired companion; without a socket or a pairing
 * it is unavailable. The pairing is read only once a socket exists.
 */
export async function companionServerTransport(
  server: { pluginId: string; command: string; args: readonly string[] },
  socket: SocketFactory | undefined,
  pairing: () => Promise<{ token: string | undefined; base: string | undefined }>,
): Promise<Transport> {
  const unavailable = (message: string) =>
    new AppError('PLUGIN_HOST_UNAVAILABLE', message, { plugin_id: server.pluginId, transport: 'stdio' });
  if (!socket) throw unavailable('stdio servers need the companion, which is not available here.');
  const { token, base } = await pairing();
  if (!token || !base) throw unavailable('Pair the companion first (npm run companion prints a code).');
  return new CompanionTransport({ url: `${base.replace(/^http/, 'ws')}/`, token, ...server }, socket);
}
