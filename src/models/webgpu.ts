/**
 * The one WebGPU probe: every local-model runtime (web-llm's device check,
 * transformers.js for embeddings, reranking and Whisper) asks here whether the
 * browser grants a GPU adapter. Node has no `navigator.gpu`.
 */
export interface WebGpuLike<Adapter = unknown> {
  requestAdapter(options?: { powerPreference?: 'high-performance' | 'low-power' }): Promise<Adapter | null>;
}

/** `navigator.gpu`, where the browser offers WebGPU. */
export function navigatorGpu<Adapter = unknown>(
  nav: Navigator | undefined = globalThis.navigator,
): WebGpuLike<Adapter> | undefined {
  return (nav as (Navigator & { gpu?: WebGpuLike<Adapter> }) | undefined)?.gpu;
}

/** True when WebGPU grants an adapter; a throwing or missing `requestAdapter` counts as no. */
export async function hasWebGpu(gpu: WebGpuLike | undefined = navigatorGpu()): Promise<boolean> {
  if (!gpu) return false;
  try {
    return (await gpu.requestAdapter()) != null;
  } catch {
    return false;
  }
}
