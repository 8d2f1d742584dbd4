import { AppError, isAbortError, type ErrorCode } from '../../contracts';
import { MetonaErrorCode, MetonaProviderError, isMetonaError, type MetonaError } from '../../ir';
import { isLoopbackUrl } from '../../core/loopback-url';

/**
 * Provider failures to `MetonaError`: HTTP status, the provider's error body,
 * `Retry-After`, network failures and aborts. Provider folders add their own
 * body shapes through `ProviderErrorDetails`; the rules here are shared.
 */

/** What a provider folder could read out of an error body. */
export interface ProviderErrorDetails {
  message?: string;
  /** The provider's own code or type (`insufficient_quota`, `overloaded_error`). */
  providerCode?: string;
}

const MAX_MESSAGE_LENGTH = 500;

/** Provider messages reach the user; keep them short and single-line. */
const KEY_REDACTED = '[redacted key]';

/**
 * Providers echo credentials in error text (OpenAI's 401 shows the key's
 * first and last characters around asterisks). Anything key-shaped goes
 * before the message is stored or shown; a vault value would not match a
 * masked fragment, so this works on shapes alone.
 */
const KEY_SHAPES: ReadonlyArray<[RegExp, string]> = [
  [/\b(Bearer|Basic)\s+\S+/gi, `$1 ${KEY_REDACTED}`],
  // "Incorrect API key provided: sk-pro****wxyz", "invalid x-api-key: …"
  [
    /\b((?:api[-_ ]?key|x-api-key|token|secret)(?: provided)?\s*[:=]\s*)["']?[^\s"',.;]+/gi,
    `$1${KEY_REDACTED}`,
  ],
  [/\b(?:sk|pk|rk|ak)-[A-Za-z0-9_*.-]{3,}/g, KEY_REDACTED],
  // A masked token: characters around a run of asterisks or bullets.
  [/[A-Za-z0-9_-]*[*•]{3,}[A-Za-z0-9_-]*/g, KEY_REDACTED],
  [/\b(?:gh[pousr]_|xox[abprs]-|AIza|AKIA)[A-Za-z0-9_-]{8,}/g, KEY_REDACTED],
  // Long opaque tokens (hex, base64url): keys, not words.
  [/\b[A-Za-z0-9_-]{32,}\b/g, KEY_REDACTED],
];

export function scrubKeyShapes(text: string): string {
  return KEY_SHAPES.reduce((result, [pattern, replacement]) => result.replace(pattern, replacement), text);
}

export function tidy(message: string): string {
  const oneLine = scrubKeyShapes(message.replace(/\s+/g, ' ').trim());
  return oneLine.length > MAX_MESSAGE_LENGTH ? `${oneLine.slice(0, MAX_MESSAGE_LENGTH)}…` : oneLine;
}

const CONTEXT_LENGTH_PATTERN =
  /context[ _-]?length|context window|maximum context|prompt is too long|too many tokens|reduce the length|input is too long|exceeds? the (?:model'?s? )?(?:maximum|max|context)/i;

export function isContextLengthMessage(message: string | undefined): boolean {
  return message !== undefined && CONTEXT_LENGTH_PATTERN.test(message);
}

/**
 * `Retry-After` as milliseconds: delta-seconds (fractions tolerated) or an
 * HTTP-date. Past dates give 0; garbage gives undefined.
 */
export function parseRetryAfter(
  value: string | null | undefined,
  now: number = Date.now(),
): number | undefined {
  if (value == null) return undefined;
  const trimmed = value.trim();
  if (trimmed === '') return undefined;
  if (/^\d+(?:\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000);
  const date = Date.parse(trimmed);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now);
}

/** `retry-after-ms` (OpenAI, Azure) wins over `retry-after` because it is more precise. */
export function retryAfterFromHeaders(headers: Headers, now: number = Date.now()): number | undefined {
  const milliseconds = headers.get('retry-after-ms');
  if (milliseconds !== null && /^\d+(?:\.\d+)?$/.test(milliseconds.trim())) {
    return Math.round(Number(milliseconds.trim()));
  }
  return parseRetryAfter(headers.get('retry-after'), now);
}

/** Provider codes/types that mean the same thing everywhere (OpenAI, Anthropic, DeepSeek, vLLM). */
function codeFromProviderCode(providerCode: string | undefined): MetonaErrorCode | undefined {
  switch (providerCode) {
    case 'insufficient_quota':
    case 'billing_hard_limit_reached':
    case 'insufficient_balance':
      return MetonaErrorCode.QUOTA_EXCEEDED;
    case 'rate_limit_error':
    case 'rate_limit_exceeded':
      return MetonaErrorCode.RATE_LIMITED;
    case 'overloaded_error':
    case 'api_error':
    case 'server_error':
      return MetonaErrorCode.MODEL_OVERLOADED;
    case 'authentication_error':
    case 'permission_error':
    case 'invalid_api_key':
      return MetonaErrorCode.AUTH_INVALID;
    case 'not_found_error':
    case 'model_not_found':
      return MetonaErrorCode.MODEL_NOT_FOUND;
    case 'context_length_exceeded':
    case 'request_too_large':
      return MetonaErrorCode.CONTEXT_LENGTH_EXCEEDED;
    default:
      return undefined;
  }
}

function codeFromStatus(status: number, details: ProviderErrorDetails): MetonaErrorCode {
  if (isContextLengthMessage(details.message)) return MetonaErrorCode.CONTEXT_LENGTH_EXCEEDED;
  const fromProvider = codeFromProviderCode(details.providerCode);
  // A provider code refines the status (429 + insufficient_quota is a quota, not a rate limit).
  if (fromProvider !== undefined) return fromProvider;
  if (status === 401 || status === 403) {
    return /expired/i.test(details.message ?? '')
      ? MetonaErrorCode.AUTH_EXPIRED
      : MetonaErrorCode.AUTH_INVALID;
  }
  if (status === 402) return MetonaErrorCode.QUOTA_EXCEEDED;
  if (status === 404) return MetonaErrorCode.MODEL_NOT_FOUND;
  if (status === 408) return MetonaErrorCode.NETWORK_TIMEOUT;
  if (status === 413) return MetonaErrorCode.CONTEXT_LENGTH_EXCEEDED;
  if (status === 429) return MetonaErrorCode.RATE_LIMITED;
  if (status >= 500) return MetonaErrorCode.MODEL_OVERLOADED; // 500–504, Anthropic's 529
  return MetonaErrorCode.UNKNOWN; // 400/422 and the rest: the provider refused this request
}

const RETRYABLE_CODES = new Set<MetonaErrorCode>([
  MetonaErrorCode.NETWORK_TIMEOUT,
  MetonaErrorCode.NETWORK_ERROR,
  MetonaErrorCode.RATE_LIMITED,
  MetonaErrorCode.MODEL_OVERLOADED,
]);

export function isRetryableCode(code: MetonaErrorCode): boolean {
  return RETRYABLE_CODES.has(code);
}

const DEFAULT_MESSAGES: Partial<Record<MetonaErrorCode, string>> = {
  auth_invalid: 'The provider rejected the API key.',
  auth_expired: 'The API key has expired.',
  quota_exceeded: 'The provider account has no quota or balance left.',
  rate_limited: 'The provider is rate limiting requests.',
  model_overloaded: 'The provider is unavailable or overloaded.',
  model_not_found: 'The model was not found at this provider.',
  context_length_exceeded: 'The conversation is longer than the model context window.',
  network_timeout: 'The provider did not answer in time.',
};

export interface HttpErrorInput {
  status: number;
  headers: Headers;
  details: ProviderErrorDetails;
  provider: string;
  now?: number;
}

/** A non-2xx response to `MetonaError`. */
export function mapHttpError({ status, headers, details, provider, now }: HttpErrorInput): MetonaError {
  const code = codeFromStatus(status, details);
  const retryAfterMs = retryAfterFromHeaders(headers, now);
  const message = details.message
    ? tidy(details.message)
    : (DEFAULT_MESSAGES[code] ?? `The provider answered HTTP ${status}.`);
  return {
    code,
    message,
    provider,
    providerCode: details.providerCode ?? String(status),
    retryable: isRetryableCode(code),
    ...(retryAfterMs !== undefined && { retryAfterMs }),
  };
}

/** An error reported inside a 200 stream (Anthropic `error` event, OpenAI `{"error":…}` chunk). */
export function mapStreamError(details: ProviderErrorDetails, provider: string): MetonaError {
  const code = isContextLengthMessage(details.message)
    ? MetonaErrorCode.CONTEXT_LENGTH_EXCEEDED
    : (codeFromProviderCode(details.providerCode) ?? MetonaErrorCode.UNKNOWN);
  return {
    code,
    message: details.message
      ? tidy(details.message)
      : (DEFAULT_MESSAGES[code] ?? 'The provider reported an error.'),
    provider,
    ...(details.providerCode !== undefined && { providerCode: details.providerCode }),
    retryable: isRetryableCode(code),
  };
}

/**
 * Reads the common error body shapes: `{error:{message,type,code}}` (OpenAI,
 * DeepSeek), `{type:"error",error:{type,message}}` (Anthropic), `{error:"…"}`
 * (Ollama), `{message}`; anything else yields no details, never the raw body.
 */
export function readErrorBody(text: string): ProviderErrorDetails {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return {};
  }
  if (typeof body !== 'object' || body === null) return {};
  const record = body as Record<string, unknown>;
  const inner = record.error;
  if (typeof inner === 'string') return { message: inner };
  const source = typeof inner === 'object' && inner !== null ? (inner as Record<string, unknown>) : record;
  const message = typeof source.message === 'string' ? source.message : undefined;
  const rawCode = source.code ?? source.type;
  const providerCode =
    typeof rawCode === 'string' || typeof rawCode === 'number' ? String(rawCode) : undefined;
  return {
    ...(message !== undefined && { message }),
    ...(providerCode !== undefined && providerCode !== 'error' && { providerCode }),
  };
}

export function userAbortedError(provider: string): MetonaError {
  return {
    code: MetonaErrorCode.USER_ABORTED,
    message: 'The request was cancelled.',
    provider,
    retryable: false,
  };
}

export function timeoutError(provider: string): MetonaError {
  return {
    code: MetonaErrorCode.NETWORK_TIMEOUT,
    message: 'The provider did not answer in time.',
    provider,
    retryable: true,
  };
}

/** `MetonaError.providerCode` of a request that failed because the device has no network. */
export const DEVICE_OFFLINE = 'device_offline';

/**
 * The start of the message of a request that failed while the device was offline. The UI
 * reads it (it cannot import this folder) to say "you're offline" instead of blaming the
 * server, CORS or the URL; keep it in step with `OFFLINE_FAILURE_PREFIX` in src/ui/error-message.ts.
 */
export const DEVICE_OFFLINE_MESSAGE = 'The device is offline';

/**
 * The browser's own view, in a window or a worker. Only `false` counts: `true` merely means
 * some network exists, and hosts without `navigator.onLine` (Node) are not offline.
 */
export function deviceOffline(): boolean {
  return typeof navigator !== 'undefined' && navigator.onLine === false;
}

/**
 * A request that did not reach its address. While the device is offline that is the reason,
 * whatever else the failure says, so the message says so; the code stays `network_error`
 * (the contract's PROVIDER_UNAVAILABLE). A local server is still tried offline and gets this
 * message only when it, too, fails.
 */
export function networkError(
  provider: string,
  cause?: unknown,
  offline: boolean = deviceOffline(),
): MetonaError {
  if (offline) {
    return {
      code: MetonaErrorCode.NETWORK_ERROR,
      message: `${DEVICE_OFFLINE_MESSAGE}: the provider could not be reached.`,
      provider,
      providerCode: DEVICE_OFFLINE,
      retryable: true,
    };
  }
  const detail = cause instanceof Error && cause.message ? `: ${tidy(cause.message)}` : '';
  return {
    code: MetonaErrorCode.NETWORK_ERROR,
    message: `Could not reach the provider${detail}.`,
    provider,
    retryable: true,
  };
}

/** A stream that stopped before the provider's end marker. */
export function streamInterruptedError(provider: string, cause?: unknown): MetonaError {
  const detail = cause instanceof Error && cause.message ? ` (${tidy(cause.message)})` : '';
  return {
    code: MetonaErrorCode.NETWORK_ERROR,
    message: `The response stream ended before the provider finished${detail}.`,
    provider,
    providerCode: 'stream_interrupted',
    retryable: true,
  };
}

export function invalidResponseError(provider: string, message: string): MetonaError {
  return { code: MetonaErrorCode.INVALID_RESPONSE, message: tidy(message), provider, retryable: false };
}

/** `MetonaError.providerCode` of a request this provider cannot carry out as asked. */
export const CAPABILITY_MISMATCH = 'capability_mismatch';

/**
 * The adapter refuses before sending: the request asks for something its
 * provider cannot do (a response format it has no form for). The IR's code
 * list has no such code, so it goes as `model_not_found` ("not available
 * here"), as web-llm's device refusals do; `providerCode` makes it the
 * contract's MODEL_CAPABILITY_MISMATCH.
 */
export function capabilityMismatchError(provider: string, message: string): MetonaError {
  return {
    code: MetonaErrorCode.MODEL_NOT_FOUND,
    message: tidy(message),
    provider,
    providerCode: CAPABILITY_MISMATCH,
    retryable: false,
  };
}

export interface AbortContext {
  /** The caller's signal: its abort is the user's. */
  signal?: AbortSignal;
  /** The request's own deadline (`constraints.timeoutMs`). */
  timeoutSignal?: AbortSignal;
  /** Where the request went: one to this machine (a local Ollama) never failed for being offline. */
  url?: string;
}

/** Anything thrown during a call to `MetonaError`, telling a user's abort from a deadline. */
export function toMetonaError(error: unknown, provider: string, context: AbortContext = {}): MetonaError {
  if (context.signal?.aborted) return userAbortedError(provider);
  if (context.timeoutSignal?.aborted) return timeoutError(provider);
  if (error instanceof MetonaProviderError) return error.toJSON();
  if (isMetonaError(error)) return error;
  if (isAbortError(error)) return userAbortedError(provider);
  if (error instanceof Error && error.name === 'TimeoutError') return timeoutError(provider);
  // fetch rejects with TypeError for DNS, refused connections, CORS and resets.
  if (error instanceof TypeError)
    return networkError(provider, error, deviceOffline() && !isLoopbackUrl(context.url));
  return {
    code: MetonaErrorCode.UNKNOWN,
    message: error instanceof Error ? tidy(error.message) : 'Unknown provider failure.',
    provider,
    retryable: false,
  };
}

export interface ContractCodeContext {
  /**
   * The failure came after the response had started streaming. A network
   * failure then is a broken stream (PROVIDER_STREAM_INTERRUPTED), not an
   * unreachable provider.
   */
  midStream?: boolean;
  /** The error's `providerCode`: a refused capability reads as MODEL_CAPABILITY_MISMATCH. */
  providerCode?: string;
}

/** `MetonaErrorCode` to the contract's §8.4 code a user sees. */
export function toContractErrorCode(code: MetonaErrorCode, context: ContractCodeContext = {}): ErrorCode {
  if (context.providerCode === CAPABILITY_MISMATCH) return 'MODEL_CAPABILITY_MISMATCH';
  switch (code) {
    case 'network_timeout':
    case 'timeout':
      return 'PROVIDER_TIMEOUT';
    case 'network_error':
      return context.midStream ? 'PROVIDER_STREAM_INTERRUPTED' : 'PROVIDER_UNAVAILABLE';
    case 'auth_invalid':
    case 'auth_expired':
      return 'PROVIDER_AUTH_FAILED';
    case 'rate_limited':
    case 'quota_exceeded':
      return 'PROVIDER_RATE_LIMITED';
    case 'model_overloaded':
      return 'PROVIDER_UNAVAILABLE';
    case 'model_not_found':
      return 'MODEL_NOT_FOUND';
    case 'context_length_exceeded':
    case 'output_length_exceeded':
      return 'MODEL_CONTEXT_LENGTH_EXCEEDED';
    case 'content_filtered':
      return 'PROVIDER_CONTENT_FILTERED';
    case 'parse_error':
    case 'invalid_response':
    case 'unknown':
      return 'PROVIDER_PROTOCOL_ERROR';
    case 'user_aborted':
      return 'JOB_CANCELLED';
    case 'max_iterations':
      return 'JOB_FAILED';
    default: {
      const unhandled: never = code;
      return unhandled;
    }
  }
}

/** `MetonaError.providerCode` of a stream broken mid-way; see `streamInterruptedError`. */
export const STREAM_INTERRUPTED = 'stream_interrupted';

/** A provider failure as the project's error class, with only safe details. */
export function toAppError(error: MetonaError, context: ContractCodeContext = {}): AppError {
  const midStream = context.midStream ?? error.providerCode === STREAM_INTERRUPTED;
  const code = toContractErrorCode(error.code, { midStream, providerCode: error.providerCode });
  return new AppError(code, error.message, {
    metona_code: error.code,
    retryable: error.retryable,
    ...(error.provider !== undefined && { provider: error.provider }),
    ...(error.retryAfterMs !== undefined && { retry_after_ms: error.retryAfterMs }),
  });
}
