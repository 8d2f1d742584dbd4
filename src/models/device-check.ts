import type { WebLlmCatalogEntry } from './model-catalog';
import { navigatorGpu } from './webgpu';

/**
 * Can this device run a local model? Pure: the browser objects are injected
 * (`browserDeviceProbe()` reads them from `navigator`), so every branch is
 * tested in Node. web-llm itself checks none of this before it fetches the
 * model's config, and offline that fails first with a bare `TypeError`.
 */

/** The few WebGPU adapter fields we read (`GPUAdapter`). */
export interface GpuAdapterLike {
  features: { has(feature: string): boolean };
  limits: { maxBufferSize: number; maxStorageBufferBindingSize: number };
  info?: { vendor?: string; architecture?: string; description?: string; isFallbackAdapter?: boolean };
}

export interface DeviceProbe {
  /** `navigator.gpu`; absent without WebGPU. */
  gpu?: {
    requestAdapter(options?: {
      powerPreference?: 'high-performance' | 'low-power';
    }): Promise<GpuAdapterLike | null>;
  };
  /** `navigator.storage`; absent in insecure contexts. */
  storage?: { estimate(): Promise<{ quota?: number; usage?: number }> };
  /** `navigator.deviceMemory` (GiB, rounded and capped at 8 by the browser); Chromium only. */
  deviceMemoryGB?: number;
}

export type DeviceCheckReason =
  'no_webgpu' | 'no_adapter' | 'no_shader_f16' | 'insufficient_memory' | 'insufficient_storage';

/**
 * Why a check failed, as a code and the facts behind it, for a UI to say in the
 * reader's language (`message` is English, for logs and errors). Finer than
 * `reason`: three different limits all mean `insufficient_memory`.
 */
export type DeviceRefusal =
  | { code: 'no_webgpu' | 'no_adapter'; params: Record<string, never> }
  | { code: 'no_shader_f16'; params: { model: string; feature: 'shader-f16'; gpu: string; twin: string } }
  | { code: 'buffer_too_small'; params: { model: string; needed: string; allowed: string } }
  | { code: 'phone_class_gpu'; params: { model: string; allowed: string } }
  | { code: 'device_memory'; params: { model: string; needed: string; total: string } }
  | { code: 'insufficient_storage'; params: { model: string; needed: string; free: string } };

export type DeviceRefusalCode = DeviceRefusal['code'];

export interface AdapterSummary {
  shaderF16: boolean;
  maxBufferSize: number;
  maxStorageBufferBindingSize: number;
  /** e.g. "google / swiftshader" (a CPU fallback) or "apple / metal-3". */
  label: string;
  fallback: boolean;
}

export type DeviceCheckResult =
  | { ok: true; adapter: AdapterSummary; freeStorageBytes?: number }
  | {
      ok: false;
      reason: DeviceCheckReason;
      message: string;
      refusal: DeviceRefusal;
      adapter?: AdapterSummary;
    };

/** What a model needs; a subset of the catalog entry, so unknown ids can be checked too. */
export type ModelRequirements = Pick<
  WebLlmCatalogEntry,
  'id' | 'displayName' | 'downloadSizeMB' | 'vramMB' | 'requiresShaderF16' | 'lowResource'
> &
  Partial<Pick<WebLlmCatalogEntry, 'bufferSizeRequiredBytes' | 'f32Alternative'>>;

export interface DeviceCheckOptions {
  /** Already in the browser cache: no storage is needed. */
  downloaded?: boolean;
  /** Extra room asked for on top of the download (temporary copies, other data). */
  storageMargin?: number;
  /**
   * Below this `maxStorageBufferBindingSize` a GPU counts as phone-class and
   * only `low_resource_required` models are allowed (web-llm's own heuristic).
   */
  limitedDeviceBindingBytes?: number;
}

const UNKNOWN_GPU = 'unknown GPU';
const GIB = 2 ** 30;
const MIB = 2 ** 20;

export function formatBytes(bytes: number): string {
  if (bytes >= GIB) return `${(bytes / GIB).toFixed(1)} GB`;
  return `${Math.max(0, Math.round(bytes / MIB))} MB`;
}

export function browserDeviceProbe(
  nav: Navigator | undefined = typeof navigator === 'undefined' ? undefined : navigator,
): DeviceProbe {
  if (!nav) return {};
  const extended = nav as Navigator & { deviceMemory?: number };
  const gpu = navigatorGpu<GpuAdapterLike>(nav);
  return {
    ...(gpu && { gpu }),
    ...(nav.storage && typeof nav.storage.estimate === 'function' && { storage: nav.storage }),
    ...(typeof extended.deviceMemory === 'number' && { deviceMemoryGB: extended.deviceMemory }),
  };
}

/**
 * The same probe, asking the browser once: checking a whole catalog should not
 * request an adapter and a storage estimate per model.
 */
export function memoizedProbe(probe: DeviceProbe): DeviceProbe {
  const { gpu, storage } = probe;
  let adapter: ReturnType<NonNullable<DeviceProbe['gpu']>['requestAdapter']> | undefined;
  let estimate: ReturnType<NonNullable<DeviceProbe['storage']>['estimate']> | undefined;
  return {
    ...probe,
    ...(gpu && { gpu: { requestAdapter: (options) => (adapter ??= gpu.requestAdapter(options)) } }),
    ...(storage && { storage: { estimate: () => (estimate ??= storage.estimate()) } }),
  };
}

function summarize(adapter: GpuAdapterLike): AdapterSummary {
  const info = adapter.info ?? {};
  const label = [info.vendor, info.architecture || info.description].filter(Boolean).join(' / ');
  return {
    shaderF16: adapter.features.has('shader-f16'),
    maxBufferSize: adapter.limits.maxBufferSize,
    maxStorageBufferBindingSize: adapter.limits.maxStorageBufferBindingSize,
    label: label || UNKNOWN_GPU,
    fallback: info.isFallbackAdapter === true || /swiftshader/i.test(label),
  };
}

const fail = (
  reason: DeviceCheckReason,
  refusal: DeviceRefusal,
  message: string,
  adapter?: AdapterSummary,
): Extract<DeviceCheckResult, { ok: false }> => ({
  ok: false,
  reason,
  message,
  refusal,
  ...(adapter && { adapter }),
});

/** WebGPU present and an adapter granted: the part that does not depend on a model. */
export async function checkWebGpu(probe: DeviceProbe): Promise<DeviceCheckResult> {
  if (!probe.gpu) {
    return fail(
      'no_webgpu',
      { code: 'no_webgpu', params: {} },
      'This browser does not offer WebGPU, which local models need. Use a recent Chrome or Edge ' +
        '(or enable WebGPU), or choose Ollama or a remote provider.',
    );
  }
  let adapter: GpuAdapterLike | null;
  try {
    adapter = await probe.gpu.requestAdapter({ powerPreference: 'high-performance' });
  } catch {
    adapter = null;
  }
  if (!adapter) {
    return fail(
      'no_adapter',
      { code: 'no_adapter', params: {} },
      'WebGPU is present but no GPU is available to it (the GPU may be disabled, blocklisted or busy). ' +
        'Local models cannot run here; choose Ollama or a remote provider.',
    );
  }
  return { ok: true, adapter: summarize(adapter) };
}

/** The full pre-download check: WebGPU, `shader-f16`, GPU limits and memory, then storage quota. */
export async function checkDevice(
  probe: DeviceProbe,
  model: ModelRequirements,
  options: DeviceCheckOptions = {},
): Promise<DeviceCheckResult> {
  const gpu = await checkWebGpu(probe);
  if (!gpu.ok) return gpu;
  const { adapter } = gpu;
  const name = model.displayName || model.id;

  if (model.requiresShaderF16 && !adapter.shaderF16) {
    const instead = model.f32Alternative
      ? ` Choose its q4f32 variant (${model.f32Alternative}) instead.`
      : '';
    return fail(
      'no_shader_f16',
      {
        code: 'no_shader_f16',
        params: {
          model: name,
          feature: 'shader-f16',
          // '' when the browser does not name it: the UI says "this GPU" in its own words.
          gpu: adapter.label === UNKNOWN_GPU ? '' : adapter.label,
          twin: model.f32Alternative ?? '',
        },
      },
      `${name} computes in float16, which needs the WebGPU feature "shader-f16"; this GPU (${adapter.label}) ` +
        `does not offer it.${instead}`,
      adapter,
    );
  }
  if (
    model.bufferSizeRequiredBytes !== undefined &&
    adapter.maxStorageBufferBindingSize < model.bufferSizeRequiredBytes
  ) {
    return fail(
      'insufficient_memory',
      {
        code: 'buffer_too_small',
        params: {
          model: name,
          needed: formatBytes(model.bufferSizeRequiredBytes),
          allowed: formatBytes(adapter.maxStorageBufferBindingSize),
        },
      },
      `${name} needs GPU buffers of ${formatBytes(model.bufferSizeRequiredBytes)}; this GPU allows ` +
        `${formatBytes(adapter.maxStorageBufferBindingSize)}. Choose a smaller model.`,
      adapter,
    );
  }
  const limitedBelow = options.limitedDeviceBindingBytes ?? GIB;
  if (!model.lowResource && adapter.maxStorageBufferBindingSize < limitedBelow) {
    return fail(
      'insufficient_memory',
      {
        code: 'phone_class_gpu',
        params: { model: name, allowed: formatBytes(adapter.maxStorageBufferBindingSize) },
      },
      `This GPU looks phone-class (${formatBytes(adapter.maxStorageBufferBindingSize)} per buffer) and ` +
        `${name} is too large for it. Choose a model marked for low-resource devices.`,
      adapter,
    );
  }
  // deviceMemory is capped at 8 GiB: only a lower figure says anything.
  if (probe.deviceMemoryGB !== undefined && probe.deviceMemoryGB < 8) {
    const memoryMB = probe.deviceMemoryGB * 1024;
    if (model.vramMB > memoryMB) {
      return fail(
        'insufficient_memory',
        {
          code: 'device_memory',
          params: {
            model: name,
            needed: formatBytes(model.vramMB * MIB),
            total: `${probe.deviceMemoryGB} GB`,
          },
        },
        `${name} needs about ${formatBytes(model.vramMB * MIB)} of GPU memory; this device reports ` +
          `${probe.deviceMemoryGB} GB in total. Choose a smaller model.`,
        adapter,
      );
    }
  }

  if (options.downloaded || !probe.storage) return { ok: true, adapter };
  let estimate: { quota?: number; usage?: number };
  try {
    estimate = await probe.storage.estimate();
  } catch {
    return { ok: true, adapter }; // unknown quota: let the download try
  }
  if (estimate.quota === undefined) return { ok: true, adapter };
  const free = Math.max(0, estimate.quota - (estimate.usage ?? 0));
  const needed = model.downloadSizeMB * MIB * (1 + (options.storageMargin ?? 0.1));
  if (free < needed) {
    return fail(
      'insufficient_storage',
      {
        code: 'insufficient_storage',
        params: { model: name, needed: formatBytes(needed), free: formatBytes(free) },
      },
      `Downloading ${name} needs about ${formatBytes(needed)} of browser storage, but only ` +
        `${formatBytes(free)} is free. Delete other downloaded models or free disk space.`,
      adapter,
    );
  }
  return { ok: true, adapter, freeStorageBytes: free };
}
