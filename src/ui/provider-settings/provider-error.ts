import type { MessageKey } from '../i18n';

/** Codes that mean "the request did not get an answer from the provider's address". */
const UNREACHABLE = new Set(['PROVIDER_UNAVAILABLE', 'PROVIDER_TIMEOUT']);

export function isUnreachable(code: string): boolean {
  return UNREACHABLE.has(code);
}

/** Codes the provider's settings can fix, so the error says how and links there. */
export function hasProviderHelp(code: string): boolean {
  return isUnreachable(code) || code === 'PROVIDER_AUTH_FAILED';
}

export interface ProviderErrorHelp {
  /** The address that failed. */
  url: string;
  /** What to say first: the address could not be reached, or it answered with a server error. */
  headline: MessageKey;
  /** The likely causes, most likely first. */
  causes: MessageKey[];
}

/**
 * What to tell a person whose provider did not answer: the URL that failed and what usually
 * causes that. A browser app cannot tell a server that is down from a CORS refusal (both are
 * a failed fetch), so every likely cause is named. A server that answered 5xx or "overloaded"
 * (`metonaCode` model_overloaded) was reached: the checklist for an unreachable address would
 * send its user hunting for a CORS problem that is not there. A refused key names the
 * address that refused it and what to check. Null for other errors, or when
 * the provider (and so its URL) is not known.
 */
export function providerErrorHelp(
  code: string,
  baseUrl: string | null,
  metonaCode?: string,
): ProviderErrorHelp | null {
  if (!hasProviderHelp(code) || !baseUrl) return null;
  // A refused key is fixed in the provider's settings and nowhere else: Retry alone cannot help.
  if (code === 'PROVIDER_AUTH_FAILED') {
    return {
      url: baseUrl,
      headline: 'providers.keyRefused',
      causes: ['providers.cause.keyWrong', 'providers.cause.keyOther'],
    };
  }
  if (metonaCode === 'model_overloaded') {
    return {
      url: baseUrl,
      headline: 'providers.serverError',
      causes: ['providers.cause.overloaded', 'providers.cause.otherModel'],
    };
  }
  const causes: MessageKey[] = ['providers.cause.down', 'providers.cause.cors', 'providers.cause.url'];
  // A page served over https may not call an http address (mixed content): say so first.
  if (isMixedContent(baseUrl)) causes.unshift('providers.cause.mixed');
  return { url: baseUrl, headline: 'providers.unreachable', causes };
}

function isMixedContent(baseUrl: string): boolean {
  if (typeof location === 'undefined' || location.protocol !== 'https:') return false;
  try {
    const url = new URL(baseUrl);
    return url.protocol === 'http:' && url.hostname !== 'localhost' && url.hostname !== '127.0.0.1';
  } catch {
    return false;
  }
}
