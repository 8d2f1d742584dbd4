import {
  AppError,
  parseInput,
  RERANKER_DOWNLOAD_JOB_KIND,
  selectRerankerSchema,
  type RerankerOptionDto,
  type RerankerSettingsDto,
  type SelectRerankerInput,
  type SelectRerankerResultDto,
} from '../contracts';
import type { JobContext, JobRuntime } from '../core/job-runtime';
import type { SettingsRepository } from '../db';
import { type EmbeddingDtype, type EmbeddingModelSource } from '../retrieval/embedding-models';
import type { EmbedderDevice, EmbedderDevicePreference } from '../retrieval/transformers-embedder';
import type { HostedReranker } from '../retrieval/reranker-host';
import { findRerankerModel, RERANKER_MODELS, type RerankerModelSpec } from '../retrieval/reranker-models';
import type { TransformersRerankerConfig } from '../retrieval/transformers-reranker';
import {
  DownloadSlot,
  downloadInput,
  downloadMb,
  loadWithProgress,
  modelSource,
  SettingsRecord,
} from './model-download';
import type { RerankerEngine } from './reranker-engine';

/** The settings row: the reranker chosen (null: off) and what it loaded as, to restore it without a download. */
export const RERANKER_SETTINGS_KEY = 'reranker';

export interface StoredRerankerSettings {
  model_id: string | null;
  loaded: {
    info: { model_id: string; model_version: string };
    dtype: EmbeddingDtype;
    device: EmbedderDevice;
  } | null;
}

export interface RerankerServiceOptions {
  settings: SettingsRepository;
  runtime: JobRuntime;
  /** Where cross-encoders run; without one reranking cannot be turned on. */
  engine?: RerankerEngine | undefined;
  /** The catalog offered; the app's by default. */
  models?: readonly RerankerModelSpec[];
  /** Fixed parts of the model source (the app's ONNX Runtime files, a local folder in tests). */
  source?: Partial<EmbeddingModelSource>;
  device?: EmbedderDevicePreference;
  /** The model host the user set for embedding models: rerankers come from the same place. */
  remoteHost: () => Promise<string | null>;
}

export interface RerankerDownloadResult {
  model_id: string;
  model_version: string;
  device: EmbedderDevice;
  dtype: EmbeddingDtype;
  load_ms: number;
}

/**
 * Which cross-encoder reranks search results, mirroring the
 * embedding model choice: choosing one downloads it in a `reranker.download`
 * job (progress, cancellable) and turns reranking on when it is ready; null
 * turns it off. The chosen one is restored after a restart without a download
 * (the first query loads it from the browser cache). Unlike an embedding
 * model, a reranker needs no index rebuild: it only reorders candidates.
 */
export class RerankerService {
  readonly #runtime: JobRuntime;
  readonly #engine: RerankerEngine | undefined;
  readonly #models: readonly RerankerModelSpec[];
  readonly #source: Partial<EmbeddingModelSource>;
  readonly #device: EmbedderDevicePreference;
  readonly #remoteHost: () => Promise<string | null>;
  readonly #download: DownloadSlot;
  readonly #record: SettingsRecord<StoredRerankerSettings>;
  #current: HostedReranker | undefined;
  #restored: Promise<void> | undefined;

  constructor(options: RerankerServiceOptions) {
    this.#runtime = options.runtime;
    this.#engine = options.engine;
    this.#models = options.models ?? RERANKER_MODELS;
    this.#source = options.source ?? {};
    this.#device = options.device ?? 'auto';
    this.#remoteHost = options.remoteHost;
    this.#download = new DownloadSlot(options.runtime);
    this.#record = new SettingsRecord(options.settings, RERANKER_SETTINGS_KEY, parseStored);
    options.runtime.register<{ model_id?: unknown; remote_host?: unknown }, RerankerDownloadResult>({
      kind: RERANKER_DOWNLOAD_JOB_KIND,
      concurrency: 1,
      // A download cut off by a closed tab is not resumed: the user chooses again.
      resumable: false,
      run: (context) => this.#runDownload(context),
    });
  }

  async settings(): Promise<RerankerSettingsDto> {
    const current = await this.current();
    return {
      model_id: current?.info.model_id ?? null,
      model_version: current?.info.model_version ?? null,
      download_job_id: await this.#download.active(),
      models: this.#engine ? this.#models.map(optionOf) : [],
    };
  }

  /** The reranker search uses now; undefined when reranking is off. */
  async current(): Promise<HostedReranker | undefined> {
    this.#restored ??= this.#restore();
    await this.#restored;
    return this.#current;
  }

  /**
   * Chooses the reranker: null turns reranking off at once; a catalog model
   * starts a download job (returned); the one in use changes nothing.
   */
  async select(input: SelectRerankerInput): Promise<SelectRerankerResultDto> {
    const { model_id } = parseInput(selectRerankerSchema, input, 'This reranker choice is not valid.');
    const running = await this.#download.active();
    if (running !== null) {
      throw new AppError(
        'STATE_CONFLICT',
        'A reranker is still downloading; wait for it or cancel it first.',
        { job_id: running },
      );
    }
    const current = await this.current();
    if (model_id === null) {
      if (current) {
        await this.#record.update(() => ({ model_id: null, loaded: null }));
        this.#current = undefined;
      }
      return { job: null, settings: await this.settings() };
    }
    if (!findRerankerModel(model_id, this.#models)) {
      throw new AppError('EMBEDDING_MODEL_UNAVAILABLE', `There is no reranker "${model_id}" to choose.`, {
        model_id,
        kind: 'reranker',
        reason: 'unknown_model',
        available: this.#models.map((model) => model.model_id),
      });
    }
    if (!this.#engine) {
      throw new AppError('EMBEDDING_MODEL_UNAVAILABLE', 'Rerankers cannot run here.', {
        model_id,
        kind: 'reranker',
        reason: 'runtime_unavailable',
      });
    }
    if (current?.info.model_id === model_id) return { job: null, settings: await this.settings() };
    const job = await this.#runtime.create(RERANKER_DOWNLOAD_JOB_KIND, {
      model_id,
      remote_host: await this.#remoteHost(),
    });
    this.#download.hold(job.job_id);
    return { job, settings: await this.settings() };
  }

  async #restore(): Promise<void> {
    const stored = await this.#record.get();
    if (stored.model_id === null || !stored.loaded || !this.#engine) return;
    const spec = findRerankerModel(stored.model_id, this.#models);
    if (!spec) return;
    const config: TransformersRerankerConfig = {
      ...this.#config(spec, await this.#remoteHost()),
      // The weights it was loaded with, whatever this device would pick now.
      dtype: stored.loaded.dtype,
    };
    // A choice made while this was reading wins.
    this.#current ??= this.#engine.restore(config, { ...stored.loaded, load_ms: 0 });
  }

  async #runDownload(
    context: JobContext<{ model_id?: unknown; remote_host?: unknown }>,
  ): Promise<RerankerDownloadResult> {
    const { modelId, remoteHost } = downloadInput(context.input);
    const spec = findRerankerModel(modelId, this.#models);
    const engine = this.#engine;
    if (!spec || !engine) {
      throw new AppError('EMBEDDING_MODEL_UNAVAILABLE', `The reranker "${modelId}" cannot be loaded here.`, {
        model_id: modelId,
        kind: 'reranker',
        reason: spec ? 'runtime_unavailable' : 'unknown_model',
      });
    }
    await this.current();
    const config = this.#config(spec, remoteHost);
    const reranker = await loadWithProgress(
      context,
      () => engine.stop(),
      (options) => engine.load(config, options),
    );
    const { info, dtype, device, load_ms } = reranker.loaded;
    await this.#record.update(() => ({ model_id: spec.model_id, loaded: { info, dtype, device } }));
    this.#current = reranker;
    return { model_id: info.model_id, model_version: info.model_version, device, dtype, load_ms };
  }

  #config(spec: RerankerModelSpec, remoteHost: string | null): TransformersRerankerConfig {
    return {
      model: spec,
      source: modelSource(this.#source, remoteHost),
      device: this.#device,
    };
  }
}

function parseStored(stored: Partial<StoredRerankerSettings> | undefined): StoredRerankerSettings {
  return {
    model_id: typeof stored?.model_id === 'string' ? stored.model_id : null,
    loaded: stored?.loaded ?? null,
  };
}

function optionOf(spec: RerankerModelSpec): RerankerOptionDto {
  return {
    model_id: spec.model_id,
    label: spec.label,
    languages: [...spec.languages],
    download_mb: downloadMb(spec),
  };
}
