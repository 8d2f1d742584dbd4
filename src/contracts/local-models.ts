/**
 * In-browser (WebLLM) model DTOs. Zod-free, so the page can import them; the
 * request schemas live in local-models-schemas.ts.
 */

/** Why this device cannot run a model, as the device check names it. */
export type LocalModelUnavailableReason =
  'no_webgpu' | 'no_adapter' | 'no_shader_f16' | 'insufficient_memory' | 'insufficient_storage';

/**
 * The device check's refusal as a code and its facts (model name, GPU, sizes already
 * formatted), so the UI can say it in the reader's language; `unavailable_message` is English.
 */
export interface LocalModelRefusalDto {
  code:
    | 'no_webgpu'
    | 'no_adapter'
    | 'no_shader_f16'
    | 'buffer_too_small'
    | 'phone_class_gpu'
    | 'device_memory'
    | 'insufficient_storage';
  params: Record<string, string>;
}

/** One in-browser model as the UI lists it (contract §8.1 fields plus what a download needs). */
export interface LocalModelDto {
  model: string;
  display_name: string;
  family: string;
  parameters_billions: number;
  quantization: string;
  download_size_bytes: number;
  vram_bytes: number;
  context_window: number;
  requires_shader_f16: boolean;
  /** The q4f32 twin of a q4f16 model, for GPUs without `shader-f16`. */
  f32_alternative: string | null;
  tool_calling: 'native' | 'prompted';
  thinking: boolean;
  languages: { zh: string; en: string; note: string };
  cached: boolean;
  /** Bytes in the browser cache; null when not cached. */
  size_bytes: number | null;
  /** The queued or running download, if any. */
  download_job_id: string | null;
  /** Whether this device can run it; the reason in plain words when not. */
  runnable: boolean;
  unavailable_reason: LocalModelUnavailableReason | null;
  unavailable_message: string | null;
  /** The same refusal as a code with parameters (absent from older workers). */
  unavailable_refusal?: LocalModelRefusalDto | null;
}

export interface LocalModelsDto {
  /** WebGPU present with an adapter: local models first in the picker. */
  webgpu: { available: boolean; message: string | null; adapter: string | null };
  items: LocalModelDto[];
}

export interface ModelSourcesDto {
  model_host: string | null;
  lib_host: string | null;
}
