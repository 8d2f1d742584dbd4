/**
 * Where transformers.js finds models and the ONNX runtime: every model the app
 * runs through it (embeddings, the reranker, Whisper, speaker labels) is
 * pointed at its files here.
 */
export interface TransformersSource {
  /** Look under `local_model_path` first (a URL path in the browser, a folder in Node). Default: the library's. */
  allow_local_models?: boolean;
  local_model_path?: string;
  /** Download what is not local. False: offline-only, missing files fail fast. Default: the library's (true). */
  allow_remote_models?: boolean;
  /** Base URL of the model host, e.g. `https://models.example.org/`. */
  remote_host?: string;
  /** Appended to `remote_host`: `{model}` and `{revision}` are filled in. */
  remote_path_template?: string;
  /**
   * Where the ONNX Runtime WASM files are served: a URL prefix, or the `.wasm`
   * file's URL (and the glue code's). Unset, transformers.js fetches them from a CDN.
   */
  wasm_paths?: string | { wasm: string; mjs?: string };
  /** Keep downloaded files (browser Cache Storage, or the file cache in Node). */
  use_cache?: boolean;
  /** Node only: the folder of the file cache. */
  cache_dir?: string;
}

/** The fields of transformers.js' global `env` that a source sets (typed structurally, so tests can hand in a double). */
export interface TransformersEnvLike {
  allowLocalModels: boolean;
  localModelPath: string;
  allowRemoteModels: boolean;
  remoteHost: string;
  remotePathTemplate?: string;
  useBrowserCache: boolean;
  useFSCache?: boolean;
  cacheDir: string | null;
  backends: { onnx: { wasm?: { wasmPaths?: unknown } } };
  /** Every file request goes through it (a cache hit does not). */
  fetch?: (input: string | URL, init?: unknown) => Promise<unknown>;
}

type EnvironmentDefaults = Omit<TransformersEnvLike, 'backends'> & { wasmPaths: unknown };
const environmentDefaults = new WeakMap<object, EnvironmentDefaults>();

/**
 * Applies a source to transformers.js' global `env`. Every field is set each
 * time, to the source's value or the library's own default, so one load's
 * settings never leak into the next.
 */
export function configureEnvironment(env: TransformersEnvLike, source: TransformersSource): void {
  const onnxWasm = env.backends.onnx.wasm;
  let defaults = environmentDefaults.get(env);
  if (!defaults) {
    defaults = {
      allowLocalModels: env.allowLocalModels,
      localModelPath: env.localModelPath,
      allowRemoteModels: env.allowRemoteModels,
      remoteHost: env.remoteHost,
      remotePathTemplate: env.remotePathTemplate,
      wasmPaths: onnxWasm?.wasmPaths,
      useBrowserCache: env.useBrowserCache,
      useFSCache: env.useFSCache,
      cacheDir: env.cacheDir,
    };
    environmentDefaults.set(env, defaults);
  }
  env.allowLocalModels = source.allow_local_models ?? defaults.allowLocalModels;
  env.localModelPath = source.local_model_path ?? defaults.localModelPath;
  env.allowRemoteModels = source.allow_remote_models ?? defaults.allowRemoteModels;
  env.remoteHost = source.remote_host ?? defaults.remoteHost;
  env.remotePathTemplate = source.remote_path_template ?? defaults.remotePathTemplate;
  if (onnxWasm) onnxWasm.wasmPaths = source.wasm_paths ?? defaults.wasmPaths;
  // Only a cache this runtime has may be on: Cache Storage in browsers, files in Node.
  env.useBrowserCache =
    source.use_cache === undefined ? defaults.useBrowserCache : source.use_cache && defaults.useBrowserCache;
  env.useFSCache =
    source.use_cache === undefined ? defaults.useFSCache : source.use_cache && defaults.useFSCache === true;
  env.cacheDir = source.cache_dir ?? defaults.cacheDir;
}
