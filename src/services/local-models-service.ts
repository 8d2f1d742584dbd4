import {
  AppError,
  localModelIdSchema,
  modelSourcesSchema,
  parseInput,
  type JobDto,
  type LocalModelDto,
  type LocalModelsDto,
  type ModelSourcesDto,
} from '../contracts';
import type { JobContext, JobRuntime } from '../core/job-runtime';
import type { SettingsRepository } from '../db';
import {
  DEFAULT_MODEL_SOURCES,
  WEBLLM_CATALOG,
  WebLlmModelManager,
  checkDevice,
  checkWebGpu,
  findCatalogEntry,
  memoizedProbe,
  type DeviceProbe,
  type ModelSources,
  type WebLlmCatalogEntry,
} from '../models';
import { WebLlmAdapter, deviceCheckError, toWebLlmAppError, type WebLlmClient } from '../providers';
import { MetonaProviderError } from '../ir';

export const MODEL_DOWNLOAD_JOB_KIND = 'model.download';
const SOURCES_KEY = 'webllm.sources';
const MIB = 2 ** 20;
/** Progress is persisted and published at most this often (a download reports every network chunk). */
const PROGRESS_INTERVAL_MS = 250;

/** The local-model worker, started on first use. */
export interface LocalModelConnection {
  client: WebLlmClient;
  device: DeviceProbe;
}

/** Where no worker can be started (Node tests of other services). */
export function noLocalModels(): LocalModelConnection {
  throw new AppError('PROVIDER_UNAVAILABLE', 'Local models are not available in this environment.');
}

interface DownloadJobInput {
  model: string;
}

function unknownModel(model: string): AppError {
  return new AppError('MODEL_NOT_FOUND', `"${model}" is not one of the local models this app offers.`, {
    model,
  });
}

/** Provider errors from the worker as the contract's codes and plain messages. */
function toAppErrorFrom(error: unknown): unknown {
  return error instanceof MetonaProviderError ? toWebLlmAppError(error.toJSON()) : error;
}

/**
 * In-browser models (web-llm): the catalog with what is downloaded and what
 * this device can run, downloads as `model.download` jobs (byte progress,
 * cancel through the jobs service), deletion, and the model hosts. The
 * local-model worker starts on the first call that needs it.
 */
export class LocalModelsService {
  readonly #runtime: JobRuntime;
  readonly #settings: SettingsRepository;
  readonly #connect: () => LocalModelConnection;
  #connection: LocalModelConnection | undefined;
  #sourcesApplied: Promise<void> | undefined;
  /** Model → its latest download job; one queued or running per model. */
  readonly #jobs = new Map<string, string>();
  /** Model → a download being checked and created (two clicks get one job). */
  readonly #starting = new Map<string, Promise<JobDto>>();

  constructor(runtime: JobRuntime, settings: SettingsRepository, connect: () => LocalModelConnection) {
    this.#runtime = runtime;
    this.#settings = settings;
    this.#connect = connect;
    runtime.register<DownloadJobInput, { model: string; bytes: number }>({
      kind: MODEL_DOWNLOAD_JOB_KIND,
      concurrency: 1,
      // Closed mid-download: the job runs again at start-up and skips the files already saved.
      resumable: true,
      run: (context) => this.#runDownload(context),
    });
  }

  async list(): Promise<LocalModelsDto> {
    const { client, device: live } = await this.#ready();
    const device = memoizedProbe(live);
    const gpu = await checkWebGpu(device);
    const outcome = await client.listCached(WEBLLM_CATALOG.map((entry) => entry.id));
    if (!outcome.ok) throw toWebLlmAppError(outcome.error);
    const cached = new Map(outcome.value.map((item) => [item.modelId, item.sizeBytes ?? null]));
    const items: LocalModelDto[] = [];
    for (const entry of WEBLLM_CATALOG) {
      const isCached = cached.has(entry.id);
      const check = gpu.ok ? await checkDevice(device, entry, { downloaded: isCached }) : gpu;
      items.push({
        ...describe(entry),
        cached: isCached,
        size_bytes: cached.get(entry.id) ?? null,
        download_job_id: (await this.#activeDownload(entry.id))?.job_id ?? null,
        runnable: check.ok,
        unavailable_reason: check.ok ? null : check.reason,
        unavailable_message: check.ok ? null : check.message,
        unavailable_refusal: check.ok ? null : check.refusal,
      });
    }
    return {
      webgpu: {
        available: gpu.ok,
        message: gpu.ok ? null : gpu.message,
        adapter: gpu.ok ? gpu.adapter.label : null,
      },
      items,
    };
  }

  /**
   * Starts downloading a model as a job; a model already downloading returns
   * its job. The device and the storage quota are checked first: a model this
   * device cannot run is refused here, with the reason, before any byte moves.
   */
  async download(model: string): Promise<JobDto> {
    const id = parseInput(localModelIdSchema, model);
    const entry = findCatalogEntry(id);
    if (!entry) throw unknownModel(id);
    const active = await this.#activeDownload(id);
    if (active) return active;
    const pending = this.#starting.get(id);
    if (pending) return pending;
    const starting = this.#startDownload(entry).finally(() => this.#starting.delete(id));
    this.#starting.set(id, starting);
    return starting;
  }

  /** Removes a downloaded (or partly downloaded) model from the browser cache. */
  async delete(model: string): Promise<void> {
    const id = parseInput(localModelIdSchema, model);
    if (!findCatalogEntry(id)) throw unknownModel(id);
    const job = await this.#activeDownload(id);
    if (job) {
      throw new AppError('STATE_CONFLICT', 'This model is downloading; cancel the download first.', {
        model: id,
        job_id: job.job_id,
      });
    }
    const { client } = await this.#ready();
    const outcome = await client.deleteCached(id);
    if (!outcome.ok) throw toWebLlmAppError(outcome.error);
  }

  async sources(): Promise<ModelSourcesDto> {
    const sources = await this.#storedSources();
    return { model_host: sources.modelHost, lib_host: sources.libHost };
  }

  async setSources(input: Partial<ModelSourcesDto>): Promise<ModelSourcesDto> {
    const valid = parseInput(modelSourcesSchema, input, 'These model hosts are not valid.');
    const sources: ModelSources = { modelHost: valid.model_host, libHost: valid.lib_host };
    // The worker's first configuration (from the stored hosts) must not land after this one.
    const { client } = await this.#ready();
    await this.#settings.put(SOURCES_KEY, sources);
    await client.setSources(sources);
    return { model_host: sources.modelHost, lib_host: sources.libHost };
  }

  /** The chat's adapter for a local model: generation runs in the local-model worker. */
  async adapter(model: string): Promise<WebLlmAdapter> {
    const { client, device } = await this.#ready();
    return new WebLlmAdapter({ client, device, model });
  }

  async #startDownload(entry: WebLlmCatalogEntry): Promise<JobDto> {
    const { client } = await this.#ready();
    const cached = await client.listCached([entry.id]);
    if (cached.ok && cached.value.length > 0) {
      throw new AppError('STATE_CONFLICT', `${entry.displayName} is already downloaded.`, {
        model: entry.id,
      });
    }
    const check = await this.#manager().checkDevice(entry.id);
    if (!check.ok) throw toWebLlmAppError(deviceCheckError(check.reason, check.message));
    const job = await this.#runtime.create(MODEL_DOWNLOAD_JOB_KIND, { model: entry.id });
    this.#jobs.set(entry.id, job.job_id);
    return job;
  }

  async #runDownload(context: JobContext<DownloadJobInput>): Promise<{ model: string; bytes: number }> {
    const { model } = context.input;
    try {
      await this.#ready();
      let lastWrite = 0;
      let lastPercent: number | null = -1;
      let writing: Promise<void> = Promise.resolve();
      const result = await this.#manager().download(model, {
        signal: context.signal,
        onProgress: (progress) => {
          const now = Date.now();
          const done = progress.percent === 100;
          if (!done && progress.percent === lastPercent && now - lastWrite < PROGRESS_INTERVAL_MS) return;
          if (!done && now - lastWrite < PROGRESS_INTERVAL_MS / 5) return;
          lastWrite = now;
          lastPercent = progress.percent;
          writing = writing.then(() =>
            context.progress({
              phase: 'downloading',
              current: progress.currentBytes ?? 0,
              total: progress.totalBytes ?? null,
              message: progress.message,
            }),
          );
        },
      });
      await writing;
      return { model, bytes: result.bytes };
    } catch (error) {
      throw toAppErrorFrom(error);
    }
  }

  /** The model's queued or running download job, this session's or one resumed at start-up. */
  async #activeDownload(model: string): Promise<JobDto | undefined> {
    const pending = this.#starting.get(model);
    if (pending) return pending.catch(() => undefined);
    const jobId = this.#jobs.get(model);
    const job = jobId ? await this.#runtime.get(jobId).catch(() => undefined) : undefined;
    if (job && (job.status === 'queued' || job.status === 'running')) return job;
    // A download resumed at start-up belongs to no call of this session.
    for (const status of ['running', 'queued'] as const) {
      const { items } = await this.#runtime.list({
        kind: MODEL_DOWNLOAD_JOB_KIND,
        status,
        limit: 100,
        offset: 0,
      });
      const found = items.find((item) => (item.input as Partial<DownloadJobInput>).model === model);
      if (found) {
        this.#jobs.set(model, found.job_id);
        return found;
      }
    }
    return undefined;
  }

  #manager(): WebLlmModelManager {
    const { client, device } = this.#connection!;
    return new WebLlmModelManager({ client, device });
  }

  async #storedSources(): Promise<ModelSources> {
    return (await this.#settings.get<ModelSources>(SOURCES_KEY)) ?? DEFAULT_MODEL_SOURCES;
  }

  async #ready(): Promise<LocalModelConnection> {
    this.#connection ??= this.#connect();
    this.#sourcesApplied ??= this.#storedSources()
      .then((sources) => this.#connection!.client.setSources(sources))
      .catch((error: unknown) => {
        this.#sourcesApplied = undefined;
        throw error;
      });
    await this.#sourcesApplied;
    return this.#connection;
  }
}

function describe(entry: WebLlmCatalogEntry) {
  return {
    model: entry.id,
    display_name: entry.displayName,
    family: entry.family,
    parameters_billions: entry.parametersBillions,
    quantization: entry.quantization,
    download_size_bytes: entry.downloadSizeMB * MIB,
    vram_bytes: entry.vramMB * MIB,
    context_window: entry.contextWindow,
    requires_shader_f16: entry.requiresShaderF16,
    f32_alternative: entry.f32Alternative ?? null,
    tool_calling: entry.toolCalling,
    thinking: entry.thinking,
    languages: { ...entry.languages },
  };
}
