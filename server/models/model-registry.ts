import type { IMetonaProviderAdapter } from '../../src/ir';

// Model names as the protocol has them (§1, §2.2): "local <name>" runs on the
// local engine (Ollama), any other name on a configured remote provider.

export const LOCAL_PREFIX = 'local ';

/** The local engine: asks the engine which models it has, and makes an adapter per model. */
export interface LocalEngine {
  /** Installed models; empty when the engine cannot be reached (never throws). */
  listModels(): Promise<string[]>;
  adapterFor(model: string): IMetonaProviderAdapter;
}

/** One remote model and the adapter that serves it (IR adapters hold their model). */
export interface RemoteModel {
  model: string;
  adapter: IMetonaProviderAdapter;
}

export interface ResolvedModel {
  /** The name as list_model shows it. */
  name: string;
  adapter: IMetonaProviderAdapter;
  /** Whose capacity the task uses: `local`, or `remote-<provider id>`; each has its own concurrency limit. */
  backend: string;
}

export const LOCAL_BACKEND = 'local';
const remoteBackend = (adapter: IMetonaProviderAdapter) => `remote-${adapter.providerId}`;

export interface ModelRegistryOptions {
  local?: LocalEngine;
  /** Local models to list even when the engine does not answer. */
  configuredLocal?: string[];
  remote?: RemoteModel[];
  defaultModel?: string;
}

export class ModelRegistry {
  readonly #local?: LocalEngine;
  readonly #configuredLocal: string[];
  readonly #remote: RemoteModel[];
  readonly #defaultModel?: string;

  constructor(options: ModelRegistryOptions) {
    this.#local = options.local;
    this.#configuredLocal = options.configuredLocal ?? [];
    this.#remote = options.remote ?? [];
    this.#defaultModel = options.defaultModel;
  }

  /** Local models first (configured ones, then what the engine reports), then remote ones. */
  async list(): Promise<string[]> {
    const found = this.#local ? await this.#local.listModels() : [];
    const local = [...new Set([...this.#configuredLocal, ...found])].map((name) => `${LOCAL_PREFIX}${name}`);
    return [...local, ...this.#remote.map((entry) => entry.model)];
  }

  /**
   * For commands that name no model (§2.7 exec_unittest_code): the configured
   * default, else the first model list_model shows, so a fresh machine with
   * only Ollama works with what Ollama has pulled.
   */
  async defaultModel(): Promise<string | undefined> {
    if (this.#defaultModel) return this.#defaultModel;
    return (await this.list())[0];
  }

  /**
   * Any `local <name>` goes to the engine, which answers model_not_found for a
   * model it lacks. Remote names match without regard to case: the protocol
   * itself writes "deepseek-R1:32b" and "deepseek-r1:32b".
   */
  resolve(requested: string): ResolvedModel | undefined {
    const name = requested.trim();
    if (name.toLowerCase().startsWith(LOCAL_PREFIX)) {
      const model = name.slice(LOCAL_PREFIX.length).trim();
      if (!this.#local || !model) return undefined;
      return {
        name: `${LOCAL_PREFIX}${model}`,
        adapter: this.#local.adapterFor(model),
        backend: LOCAL_BACKEND,
      };
    }
    const wanted = name.toLowerCase();
    const entry = this.#remote.find((candidate) => candidate.model.toLowerCase() === wanted);
    return entry && { name: entry.model, adapter: entry.adapter, backend: remoteBackend(entry.adapter) };
  }

  /** Every backend a task may need, so each instance can work on all of them. */
  backends(): string[] {
    const remote = this.#remote.map((entry) => remoteBackend(entry.adapter));
    return [...new Set([...(this.#local ? [LOCAL_BACKEND] : []), ...remote])];
  }
}
