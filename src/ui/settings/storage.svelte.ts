/** What the browser says about this origin's storage. null: not known or not supported. */
export class StorageState {
  #usage = $state<number | null>(null);
  #quota = $state<number | null>(null);
  #persisted = $state<boolean | null>(null);
  #supported = $state(true);

  get usage(): number | null {
    return this.#usage;
  }
  get quota(): number | null {
    return this.#quota;
  }
  get persisted(): boolean | null {
    return this.#persisted;
  }
  /** False where `navigator.storage.persist` does not exist. */
  get supported(): boolean {
    return this.#supported;
  }

  setEstimate(usage: number | null, quota: number | null): void {
    this.#usage = usage;
    this.#quota = quota;
  }

  setPersisted(persisted: boolean | null): void {
    this.#persisted = persisted;
  }

  setSupported(supported: boolean): void {
    this.#supported = supported;
  }

  reset(): void {
    this.#usage = null;
    this.#quota = null;
    this.#persisted = null;
    this.#supported = true;
  }
}

export const storage = new StorageState();
