import { MetonaProviderError } from '../../ir';
import {
  mapHttpError,
  readErrorBody,
  toMetonaError,
  type AbortContext,
  type ProviderErrorDetails,
} from './errors';

export type FetchFunction = typeof globalThis.fetch;

export interface HttpContext {
  fetch: FetchFunction;
  provider: string;
  signal?: AbortSignal;
  /** Set by `withDeadline`; an abort from it is a timeout, not the user's. */
  timeoutSignal?: AbortSignal;
  /** Reads a provider-specific error body; the shared reader handles the common shapes. */
  readError?: (text: string) => ProviderErrorDetails;
  clock?: () => number;
}

/** The caller's signal combined with the request's deadline, when it has one. */
export function withDeadline(signal: AbortSignal | undefined, timeoutMs: number | undefined): AbortContext {
  if (timeoutMs === undefined) return signal ? { signal } : {};
  const timeoutSignal = AbortSignal.timeout(timeoutMs);
  return { ...(signal && { signal }), timeoutSignal };
}

function combinedSignal(context: AbortContext): AbortSignal | undefined {
  const signals = [context.signal, context.timeoutSignal].filter((s): s is AbortSignal => s !== undefined);
  if (signals.length <= 1) return signals[0];
  return AbortSignal.any(signals);
}

/**
 * One HTTP call through the injected fetch. Resolves with a 2xx response;
 * everything else (status, network, abort, deadline) rejects with a
 * `MetonaProviderError`.
 */
export async function request(
  url: string,
  init: { method: 'GET' | 'POST'; headers: Record<string, string>; body?: unknown },
  context: HttpContext,
): Promise<Response> {
  const abort: AbortContext = { signal: context.signal, timeoutSignal: context.timeoutSignal };
  let response: Response;
  try {
    response = await context.fetch(url, {
      method: init.method,
      headers: init.headers,
      ...(init.body !== undefined && { body: JSON.stringify(init.body) }),
      signal: combinedSignal(abort),
    });
  } catch (error) {
    throw new MetonaProviderError(toMetonaError(error, context.provider, { ...abort, url }), {
      cause: error,
    });
  }
  if (response.ok) return response;
  let text: string;
  try {
    text = await response.text();
  } catch (error) {
    throw new MetonaProviderError(toMetonaError(error, context.provider, abort), { cause: error });
  }
  const details = { ...readErrorBody(text), ...context.readError?.(text) };
  throw new MetonaProviderError(
    mapHttpError({
      status: response.status,
      headers: response.headers,
      details,
      provider: context.provider,
      now: context.clock?.(),
    }),
  );
}

export function requireBody(response: Response, provider: string): ReadableStream<Uint8Array> {
  if (response.body) return response.body;
  throw new MetonaProviderError({
    code: 'invalid_response',
    message: 'The provider answered without a body.',
    provider,
    retryable: false,
  });
}

/** Base URLs are typed by users: tolerate a trailing slash. */
export function joinUrl(baseUrl: string, path: string): string {
  return `${baseUrl.replace(/\/+$/, '')}/${path.replace(/^\/+/, '')}`;
}
