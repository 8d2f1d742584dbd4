/**
 * The ONNX Runtime Web files transformers.js loads (it picks the `asyncify`
 * build, which runs both the WASM and the WebGPU back ends). The build copies
 * them from node_modules/onnxruntime-web/dist into `ort/` (vite.config.ts), so
 * the runtime comes from the app's own origin, never from a CDN, and the
 * service worker caches them on first use (they are ~27 MB: not precached).
 */
export const ORT_WASM_DIRECTORY = 'ort';
export const ORT_WASM_FILES = {
  mjs: 'ort-wasm-simd-threaded.asyncify.mjs',
  wasm: 'ort-wasm-simd-threaded.asyncify.wasm',
} as const;

/** Absolute URLs of the served files, for `env.backends.onnx.wasm.wasmPaths`. */
export function servedOrtWasmPaths(base: string, origin: string): { mjs: string; wasm: string } {
  const folder = new URL(`${base.replace(/\/?$/, '/')}${ORT_WASM_DIRECTORY}/`, origin);
  return {
    mjs: new URL(ORT_WASM_FILES.mjs, folder).href,
    wasm: new URL(ORT_WASM_FILES.wasm, folder).href,
  };
}
