import type { MetonaModelInfo } from '../ir';
import { CURATED_MODELS, type CuratedModel, type LanguageQuality } from './curated-models';
import prebuilt from './prebuilt-models.generated.json';
import type { PrebuiltModelSnapshot, PrebuiltSnapshot } from './prebuilt-snapshot';

export const WEBLLM_PROVIDER_ID = 'webllm';

/** How a model gets tools: web-llm's native function calling, or described in the prompt and parsed from text. */
export type ToolCallingMode = 'native' | 'prompted';

/** One model the app offers for in-browser use. */
export interface WebLlmCatalogEntry {
  id: string;
  displayName: string;
  family: string;
  parametersBillions: number;
  /** `q4f16_1`, `q4f32_1`, … (the MLC quantization in the id). */
  quantization: string;
  /** Estimated from parameters × bits per weight: web-llm's config does not list download sizes. */
  downloadSizeMB: number;
  /** web-llm's `vram_required_MB`. */
  vramMB: number;
  /** web-llm's `overrides.context_window_size` (the KV cache the model library was built for). */
  contextWindow: number;
  /** web-llm's `low_resource_required`: runs on phone-class GPUs. */
  lowResource: boolean;
  /** A float16 model: needs the WebGPU `shader-f16` feature (SwiftShader lacks it). */
  requiresShaderF16: boolean;
  /** web-llm's `required_features`, verbatim. */
  requiredFeatures: string[];
  /** web-llm's `buffer_size_required_bytes`: the `maxStorageBufferBindingSize` the model needs. */
  bufferSizeRequiredBytes?: number;
  toolCalling: ToolCallingMode;
  /** Answers can be held to JSON (and a JSON schema) by web-llm's grammar: the `structured_output` capability. */
  structuredOutput: boolean;
  thinking: boolean;
  languages: { zh: LanguageQuality; en: LanguageQuality; note: string };
  /** The same model in q4f32, for GPUs without `shader-f16`. */
  f32Alternative?: string;
  /** Hugging Face repository the weights come from. */
  sourceUrl: string;
  /** The compiled model library (wasm) web-llm runs it with. */
  modelLib: string;
}

const snapshot = prebuilt as PrebuiltSnapshot;

/** The web-llm model-library version the catalog was generated for. */
export const WEBLLM_MODEL_VERSION = snapshot.webllm_model_version;

/** What the catalog assumes for a web-llm model id it does not know. */
export const UNKNOWN_MODEL_CONTEXT_WINDOW = 4096;

const BITS_PER_WEIGHT: Record<string, number> = {
  // 4-bit weights plus one scale per group of 32 (f16: +0.5 bit, f32: +1 bit).
  q4f16_1: 4.5,
  q4f32_1: 5,
  q3f16_1: 3.5,
  q0f16: 16,
  q0f32: 32,
};
/** The compiled model library (wasm) and tokenizer, roughly. */
const RUNTIME_FILES_MB = 10;

export function quantizationOf(modelId: string): string {
  return /-(q\d+f\d+(?:_\d+)?)-MLC/.exec(modelId)?.[1] ?? 'unknown';
}

/** Float16 compute: `q4f16_1`, `q0f16`, `q3f16_1` need `shader-f16`, whatever `required_features` lists. */
export function needsShaderF16(modelId: string, requiredFeatures: readonly string[] = []): boolean {
  return requiredFeatures.includes('shader-f16') || /^q\d+f16/.test(quantizationOf(modelId));
}

export function estimateDownloadMB(parametersBillions: number, quantization: string): number {
  const bits = BITS_PER_WEIGHT[quantization] ?? 16;
  return Math.round((parametersBillions * 1e9 * bits) / 8 / 2 ** 20 + RUNTIME_FILES_MB);
}

function toEntry(curated: CuratedModel, record: PrebuiltModelSnapshot): WebLlmCatalogEntry {
  const quantization = quantizationOf(curated.id);
  const requiredFeatures = record.required_features ?? [];
  const f32 = curated.id.replace('q4f16_1', 'q4f32_1');
  return {
    id: curated.id,
    displayName: curated.displayName,
    family: curated.family,
    parametersBillions: curated.parametersBillions,
    quantization,
    downloadSizeMB: estimateDownloadMB(curated.parametersBillions, quantization),
    vramMB: Math.ceil(record.vram_required_MB ?? 0),
    contextWindow: record.context_window_size ?? UNKNOWN_MODEL_CONTEXT_WINDOW,
    lowResource: record.low_resource_required ?? false,
    requiresShaderF16: needsShaderF16(curated.id, requiredFeatures),
    requiredFeatures,
    ...(record.buffer_size_required_bytes !== undefined && {
      bufferSizeRequiredBytes: record.buffer_size_required_bytes,
    }),
    toolCalling: record.native_tool_calling ? 'native' : 'prompted',
    structuredOutput: record.structured_output,
    thinking: curated.thinking,
    languages: curated.languages,
    ...(f32 !== curated.id && CURATED_MODELS.some((model) => model.id === f32) && { f32Alternative: f32 }),
    sourceUrl: record.model,
    modelLib: record.model_lib,
  };
}

function buildCatalog(): WebLlmCatalogEntry[] {
  const records = new Map(snapshot.models.map((record) => [record.model_id, record]));
  return CURATED_MODELS.map((curated) => {
    const record = records.get(curated.id);
    // model-catalog.test.ts regenerates the snapshot; this only fires on a hand edit.
    if (!record) throw new Error(`prebuilt-models.generated.json lacks ${curated.id}: regenerate it`);
    return toEntry(curated, record);
  });
}

/** The curated models, smallest download first. */
export const WEBLLM_CATALOG: readonly WebLlmCatalogEntry[] = buildCatalog().sort(
  (a, b) => a.downloadSizeMB - b.downloadSizeMB || a.id.localeCompare(b.id),
);

export function findCatalogEntry(modelId: string): WebLlmCatalogEntry | undefined {
  return WEBLLM_CATALOG.find((entry) => entry.id === modelId);
}

/**
 * The IR's model description. Tool calling is claimed for every model: the
 * ones without native support get prompt-described tools (the standard's
 * last-resort path). Images are not: none of these models is a vision model.
 * Structured output is where web-llm's grammar can hold the answer to JSON.
 */
export function toModelInfo(entry: WebLlmCatalogEntry): MetonaModelInfo {
  return {
    id: entry.id,
    providerId: WEBLLM_PROVIDER_ID,
    displayName: entry.displayName,
    contextWindow: entry.contextWindow,
    // Prompt and answer share the KV cache.
    maxOutput: Math.max(256, Math.floor(entry.contextWindow / 2)),
    supportsStreaming: true,
    supportsThinking: entry.thinking,
    supportsImages: false,
    supportsToolCalling: true,
    supportsStructuredOutput: entry.structuredOutput,
  };
}
