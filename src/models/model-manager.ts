import { proxy } from 'comlink';
import { MetonaProviderError } from '../ir';
import { userAbortedError } from '../providers/shared/errors';
import type { WebLlmClient } from '../providers/webllm/adapter';
import {
  checkDevice,
  checkWebGpu,
  formatBytes,
  type DeviceCheckResult,
  type DeviceProbe,
} from './device-check';
import type { ModelDownloadProgress, WebLlmProgressReport } from '../providers/webllm/engine-port';
import { deviceCheckFailure } from '../providers/webllm/map-error';
import {
  WEBLLM_CATALOG,
  WEBLLM_PROVIDER_ID,
  findCatalogEntry,
  type WebLlmCatalogEntry,
} from './model-catalog';

/**
 * Local models on this device: list the downloaded ones with their size,
 * delete one, check the device, and download with progress and cancel. A
 * download job (contract: jobs) wraps `download()`: its signal and progress
 * callback are the job's.
 */

export interface DownloadProgress {
  phase: 'downloading' | 'loading';
  currentBytes?: number;
  totalBytes?: number;
  /** 0–100, or null when web-llm gives no figure. */
  percent: number | null;
  message: string;
}

export interface CachedModelInfo {
  modelId: string;
  sizeBytes?: number;
  entry?: WebLlmCatalogEntry;
}

export interface DownloadOptions {
  signal?: AbortSignal;
  onProgress?: (progress: DownloadProgress) => void;
  /** On cancel keep the shards already saved, so the next download resumes (default: delete them). */
  keepPartialOnCancel?: boolean;
}

const MIB = 2 ** 20;

const clampPercent = (fraction: number): number | null =>
  Number.isFinite(fraction) ? Math.min(100, Math.max(0, Math.floor(fraction * 100))) : null;

/**
 * web-llm's progress report (`{progress, timeElapsed, text}`) as a job
 * progress. Bytes exist only in the text ("Fetching param cache[3/52]: 150MB
 * fetched. 20% completed, …"); the total follows from the fraction.
 */
export function toDownloadProgress(report: WebLlmProgressReport, name: string): DownloadProgress {
  const text = report.text ?? '';
  const percent = clampPercent(report.progress);
  const bytes = /^(Fetching param cache|Loading model from cache)\[\d+\/\d+\]: (\d+)MB/.exec(text);
  if (bytes) {
    const currentBytes = Number(bytes[2]) * MIB;
    const totalBytes = report.progress > 0 ? Math.round(currentBytes / report.progress) : undefined;
    const sizes = totalBytes
      ? `${formatBytes(currentBytes)} of ${formatBytes(totalBytes)}`
      : formatBytes(currentBytes);
    const downloading = bytes[1] === 'Fetching param cache';
    return {
      phase: downloading ? 'downloading' : 'loading',
      currentBytes,
      ...(totalBytes !== undefined && { totalBytes }),
      percent,
      message: downloading
        ? `Downloading ${name}: ${sizes}${percent !== null ? ` (${percent}%)` : ''}`
        : `Loading ${name} from the browser cache${percent !== null ? ` (${percent}%)` : ''}`,
    };
  }
  if (text.startsWith('Start to fetch params')) {
    return { phase: 'downloading', currentBytes: 0, percent: 0, message: `Starting to download ${name}` };
  }
  if (text.startsWith('Loading GPU shader modules')) {
    return {
      phase: 'loading',
      percent,
      message: `Preparing ${name} on the GPU${percent !== null ? ` (${percent}%)` : ''}`,
    };
  }
  if (text.startsWith('Finish loading'))
    return { phase: 'loading', percent: 100, message: `${name} is ready` };
  return { phase: 'loading', percent, message: text.replace(/\s+/g, ' ').trim() || `Loading ${name}` };
}

/** The worker's byte count as a job progress. */
export function toByteProgress(progress: ModelDownloadProgress, name: string): DownloadProgress {
  const { loadedBytes, totalBytes } = progress;
  const percent = totalBytes ? clampPercent(loadedBytes / totalBytes) : null;
  const sizes = totalBytes
    ? `${formatBytes(loadedBytes)} of ${formatBytes(totalBytes)}`
    : formatBytes(loadedBytes);
  return {
    phase: 'downloading',
    currentBytes: loadedBytes,
    ...(totalBytes !== null && { totalBytes }),
    percent,
    message: `Downloading ${name}: ${sizes}${percent !== null ? ` (${percent}%)` : ''}`,
  };
}

export interface WebLlmModelManagerOptions {
  client: WebLlmClient;
  /** `browserDeviceProbe()` on the page; without it the device is not checked. */
  device?: DeviceProbe;
  catalog?: readonly WebLlmCatalogEntry[];
}

export class WebLlmModelManager {
  readonly #client: WebLlmClient;
  readonly #device: DeviceProbe | undefined;
  readonly #catalog: readonly WebLlmCatalogEntry[];

  constructor(options: WebLlmModelManagerOptions) {
    this.#client = options.client;
    this.#device = options.device;
    this.#catalog = options.catalog ?? WEBLLM_CATALOG;
  }

  catalog(): readonly WebLlmCatalogEntry[] {
    return this.#catalog;
  }

  /** Catalog models found in the browser cache, with the bytes they take there. */
  async listCached(): Promise<CachedModelInfo[]> {
    const outcome = await this.#client.listCached(this.#catalog.map((entry) => entry.id));
    if (!outcome.ok) throw new MetonaProviderError(outcome.error);
    return outcome.value.map((cached) => {
      const entry = this.#entry(cached.modelId);
      return { ...cached, ...(entry && { entry }) };
    });
  }

  async deleteCached(modelId: string): Promise<void> {
    const outcome = await this.#client.deleteCached(modelId);
    if (!outcome.ok) throw new MetonaProviderError(outcome.error);
  }

  /** The pre-download check: WebGPU, adapter, `shader-f16`, GPU limits, memory, storage quota. */
  async checkDevice(modelId: string, options: { downloaded?: boolean } = {}): Promise<DeviceCheckResult> {
    if (!this.#device) {
      return {
        ok: true,
        adapter: {
          shaderF16: true,
          maxBufferSize: 0,
          maxStorageBufferBindingSize: 0,
          label: 'not checked',
          fallback: false,
        },
      };
    }
    const entry = this.#entry(modelId);
    return entry ? checkDevice(this.#device, entry, options) : checkWebGpu(this.#device);
  }

  /**
   * Checks the device, then downloads the model's files into the browser
   * cache (it is loaded on its first chat). Cancelling through `signal` aborts
   * the pending fetch in the worker, which then deletes the files already
   * saved (or keeps them with `keepPartialOnCancel`, and the next download
   * resumes). Rejects with `user_aborted` when cancelled.
   */
  async download(modelId: string, options: DownloadOptions = {}): Promise<{ bytes: number }> {
    const { signal, onProgress } = options;
    const cancelled = () => new MetonaProviderError(userAbortedError(WEBLLM_PROVIDER_ID));
    if (signal?.aborted) throw cancelled();
    const downloaded = await this.#isCached(modelId);
    const check = await this.checkDevice(modelId, { downloaded });
    if (!check.ok) throw deviceCheckFailure(check);
    if (signal?.aborted) throw cancelled();

    const name = this.#entry(modelId)?.displayName ?? modelId;
    const onAbort = () => {
      void this.#client
        .cancelDownload(modelId, { keepPartial: options.keepPartialOnCancel ?? false })
        .catch(() => undefined);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    try {
      const sink = proxy((progress: ModelDownloadProgress) => onProgress?.(toByteProgress(progress, name)));
      const outcome = await this.#client.download(modelId, sink);
      if (!outcome.ok) throw new MetonaProviderError(outcome.error);
      return outcome.value;
    } finally {
      signal?.removeEventListener('abort', onAbort);
    }
  }

  async #isCached(modelId: string): Promise<boolean> {
    const outcome = await this.#client.listCached([modelId]);
    return outcome.ok && outcome.value.some((cached) => cached.modelId === modelId);
  }

  #entry(modelId: string): WebLlmCatalogEntry | undefined {
    return this.#catalog.find((entry) => entry.id === modelId) ?? findCatalogEntry(modelId);
  }
}
