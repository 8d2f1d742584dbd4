import type { NotesAgentDatabase } from './database';
import type { ThemeRow } from './schema';

/** Installed theme packages; the service checks everything before a row is written. */
export class ThemeRepository {
  readonly #db: NotesAgentDatabase;

  constructor(db: NotesAgentDatabase) {
    this.#db = db;
  }

  get(themeId: string): Promise<ThemeRow | undefined> {
    return this.#db.themes.get(themeId);
  }

  list(): Promise<ThemeRow[]> {
    return this.#db.themes.orderBy('theme_id').toArray();
  }

  enabled(): Promise<ThemeRow | undefined> {
    return this.#db.themes.where('enabled').equals(1).first();
  }

  /** Adds a theme; false (nothing written) when one with the same id exists. */
  async add(row: ThemeRow): Promise<boolean> {
    return this.#db.transaction('rw', this.#db.themes, async () => {
      if (await this.#db.themes.get(row.theme_id)) return false;
      await this.#db.themes.add(row);
      return true;
    });
  }

  /** Enables one theme (or none, with null) and disables the others, in one transaction. */
  async setEnabled(themeId: string | null): Promise<void> {
    await this.#db.transaction('rw', this.#db.themes, async () => {
      await this.#db.themes.where('enabled').equals(1).modify({ enabled: 0 });
      if (themeId !== null) await this.#db.themes.update(themeId, { enabled: 1 });
    });
  }

  async delete(themeId: string): Promise<boolean> {
    return this.#db.transaction('rw', this.#db.themes, async () => {
      if (!(await this.#db.themes.get(themeId))) return false;
      await this.#db.themes.delete(themeId);
      return true;
    });
  }
}
