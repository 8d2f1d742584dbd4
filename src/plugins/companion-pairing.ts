import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { AppError } from '../contracts/errors';
import { readPairingAnswer } from './pairing-answer';
import { CompanionTransport, type SocketFactory } from './companion-transport';

/** Vault names of the pairing: the token is a secret, never a setting; the address lives beside it. */
export const COMPANION_TOKEN_SECRET = 'plugin.companion.token';
export const COMPANION_URL_SECRET = 'plugin.companion.url';

/** The companion listens on loopback only. */
export const COMPANION_URL_PATTERN = /^http:\/\/(127\.0\.0\.1|localhost):\d{1,5}\/?$/;

/**
 * A closed port and a server that does not allow this page look the same to a
 * page; a `no-cors` request (whose answer the page may not read) still tells
 * them apart: it resolves only when something answered there.
 */
async function answersOpaquely(base: string, fetchImpl: typeof fetch): Promise<boolean> {
  try {
    await fetchImpl(`${base}/pair`, { mode: 'no-cors' });
    return true;
  } catch {
    return false;
  }
}

/** The port named by a companion address (`http://127.0.0.1:8766`), for the message. */
function portOf(base: string): string {
  try {
    return new URL(base).port || '80';
  } catch {
    return '';
  }
}

/**
 * Trades the 8-digit code the companion printed for its token, once. A
 * refusal, an unreachable companion, another server on its port or an answer
 * without a usable token are all PLUGIN_HOST_UNAVAILABLE, with what the user
 * can check (`details.reason`: `origin_refused`, `not_companion`, `unreadable_answer`).
 */
export async function exchangePairingCode(
  request: { url: string; code: string },
  fetchImpl: typeof fetch,
): Promise<{ base: string; token: string }> {
  const base = request.url.replace(/\/$/, '');
  const port = portOf(base);
  let response: Response;
  try {
    response = await fetchImpl(`${base}/pair`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ code: request.code }),
    });
  } catch {
    // This companion answers every page readably, a refused origin included; a server that
    // answers but not readably is another program, or a companion from before that refusal.
    if (await answersOpaquely(base, fetchImpl)) throw unreadableAnswer(base, port);
    throw new AppError('PLUGIN_HOST_UNAVAILABLE', 'The companion could not be reached; is it running?', {
      url: base,
    });
  }
  // A reply that is not JSON is not the companion's; null says so below.
  const body: unknown = await response.json().catch(() => null);
  const answer = readPairingAnswer(response.status, body);
  if (answer.kind === 'not_companion') throw notCompanion(base, port, response.status);
  if (answer.kind === 'refused') {
    if (answer.reason === 'origin_refused') {
      const origin = answer.origin ?? globalThis.location?.origin ?? '';
      throw new AppError(
        'PLUGIN_HOST_UNAVAILABLE',
        `The companion is running but refused this page's origin (${origin}); add it to allowed_origins in COMPANION_CONFIG.`,
        { url: base, origin, reason: 'origin_refused', status: answer.status },
      );
    }
    throw new AppError('PLUGIN_HOST_UNAVAILABLE', 'The companion refused the pairing code.', {
      status: answer.status,
    });
  }
  if (answer.token.length < 20) {
    throw new AppError('PLUGIN_HOST_UNAVAILABLE', 'The companion did not answer with a token.');
  }
  return { base, token: answer.token };
}

function unreadableAnswer(base: string, port: string): AppError {
  const origin = globalThis.location?.origin ?? '';
  return new AppError(
    'PLUGIN_HOST_UNAVAILABLE',
    `Something on port ${port} answers but not to this page: another program, or a companion that does not allow ${origin}.`,
    { url: base, port, origin, reason: 'unreadable_answer' },
  );
}

function notCompanion(base: string, port: string, status?: number): AppError {
  return new AppError(
    'PLUGIN_HOST_UNAVAILABLE',
    `Something else is answering on port ${port}; is the companion running?`,
    { url: base, port, reason: 'not_companion', ...(status !== undefined && { status }) },
  );
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
