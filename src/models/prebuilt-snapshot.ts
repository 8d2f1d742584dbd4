import type { WebLlmAppConfig } from '../providers/webllm/engine-port';

/** web-llm's `ModelType.embedding` (a const enum: the value, so the library is not imported). */
const EMBEDDING_MODEL_TYPE = 1;

/** The figures the catalog takes from one web-llm prebuilt model record. */
export interface PrebuiltModelSnapshot {
  model_id: string;
  /** Where web-llm downloads it from (the Hugging Face repository). */
  model: string;
  /** The compiled model library (wasm) web-llm loads for it. */
  model_lib: string;
  vram_required_MB?: number;
  low_resource_required?: boolean;
  required_features?: string[];
  buffer_size_required_bytes?: number;
  context_window_size?: number;
  /** In web-llm's `functionCallingModelIds`: `tools` are accepted natively. */
  native_tool_calling: boolean;
  /**
   * web-llm can hold the answer to `response_format` (`json_object`, with or
   * without a schema) by a grammar: every model it generates text with, that
   * is every `model_type` but `embedding`.
   */
  structured_output: boolean;
}

export interface PrebuiltSnapshot {
  /** web-llm's `modelVersion`: the model libraries this snapshot belongs to. */
  webllm_model_version: string;
  models: PrebuiltModelSnapshot[];
}

/** The part of the web-llm module the snapshot reads. */
export interface PrebuiltSource {
  prebuiltAppConfig: WebLlmAppConfig;
  functionCallingModelIds: string[];
  modelVersion: string;
}

/**
 * Picks the curated ids out of web-llm's `prebuiltAppConfig`, so the page
 * knows each model's needs without loading the library. Throws on an id that
 * web-llm no longer ships: the catalog must be curated again.
 */
export function snapshotPrebuilt(source: PrebuiltSource, ids: readonly string[]): PrebuiltSnapshot {
  const models = ids.map((id): PrebuiltModelSnapshot => {
    const record = source.prebuiltAppConfig.model_list.find((candidate) => candidate.model_id === id);
    if (!record) throw new Error(`web-llm ${source.modelVersion} has no prebuilt model "${id}"`);
    const contextWindow = record.overrides?.context_window_size;
    return {
      model_id: record.model_id,
      model: record.model,
      model_lib: record.model_lib,
      ...(record.vram_required_MB !== undefined && { vram_required_MB: record.vram_required_MB }),
      ...(record.low_resource_required !== undefined && {
        low_resource_required: record.low_resource_required,
      }),
      ...(record.required_features?.length && { required_features: [...record.required_features] }),
      ...(record.buffer_size_required_bytes !== undefined && {
        buffer_size_required_bytes: record.buffer_size_required_bytes,
      }),
      ...(contextWindow !== undefined && contextWindow > 0 && { context_window_size: contextWindow }),
      native_tool_calling: source.functionCallingModelIds.includes(record.model_id),
      structured_output: record.model_type !== EMBEDDING_MODEL_TYPE,
    };
  });
  return { webllm_model_version: source.modelVersion, models };
}
