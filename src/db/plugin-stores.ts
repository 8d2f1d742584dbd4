import type { PluginErrorDto, PluginSettingValue, PluginState } from '../contracts/plugin-types';
import type { NotesAgentDatabase } from './database';

/**
 * The plugin tables (schema version 9). Like the agent's, they are reached by
 * name so the typed database class stays as it is. Secrets are not here:
 * only their vault references are.
 */
export const PLUGIN_STORES = {
  /** One row per installed plugin: manifest, state, grants and the files it runs. */
  plugins: '&plugin_id, state',
  /** Non-secret values, the schema version they were written for, and secret references. */
  plugin_settings: '&plugin_id',
} as const satisfies Record<string, string>;

const PLUGINS = 'plugins';
const SETTINGS = 'plugin_settings';

export interface PluginRow {
  plugin_id: string;
  /** The validated manifest, as JSON. */
  manifest: unknown;
  /** The validated command contributions and settings schema, as JSON. */
  commands: unknown;
  settings_schema: unknown;
  state: PluginState;
  granted_permissions: string[];
  /** Package files the runtime needs (the worker server module), by package path. */
  files: Record<string, Uint8Array>;
  installed_at: string;
  updated_at: string;
  error: PluginErrorDto | null;
}

export interface PluginSettingsRow {
  plugin_id: string;
  schema_version: number;
  values: Record<string, PluginSettingValue>;
  /** Setting key → `plugin.<sha256(plugin_id\0key)>`, for the secrets that are configured. */
  secret_refs: Record<string, string>;
}

export class PluginRepository {
  readonly #db: NotesAgentDatabase;

  constructor(db: NotesAgentDatabase) {
    this.#db = db;
  }

  get #plugins() {
    return this.#db.table<PluginRow, string>(PLUGINS);
  }

  get #settings() {
    return this.#db.table<PluginSettingsRow, string>(SETTINGS);
  }

  get(pluginId: string): Promise<PluginRow | undefined> {
    return this.#plugins.get(pluginId);
  }

  list(): Promise<PluginRow[]> {
    return this.#plugins.orderBy('plugin_id').toArray();
  }

  /** Adds the plugin and its empty settings in one transaction; false when the id is taken. */
  async add(row: PluginRow, settings: PluginSettingsRow): Promise<boolean> {
    return this.#db.transaction('rw', this.#plugins, this.#settings, async () => {
      if (await this.#plugins.get(row.plugin_id)) return false;
      await this.#plugins.add(row);
      await this.#settings.put(settings);
      return true;
    });
  }

  async update(
    pluginId: string,
    patch: Partial<Omit<PluginRow, 'plugin_id'>>,
  ): Promise<PluginRow | undefined> {
    return this.#db.transaction('rw', this.#plugins, async () => {
      const current = await this.#plugins.get(pluginId);
      if (!current) return undefined;
      const next = { ...current, ...patch };
      await this.#plugins.put(next);
      return next;
    });
  }

  getSettings(pluginId: string): Promise<PluginSettingsRow | undefined> {
    return this.#settings.get(pluginId);
  }

  async putSettings(row: PluginSettingsRow): Promise<void> {
    await this.#settings.put(row);
  }

  /** The plugin row and its settings namespace go together. */
  async remove(pluginId: string): Promise<void> {
    await this.#db.transaction('rw', this.#plugins, this.#settings, async () => {
      await this.#plugins.delete(pluginId);
      await this.#settings.delete(pluginId);
    });
  }
}
