import type { RerankerSettingsDto } from '../../contracts/reranker';

/** The reranker settings shown under the embedding model, and the download they follow. */
export class RerankerState {
  #settings = $state.raw<RerankerSettingsDto | null>(null);
  #downloadJobId = $state<string | null>(null);

  get settings(): RerankerSettingsDto | null {
    return this.#settings;
  }
  get downloadJobId(): string | null {
    return this.#downloadJobId;
  }

  setSettings(settings: RerankerSettingsDto): void {
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

export const reranker = new RerankerState();
