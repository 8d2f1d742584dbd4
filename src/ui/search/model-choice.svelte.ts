/** A model choice shown in the index settings (its settings DTO) and the download it follows. */
export class ModelChoiceState<Settings> {
  #settings = $state.raw<Settings | null>(null);
  #downloadJobId = $state<string | null>(null);

  get settings(): Settings | null {
    return this.#settings;
  }
  get downloadJobId(): string | null {
    return this.#downloadJobId;
  }

  setSettings(settings: Settings): void {
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
