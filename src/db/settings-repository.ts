import type { NotesAgentDatabase } from './database';

/** Key/value preferences; validation lives in the settings service. */
export class SettingsRepository {
  readonly #db: NotesAgentDatabase;

  constructor(db: NotesAgentDatabase) {
    this.#db = db;
  }

  async get<T>(key: string): Promise<T | undefined> {
    return (await this.#db.settings.get(key))?.value as T | undefined;
  }

  async put(key: string, value: unknown): Promise<void> {
    await this.#db.settings.put({ key, value });
  }

  async delete(key: string): Promise<void> {
    await this.#db.settings.delete(key);
  }

  async entries(): Promise<Record<string, unknown>> {
    const rows = await this.#db.settings.toArray();
    return Object.fromEntries(rows.map((row) => [row.key, row.value]));
  }
}
