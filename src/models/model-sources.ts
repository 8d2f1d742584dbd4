/**
 * Where local models are downloaded from. web-llm's catalog points at Hugging
 * Face (weights) and GitHub (compiled model libraries); users who cannot reach
 * them (mainland China, an offline LAN) set mirrors with the same layout, e.g.
 * `https://hf-mirror.com/` or a folder on their own server.
 */
export interface ModelSources {
  /** Replaces `https://huggingface.co/` in model URLs; null: the original host. */
  modelHost: string | null;
  /** Replaces `https://raw.githubusercontent.com/` in model library URLs; null: the original host. */
  libHost: string | null;
}

export const DEFAULT_MODEL_SOURCES: ModelSources = { modelHost: null, libHost: null };

const MODEL_ORIGIN = 'https://huggingface.co/';
const LIB_ORIGIN = 'https://raw.githubusercontent.com/';

/** An http(s) URL with a trailing slash, or undefined when the text is not one. */
export function normalizeHost(text: string): string | undefined {
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    return undefined;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return undefined;
  if (url.search || url.hash) return undefined;
  return url.href.endsWith('/') ? url.href : `${url.href}/`;
}

function rehost(url: string, origin: string, host: string | null): string {
  return host && url.startsWith(origin) ? host + url.slice(origin.length) : url;
}

/** A catalog model's download URLs under these sources. */
export function modelUrls(
  entry: { sourceUrl: string; modelLib: string },
  sources: ModelSources,
): { model: string; modelLib: string } {
  return {
    model: rehost(entry.sourceUrl, MODEL_ORIGIN, sources.modelHost),
    modelLib: rehost(entry.modelLib, LIB_ORIGIN, sources.libHost),
  };
}
