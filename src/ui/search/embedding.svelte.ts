import type { EmbeddingSettingsDto } from '../../contracts/embedding';

/** The embedding model settings shown beside the index status, and the download they follow. */
export class EmbeddingState {
  #settings = $state.raw<EmbeddingSettingsDto | null>(null);
  #downloadJobId = $state<string | null>(null);

  get settings(): EmbeddingSettingsDto | null {
    return this.#settings;
  }
  get downloadJobId(): string | null {
    return this.#downloadJobId;
  }

  setSettings(settings: EmbeddingSettingsDto): void {
    this.#settings = settings;
  }
  setDownloadJobId(jobId: string | null): void {
    this.#downloadJobId = jobId;
  }

  reset(): void {
    this.#settings = null;
    this.#downloadJobId = null;
  }
}

export const embedding = new EmbeddingState();
