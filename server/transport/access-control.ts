import { timingSafeEqual } from 'node:crypto';
import { isIP } from 'node:net';
import { hashApiKey } from '../config';
import { unmapped } from './trusted-proxies';

// Who may open a socket or read /metrics, decided before any key is checked.
// Pure functions and one small counter, so the rules are tested without sockets.

const LOOPBACK_NAMES = new Set(['localhost', '127.0.0.1', '::1', '[::1]']);

function hostnameOf(host: string): string {
  if (host.startsWith('[')) return host.slice(0, host.indexOf(']') + 1).toLowerCase();
  return (host.split(':')[0] ?? '').toLowerCase();
}

function normalizeOrigin(origin: string): string {
  return origin.trim().replace(/\/+$/, '').toLowerCase();
}

export interface OriginPolicy {
  /** Extra origins allowed ("*" allows all). */
  allowed: readonly string[];
  tls: boolean;
  /** The configured listen host: a name the team reaches the page by. */
  serverHost: string;
}

/**
 * Browsers send `Origin`; IDE plugins (Node, Java…) usually do not, and are not
 * what the check is about. The test page's own origin passes without
 * configuration, but only when the Host it was loaded from is an IP address,
 * localhost or the configured host: a page on an attacker's domain that
 * resolves to this server (DNS rebinding) has a matching Host too.
 */
export function originAllowed(
  origin: string | undefined,
  host: string | undefined,
  policy: OriginPolicy,
): boolean {
  if (origin === undefined) return true;
  const wanted = normalizeOrigin(origin);
  if (policy.allowed.some((entry) => entry.trim() === '*' || normalizeOrigin(entry) === wanted)) return true;
  if (!host) return false;
  if (wanted !== `${policy.tls ? 'https' : 'http'}://${host.toLowerCase()}`) return false;
  const name = hostnameOf(host);
  const bare = name.replace(/^\[|\]$/g, '');
  return LOOPBACK_NAMES.has(name) || isIP(bare) !== 0 || name === policy.serverHost.toLowerCase();
}

export function isLoopbackAddress(address: string | undefined): boolean {
  if (!address) return false;
  const bare = unmapped(address);
  return bare === '::1' || (isIP(bare) === 4 && bare.startsWith('127.'));
}

/** The key from `Authorization: Bearer <key>`, compared by SHA-256 in constant time. */
export function bearerKeyMatches(authorization: string | undefined, sha256: string | undefined): boolean {
  if (!sha256 || !authorization?.startsWith('Bearer ')) return false;
  const presented = Buffer.from(hashApiKey(authorization.slice('Bearer '.length).trim()), 'hex');
  return timingSafeEqual(presented, Buffer.from(sha256, 'hex'));
}

/**
 * Failed key attempts per remote address in fixed windows: past the limit the
 * address is refused before its key is even looked at, until the window ends.
 */
export class AuthThrottle {
  readonly #failures = new Map<string, { count: number; since: number }>();
  readonly #maxFailures: number;
  readonly #windowMs: number;
  readonly #now: () => number;
  /** Bounds memory against a spread of addresses; expired windows go first. */
  static readonly MAX_TRACKED = 10_000;

  constructor(options: { maxFailures: number; windowMs: number; now?: () => number }) {
    this.#maxFailures = options.maxFailures;
    this.#windowMs = options.windowMs;
    this.#now = options.now ?? Date.now;
  }

  #current(address: string) {
    const entry = this.#failures.get(address);
    if (entry && this.#now() - entry.since >= this.#windowMs) {
      this.#failures.delete(address);
      return undefined;
    }
    return entry;
  }

  blocked(address: string): boolean {
    return this.retryAfterMs(address) > 0;
  }

  /** How long the address stays blocked (0: not blocked), for the 429's Retry-After. */
  retryAfterMs(address: string): number {
    const entry = this.#current(address);
    if (!entry || entry.count < this.#maxFailures) return 0;
    return Math.max(1, entry.since + this.#windowMs - this.#now());
  }

  recordFailure(address: string): void {
    const entry = this.#current(address);
    if (entry) {
      entry.count++;
      return;
    }
    if (this.#failures.size >= AuthThrottle.MAX_TRACKED) this.#prune();
    this.#failures.set(address, { count: 1, since: this.#now() });
  }

  #prune(): void {
    for (const address of [...this.#failures.keys()]) this.#current(address);
    // Still full: the oldest entries give way (Map keeps insertion order).
    for (const address of this.#failures.keys()) {
      if (this.#failures.size < AuthThrottle.MAX_TRACKED) break;
      this.#failures.delete(address);
    }
  }
}
