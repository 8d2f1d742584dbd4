import type { LocalModelsDto, ModelSourcesDto } from '../../contracts/local-models';

/** What the local-model views show: the catalog with device and cache state, the model hosts. */
export class LocalModelsState {
  #data = $state.raw<LocalModelsDto | null>(null);
  /** Why the list could not be read (no worker), or null. */
  #unavailable = $state<string | null>(null);
  #sources = $state.raw<ModelSourcesDto | null>(null);
  /** Model → the refusal or failure of its last download, in plain words. */
  #errors = $state.raw<Record<string, string>>({});

  get data(): LocalModelsDto | null {
    return this.#data;
  }
  get unavailable(): string | null {
    return this.#unavailable;
  }
  get sources(): ModelSourcesDto | null {
    return this.#sources;
  }
  errorOf(model: string): string | null {
    return this.#errors[model] ?? null;
  }

  setData(data: LocalModelsDto | null, unavailable: string | null = null): void {
    this.#data = data;
    this.#unavailable = unavailable;
  }
  setSources(sources: ModelSourcesDto): void {
    this.#sources = sources;
  }
  setError(model: string, message: string | null): void {
    const { [model]: _previous, ...rest } = this.#errors;
    this.#errors = message === null ? rest : { ...rest, [model]: message };
  }
}

export const localModels = new LocalModelsState();
