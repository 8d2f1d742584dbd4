/**
 * One model host for every download: in-browser chat models (WebLLM), embeddings and the
 * reranker (transformers.js), speech recognition and speaker labels (Whisper, diarization).
 * Each of those keeps its host in its own store with its own rules; this turns the one value
 * a person types into what each store accepts.
 */
export const DEFAULT_MODEL_HOST = 'https://huggingface.co/';

export interface ModelHostTargets {
  /** WebLLM weights; null is its default (the hub). */
  webllm: string | null;
  /** Embeddings and the reranker; null is their default (the hub). */
  embedding: string | null;
  /** Whisper and diarization: a URL or a path on this app; never null. */
  transcription: string;
}

export type ModelHostParse = { ok: true; targets: ModelHostTargets } | { ok: false };

function withSlash(value: string): string {
  return value.endsWith('/') ? value : `${value}/`;
}

/**
 * '' (or the hub itself) is the default everywhere. An http(s) URL goes to every store as is.
 * A path on this app (`/models/`) goes to transcription as a path and, as the same folder on
 * this origin, to the stores that take only URLs. Anything else (another scheme, credentials,
 * a query) is refused.
 */
export function parseModelHost(input: string, origin: string): ModelHostParse {
  const value = input.trim();
  if (value === '' || withSlash(value) === DEFAULT_MODEL_HOST)
    return { ok: true, targets: { webllm: null, embedding: null, transcription: DEFAULT_MODEL_HOST } };
  if (value.startsWith('/') && !value.startsWith('//')) {
    if (/[?#]/.test(value)) return { ok: false };
    const path = withSlash(value);
    const url = new URL(path, origin).href;
    return { ok: true, targets: { webllm: url, embedding: url, transcription: path } };
  }
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return { ok: false };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return { ok: false };
  if (url.username !== '' || url.password !== '' || url.search !== '' || url.hash !== '')
    return { ok: false };
  const href = withSlash(url.href);
  return { ok: true, targets: { webllm: href, embedding: href, transcription: href } };
}

/**
 * The one value to show for what the stores hold ('' is the default). They agree after any
 * save here; values saved before the stores were joined may differ, and then the first
 * non-default one shows (saving it brings the others in line). Transcription's value comes
 * first because it keeps a path a path.
 */
export function currentModelHost(stored: {
  webllm: string | null;
  embedding: string | null;
  transcription: string | null;
}): string {
  const candidates = [stored.transcription, stored.embedding, stored.webllm].map((value) =>
    value === null || withSlash(value.trim()) === DEFAULT_MODEL_HOST ? '' : value.trim(),
  );
  return candidates.find((value) => value !== '') ?? '';
}
