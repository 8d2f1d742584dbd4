import type { NotesAgentDatabase } from './database';
import type { ProviderRow } from './schema';

/** Provider configurations. Validation and the API key (vault) are the service's. */
export class ProviderRepository {
  readonly #db: NotesAgentDatabase;

  constructor(db: NotesAgentDatabase) {
    this.#db = db;
  }

  get(providerId: string): Promise<ProviderRow | undefined> {
    return this.#db.providers.get(providerId);
  }

  list(): Promise<ProviderRow[]> {
    return this.#db.providers.orderBy('provider_id').toArray();
  }

  count(): Promise<number> {
    return this.#db.providers.count();
  }

  /** Adds a row; false when the id is taken. */
  async add(row: ProviderRow): Promise<boolean> {
    return this.#db.transaction('rw', this.#db.providers, async () => {
      if (await this.#db.providers.get(row.provider_id)) return false;
      await this.#db.providers.add(row);
      return true;
    });
  }

  async put(row: ProviderRow): Promise<void> {
    await this.#db.providers.put(row);
  }

  async delete(providerId: string): Promise<void> {
    await this.#db.providers.delete(providerId);
  }
}
