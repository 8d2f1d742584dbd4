import {
  AppError,
  BUILTIN_EMBEDDING_MODEL_ID,
  EMBEDDING_DOWNLOAD_JOB_KIND,
  parseInput,
  selectEmbeddingModelSchema,
  updateEmbeddingSourceSchema,
  type EmbeddingModelOptionDto,
  type EmbeddingSettingsDto,
  type SelectEmbeddingModelInput,
  type SelectEmbeddingModelResultDto,
  type UpdateEmbeddingSourceInput,
} from '../contracts';
import type { JobContext, JobRuntime } from '../core/job-runtime';
import type { SettingsRepository } from '../db';
import { HashEmbedder, type EmbeddingModelInfo } from '../retrieval';
import {
  DEFAULT_EMBEDDING_MODEL_SOURCE,
  EMBEDDING_MODELS,
  findEmbeddingModel,
  type EmbeddingDtype,
  type EmbeddingModelSource,
  type EmbeddingModelSpec,
} from '../retrieval/embedding-models';
import type {
  EmbedderDevice,
  EmbedderDevicePreference,
  TransformersEmbedderConfig,
} from '../retrieval/transformers-embedder';
import type { EmbeddingEngine } from './embedding-engine';
import {
  DownloadSlot,
  downloadInput,
  downloadMb,
  loadWithProgress,
  modelSource,
  SettingsRecord,
} from './model-download';
import type { EmbedderPair, SearchIndexer } from '../retrieval/search-indexer';

/** The settings row: what the user chose, and what it loaded as (to restore it without a download). */
export const EMBEDDING_SETTINGS_KEY = 'embedding';

export interface StoredEmbeddingSettings {
  model_id: string;
  remote_host: string | null;
  loaded: { info: EmbeddingModelInfo; dtype: EmbeddingDtype; device: EmbedderDevice } | null;
}

export interface EmbeddingServiceOptions {
  settings: SettingsRepository;
  runtime: JobRuntime;
  indexer: SearchIndexer;
  /** Where transformers.js models run; without one only the built-in hash-v1 can be chosen. */
  engine?: EmbeddingEngine | undefined;
  /** The catalog offered; the app's by default. */
  models?: readonly EmbeddingModelSpec[];
  /**
   * Fixed parts of the model source: the ONNX Runtime WASM files the app
   * serves (so nothing comes from a CDN), or a local model folder in tests.
   * The model host comes from the settings.
   */
  source?: Partial<EmbeddingModelSource>;
  device?: EmbedderDevicePreference;
}

export interface EmbeddingDownloadResult {
  model_id: string;
  model_version: string;
  dimension: number;
  device: EmbedderDevice;
  dtype: EmbeddingDtype;
  load_ms: number;
}

const BUILTIN_OPTION: EmbeddingModelOptionDto = {
  model_id: BUILTIN_EMBEDDING_MODEL_ID,
  label: 'hash-v1 (built in, no download)',
  languages: ['zh', 'en'],
  dimension: new HashEmbedder().info.dimension,
  download_mb: 0,
  builtin: true,
};

/**
 * Which embedding model the search index uses (§9.9). Choosing a
 * model downloads it in an `embedding.download` job (progress, cancellable);
 * when it is ready the indexer switches to it, the stored vectors become
 * incompatible and the UI offers the `vectors` rebuild. Until that rebuild
 * completes, vector and hybrid queries fail with INDEX_MODEL_MISMATCH and
 * the UI falls back to full-text: old and new vectors are never compared.
 */
export class EmbeddingService {
  readonly #runtime: JobRuntime;
  readonly #indexer: SearchIndexer;
  readonly #engine: EmbeddingEngine | undefined;
  readonly #models: readonly EmbeddingModelSpec[];
  readonly #source: Partial<EmbeddingModelSource>;
  readonly #device: EmbedderDevicePreference;
  readonly #download: DownloadSlot;
  /** Settings writes take turns, so a download's end and a host change do not undo each other. */
  readonly #record: SettingsRecord<StoredEmbeddingSettings>;

  constructor(options: EmbeddingServiceOptions) {
    this.#runtime = options.runtime;
    this.#indexer = options.indexer;
    this.#engine = options.engine;
    this.#models = options.models ?? EMBEDDING_MODELS;
    this.#source = options.source ?? {};
    this.#device = options.device ?? 'auto';
    this.#download = new DownloadSlot(options.runtime);
    this.#record = new SettingsRecord(options.settings, EMBEDDING_SETTINGS_KEY, parseStored);
    options.runtime.register<{ model_id?: unknown; remote_host?: unknown }, EmbeddingDownloadResult>({
      kind: EMBEDDING_DOWNLOAD_JOB_KIND,
      concurrency: 1,
      // A download cut off by a closed tab is not resumed: the user chooses again.
      resumable: false,
      run: (context) => this.#runDownload(context),
    });
  }

  async settings(): Promise<EmbeddingSettingsDto> {
    const stored = await this.#record.get();
    return {
      model_id: this.#indexer.embedder.info.model_id,
      active: { ...this.#indexer.embedder.info },
      remote_host: stored.remote_host,
      default_remote_host: DEFAULT_EMBEDDING_MODEL_SOURCE.remote_host ?? '',
      download_job_id: await this.#download.active(),
      models: [BUILTIN_OPTION, ...(this.#engine ? this.#models.map(optionOf) : [])],
    };
  }

  /**
   * Chooses the model new vectors and queries use. The built-in one switches at
   * once; another starts a download job (returned). Choosing the model in use
   * changes nothing.
   */
  async select(input: SelectEmbeddingModelInput): Promise<SelectEmbeddingModelResultDto> {
    const { model_id } = parseInput(
      selectEmbeddingModelSchema,
      input,
      'This embedding model choice is not valid.',
    );
    const running = await this.#download.active();
    if (running !== null) {
      throw new AppError(
        'STATE_CONFLICT',
        'An embedding model is still downloading; wait for it or cancel it first.',
        { job_id: running },
      );
    }
    if (model_id === BUILTIN_EMBEDDING_MODEL_ID) {
      if (this.#indexer.embedder.info.model_id !== BUILTIN_EMBEDDING_MODEL_ID) {
        await this.#record.update((stored) => ({ ...stored, model_id, loaded: null }));
        const hash = new HashEmbedder();
        this.#indexer.setEmbedder({ passages: hash, queries: hash });
      }
      return { job: null, settings: await this.settings() };
    }
    const spec = findEmbeddingModel(model_id, this.#models);
    if (!spec) {
      throw new AppError(
        'EMBEDDING_MODEL_UNAVAILABLE',
        `There is no embedding model "${model_id}" to choose.`,
        {
          model_id,
          reason: 'unknown_model',
          available: [BUILTIN_EMBEDDING_MODEL_ID, ...this.#models.map((model) => model.model_id)],
        },
      );
    }
    if (!this.#engine) {
      throw new AppError(
        'EMBEDDING_MODEL_UNAVAILABLE',
        'Embedding models cannot run here; only the built-in hash-v1 is available.',
        { model_id, reason: 'runtime_unavailable' },
      );
    }
    if (this.#indexer.embedder.info.model_id === model_id) {
      return { job: null, settings: await this.settings() };
    }
    const { remote_host } = await this.#record.get();
    const job = await this.#runtime.create(EMBEDDING_DOWNLOAD_JOB_KIND, { model_id, remote_host });
    this.#download.hold(job.job_id);
    return { job, settings: await this.settings() };
  }

  /** Sets the host model files are downloaded from (null or '': the default). Applies to the next download. */
  async updateSource(input: UpdateEmbeddingSourceInput): Promise<EmbeddingSettingsDto> {
    const { remote_host } = parseInput(updateEmbeddingSourceSchema, input, 'This model host is not valid.');
    await this.#record.update((stored) => ({ ...stored, remote_host }));
    return this.settings();
  }

  /**
   * The model chosen in an earlier session, for the indexer to start with.
   * Nothing is loaded now: the first embed loads it from the browser cache.
   */
  async restore(): Promise<EmbedderPair | undefined> {
    const stored = await this.#record.get();
    if (stored.model_id === BUILTIN_EMBEDDING_MODEL_ID || !stored.loaded || !this.#engine) return undefined;
    const spec = findEmbeddingModel(stored.model_id, this.#models);
    if (!spec) return undefined;
    const config: TransformersEmbedderConfig = {
      ...this.#config(spec, stored.remote_host),
      // The weights it was loaded with, whatever this device would pick now.
      dtype: stored.loaded.dtype,
    };
    const embedder = this.#engine.restore(config, { ...stored.loaded, load_ms: 0 });
    return { passages: embedder, queries: embedder.forQueries() };
  }

  /** The model host chosen (null: the default); the reranker downloads from it too. */
  async remoteHost(): Promise<string | null> {
    return (await this.#record.get()).remote_host;
  }

  async #runDownload(
    context: JobContext<{ model_id?: unknown; remote_host?: unknown }>,
  ): Promise<EmbeddingDownloadResult> {
    const { modelId, remoteHost } = downloadInput(context.input);
    const spec = findEmbeddingModel(modelId, this.#models);
    const engine = this.#engine;
    if (!spec || !engine) {
      throw new AppError(
        'EMBEDDING_MODEL_UNAVAILABLE',
        `The embedding model "${modelId}" cannot be loaded here.`,
        {
          model_id: modelId,
          reason: spec ? 'runtime_unavailable' : 'unknown_model',
        },
      );
    }
    const config = this.#config(spec, remoteHost);
    const embedder = await loadWithProgress(
      context,
      () => engine.stop(),
      (options) => engine.load(config, options),
    );
    const { info, dtype, device, load_ms } = embedder.loaded;
    await this.#record.update((stored) => ({
      ...stored,
      model_id: spec.model_id,
      loaded: { info, dtype, device },
    }));
    this.#indexer.setEmbedder({ passages: embedder, queries: embedder.forQueries() });
    return {
      model_id: info.model_id,
      model_version: info.model_version,
      dimension: info.dimension,
      device,
      dtype,
      load_ms,
    };
  }

  #config(spec: EmbeddingModelSpec, remoteHost: string | null): TransformersEmbedderConfig {
    return {
      model: spec,
      source: modelSource(this.#source, remoteHost),
      device: this.#device,
    };
  }
}

function parseStored(stored: Partial<StoredEmbeddingSettings> | undefined): StoredEmbeddingSettings {
  return {
    model_id: typeof stored?.model_id === 'string' ? stored.model_id : BUILTIN_EMBEDDING_MODEL_ID,
    remote_host: typeof stored?.remote_host === 'string' ? stored.remote_host : null,
    loaded: stored?.loaded ?? null,
  };
}

function optionOf(spec: EmbeddingModelSpec): EmbeddingModelOptionDto {
  return {
    model_id: spec.model_id,
    label: spec.label,
    languages: [...spec.languages],
    dimension: spec.dimension,
    download_mb: downloadMb(spec),
    builtin: false,
  };
}
