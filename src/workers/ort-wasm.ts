// The ONNX Runtime Web files transformers.js loads (it picks the `asyncify`
// build, which runs both the WASM and the WebGPU back ends), from the
// onnxruntime-web package transformers.js itself imports. Imported as URLs, the
// build emits them as hashed assets of this app, so the runtime never comes
// from a CDN; the service worker caches them on first use (~27 MB: not
// precached, see vite.config.ts).
import ortWasmFactoryUrl from 'onnxruntime-web/ort-wasm-simd-threaded.asyncify.mjs?url';
import ortWasmBinaryUrl from 'onnxruntime-web/ort-wasm-simd-threaded.asyncify.wasm?url';

/** Absolute URLs of the served files, for `env.backends.onnx.wasm.wasmPaths`. */
export function servedOrtWasmPaths(origin: string): { mjs: string; wasm: string } {
  return { mjs: new URL(ortWasmFactoryUrl, origin).href, wasm: new URL(ortWasmBinaryUrl, origin).href };
}
