import { timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { hashApiKey, type ApiKeyEntry } from '../config';

// §2.1: the plugin sends "X-Api-Key". Browsers cannot set headers on a
// WebSocket, so the test page offers the key as a subprotocol instead:
// `new WebSocket(url, ['agent-service', 'x-api-key.' + key])`.

export const AGENT_SUBPROTOCOL = 'agent-service';
const KEY_SUBPROTOCOL_PREFIX = 'x-api-key.';

export function presentedApiKey(request: IncomingMessage): string | undefined {
  const header = request.headers['x-api-key'];
  const fromHeader = Array.isArray(header) ? header[0] : header;
  if (fromHeader) return fromHeader.trim();
  const protocols = request.headers['sec-websocket-protocol']?.split(',').map((p) => p.trim()) ?? [];
  const offered = protocols.find((p) => p.startsWith(KEY_SUBPROTOCOL_PREFIX));
  return offered ? offered.slice(KEY_SUBPROTOCOL_PREFIX.length) : undefined;
}

/** Never echo the key subprotocol back; pick the neutral one the page also offers. */
export function chooseSubprotocol(offered: Set<string>): string | false {
  return offered.has(AGENT_SUBPROTOCOL) ? AGENT_SUBPROTOCOL : false;
}

/** Compares SHA-256 digests in constant time, so a key cannot be guessed byte by byte. */
export class ApiKeyVerifier {
  readonly #entries: { entry: ApiKeyEntry; digest: Buffer }[];

  constructor(entries: readonly ApiKeyEntry[]) {
    this.#entries = entries.map((entry) => ({ entry, digest: Buffer.from(entry.sha256, 'hex') }));
  }

  get size(): number {
    return this.#entries.length;
  }

  verify(key: string | undefined): ApiKeyEntry | undefined {
    if (!key) return undefined;
    const digest = Buffer.from(hashApiKey(key), 'hex');
    let match: ApiKeyEntry | undefined;
    // No early exit: every entry is compared, whatever matches.
    for (const candidate of this.#entries) {
      if (timingSafeEqual(candidate.digest, digest)) match ??= candidate.entry;
    }
    return match;
  }
}

/** §1.3: at most N open connections per key. */
export class ConnectionsPerKey {
  readonly #open = new Map<string, number>();
  constructor(readonly limit: number) {}

  tryAcquire(keyHash: string): boolean {
    const open = this.#open.get(keyHash) ?? 0;
    if (open >= this.limit) return false;
    this.#open.set(keyHash, open + 1);
    return true;
  }

  release(keyHash: string): void {
    const open = (this.#open.get(keyHash) ?? 0) - 1;
    if (open > 0) this.#open.set(keyHash, open);
    else this.#open.delete(keyHash);
  }
}

/**
 * The protocol says call-backs are unused for now, so a plugin gets them only
 * after declaring it answers them: `?ide_callbacks=1` on the URL (what a browser
 * can do) or the header `X-Agent-Capabilities: ide_callbacks`.
 */
export function wantsIdeCallbacks(request: IncomingMessage): boolean {
  const query = new URL(request.url ?? '/', 'http://agent.invalid').searchParams.get('ide_callbacks');
  if (query === '1' || query === 'true') return true;
  const header = request.headers['x-agent-capabilities'];
  const declared = (Array.isArray(header) ? header.join(',') : (header ?? '')).split(',');
  return declared.some((capability) => capability.trim().toLowerCase() === 'ide_callbacks');
}
