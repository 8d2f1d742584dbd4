import type {
  PluginCommandDto,
  PluginDto,
  PluginSettingsDto,
  PluginToolDto,
} from '../../contracts/plugin-types';
import type { PluginRefusal } from './plugin-refusal';

/** What the plugin settings and the command palette show; filled by `plugins.service.ts`. */
export class PluginsState {
  #plugins = $state.raw<PluginDto[]>([]);
  #settings = $state.raw<Record<string, PluginSettingsDto>>({});
  #tools = $state.raw<PluginToolDto[]>([]);
  #commands = $state.raw<PluginCommandDto[]>([]);
  #paletteOpen = $state(false);
  #companion = $state.raw<{ paired: boolean; url: string | null }>({ paired: false, url: null });
  #refusal = $state.raw<PluginRefusal | null>(null);
  #installing = $state(false);

  /** The details of the error a plugin shows (its stored row keeps them), or null. */
  errorDetailsOf(pluginId: string): Readonly<Record<string, unknown>> | null {
    const plugin = this.#plugins.find((candidate) => candidate.plugin_id === pluginId);
    return plugin?.error?.details ?? null;
  }

  /** Why the last install failed, shown beside the install button until the next attempt. */
  get refusal(): PluginRefusal | null {
    return this.#refusal;
  }

  setRefusal(refusal: PluginRefusal | null): void {
    this.#refusal = refusal;
  }

  get installing(): boolean {
    return this.#installing;
  }

  setInstalling(installing: boolean): void {
    this.#installing = installing;
  }

  get companion(): { paired: boolean; url: string | null } {
    return this.#companion;
  }

  setCompanion(companion: { paired: boolean; url: string | null }): void {
    this.#companion = companion;
  }

  get plugins(): readonly PluginDto[] {
    return this.#plugins;
  }

  get tools(): readonly PluginToolDto[] {
    return this.#tools;
  }

  get commands(): readonly PluginCommandDto[] {
    return this.#commands;
  }

  get paletteOpen(): boolean {
    return this.#paletteOpen;
  }

  settingsOf(pluginId: string): PluginSettingsDto | undefined {
    return this.#settings[pluginId];
  }

  setPlugins(plugins: PluginDto[], tools: PluginToolDto[]): void {
    this.#plugins = plugins;
    this.#tools = tools;
    const kept: Record<string, PluginSettingsDto> = {};
    for (const plugin of plugins) {
      const settings = this.#settings[plugin.plugin_id];
      if (settings) kept[plugin.plugin_id] = settings;
    }
    this.#settings = kept;
  }

  setSettings(settings: PluginSettingsDto): void {
    this.#settings = { ...this.#settings, [settings.plugin_id]: settings };
  }

  setCommands(commands: PluginCommandDto[]): void {
    this.#commands = commands;
  }

  setPaletteOpen(open: boolean): void {
    this.#paletteOpen = open;
  }

  reset(): void {
    this.#plugins = [];
    this.#settings = {};
    this.#tools = [];
    this.#commands = [];
    this.#paletteOpen = false;
    this.#companion = { paired: false, url: null };
    this.#refusal = null;
    this.#installing = false;
  }
}

export const pluginsState = new PluginsState();
