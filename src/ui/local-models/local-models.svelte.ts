import type { LocalModelsDto, ModelSourcesDto } from '../../contracts/local-models';
import type { ErrorParts } from '../error-message';

/** What the local-model views show: the catalog with device and cache state, the model hosts. */
export class LocalModelsState {
  #data = $state.raw<LocalModelsDto | null>(null);
  /** Why the list could not be read (no worker), or null. */
  #unavailable = $state<string | null>(null);
  #sources = $state.raw<ModelSourcesDto | null>(null);
  /** Model → the refusal or failure of its last download. */
  #errors = $state.raw<Record<string, ErrorParts>>({});

  get data(): LocalModelsDto | null {
    return this.#data;
  }
  get unavailable(): string | null {
    return this.#unavailable;
  }
  get sources(): ModelSourcesDto | null {
    return this.#sources;
  }
  errorOf(model: string): ErrorParts | null {
    return this.#errors[model] ?? null;
  }

  setData(data: LocalModelsDto | null, unavailable: string | null = null): void {
    this.#data = data;
    this.#unavailable = unavailable;
  }
  setSources(sources: ModelSourcesDto): void {
    this.#sources = sources;
  }
  setError(model: string, error: ErrorParts | null): void {
    const { [model]: _previous, ...rest } = this.#errors;
    this.#errors = error === null ? rest : { ...rest, [model]: error };
  }
}

export const localModels = new LocalModelsState();
