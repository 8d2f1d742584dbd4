/**
 * Which model files transformers.js fetched, as opposed to read from its cache.
 * Its progress events are the same for both (a cache hit also reports
 * `download` and byte progress), so a user offline read "Downloading the model"
 * while nothing was downloaded. A fetch goes through `env.fetch`; a cache hit
 * does not, so a file with no successful fetch was read on this device.
 */

export interface FetchingEnv {
  fetch?: (input: string | URL, init?: unknown) => Promise<unknown>;
}

export interface FetchedFiles {
  /** Forget what was fetched before (call before a load). */
  reset(): void;
  /** Whether a successful fetch named `file` (a path in the model folder, such as `onnx/encoder_model.onnx`). */
  fetched(file: string): boolean;
}

const watched = new WeakMap<object, Set<string>>();

export function watchFetchedFiles(env: FetchingEnv): FetchedFiles {
  let paths = watched.get(env);
  if (!paths) {
    const record = new Set<string>();
    paths = record;
    watched.set(env, record);
    const original = env.fetch;
    if (original) {
      env.fetch = async (input, init) => {
        const response = await original(input, init);
        // A 404 from the local model folder is followed by the download; only a body counts.
        if ((response as { ok?: boolean } | null)?.ok === true) record.add(pathOf(input));
        return response;
      };
    }
  }
  const record = paths;
  return {
    reset: () => record.clear(),
    fetched: (file) => {
      const suffix = `/${file.replace(/^\/+/, '')}`;
      for (const path of record) if (path.endsWith(suffix)) return true;
      return false;
    },
  };
}

function pathOf(input: string | URL): string {
  const text = String(input);
  try {
    return decodeURIComponent(new URL(text, 'http://local/').pathname);
  } catch {
    return text.split(/[?#]/)[0] ?? text;
  }
}
