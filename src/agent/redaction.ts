/**
 * Secret scrubbing for anything the agent persists (§6.4: API keys,
 * Authorization headers and secret settings never enter a trace). Three
 * layers: registered secret values (the keys the vault holds), well-known key
 * shapes, and fields whose name says they hold a secret.
 */

export const REDACTED = '[REDACTED]';

/** Shorter values would redact ordinary words; vault secrets are far longer. */
const MIN_SECRET_LENGTH = 6;

const PATTERNS: ReadonlyArray<[RegExp, string]> = [
  // Authorization: Bearer …, Basic …; also bare "Bearer <token>" in text.
  [/\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]{8,}/gi, `$1 ${REDACTED}`],
  // header-like or assignment-like "api_key: value", "Authorization=value", "x-api-key: value".
  [
    /\b(authorization|proxy-authorization|x-api-key|api[-_]?key|access[-_]?token|client[-_]?secret|password)(["']?\s*[:=]\s*["']?)(?!\[REDACTED\])[^\s"',;&]+/gi,
    `$1$2${REDACTED}`,
  ],
  // Provider key shapes: OpenAI/DeepSeek/Anthropic sk-…, GitHub, Google, AWS, Slack, JWTs.
  [/\bsk-[A-Za-z0-9_-]{16,}/g, REDACTED],
  [/\bgh[pousr]_[A-Za-z0-9]{20,}/g, REDACTED],
  [/\bAIza[0-9A-Za-z_-]{30,}/g, REDACTED],
  [/\bAKIA[0-9A-Z]{16}\b/g, REDACTED],
  [/\bxox[abprs]-[A-Za-z0-9-]{10,}/g, REDACTED],
  [/\beyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g, REDACTED],
];

const SENSITIVE_KEYS = new Set([
  'authorization',
  'proxyauthorization',
  'cookie',
  'setcookie',
  'xapikey',
  'apikey',
  'secret',
  'secretkey',
  'clientsecret',
  'password',
  'passwd',
  'accesstoken',
  'refreshtoken',
  'idtoken',
  'sessiontoken',
  'token',
  'bearer',
  'privatekey',
  'credential',
  'credentials',
]);

/** `api_key`, `X-API-Key`, `fallbackApiKey`: the name alone marks a secret. Not `input_tokens`. */
export function isSensitiveKey(key: string): boolean {
  const normalized = key.toLowerCase().replace(/[-_\s]/g, '');
  if (SENSITIVE_KEYS.has(normalized)) return true;
  return ['apikey', 'secret', 'password', 'accesstoken', 'refreshtoken', 'privatekey'].some((suffix) =>
    normalized.endsWith(suffix),
  );
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

export class SecretRedactor {
  #secrets: string[] = [];
  #matcher: RegExp | undefined;

  constructor(secrets: Iterable<string> = []) {
    this.register(...secrets);
  }

  /** Values to scrub wherever they appear (decrypted API keys, plugin secrets). */
  register(...secrets: string[]): void {
    const added = secrets
      .map((secret) => secret.trim())
      .filter((secret) => secret.length >= MIN_SECRET_LENGTH);
    if (added.length === 0) return;
    // Longest first, so a secret that contains another is replaced whole.
    this.#secrets = [...new Set([...this.#secrets, ...added])].sort((a, b) => b.length - a.length);
    this.#matcher = new RegExp(this.#secrets.map(escapeRegExp).join('|'), 'g');
  }

  redactText(text: string): string {
    let result = this.#matcher ? text.replace(this.#matcher, REDACTED) : text;
    for (const [pattern, replacement] of PATTERNS) result = result.replace(pattern, replacement);
    return result;
  }

  /** A deep copy with secrets replaced; plain data only (what JSON can hold). */
  redact<T>(value: T): T {
    return this.#walk(value, new WeakSet()) as T;
  }

  #walk(value: unknown, seen: WeakSet<object>): unknown {
    if (typeof value === 'string') return this.redactText(value);
    if (typeof value !== 'object' || value === null) return value;
    if (seen.has(value)) return '[Circular]';
    seen.add(value);
    if (Array.isArray(value)) return value.map((item) => this.#walk(item, seen));
    const copy: Record<string, unknown> = {};
    for (const [key, inner] of Object.entries(value)) {
      // Strings and nested header maps are secrets; a flag such as `has_secret: true` is not.
      const secretField =
        isSensitiveKey(key) &&
        (typeof inner === 'string' ? inner !== '' : typeof inner === 'object' && inner !== null);
      copy[key] = secretField ? REDACTED : this.#walk(inner, seen);
    }
    return copy;
  }
}
