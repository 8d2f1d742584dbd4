import type { SettingsRepository } from '../db';

/**
 * The tools the user turned off for the agent, by name. Only the "off" ones are kept, so a
 * tool that appears later (a plugin installed after the choice) is on until turned off.
 */
export interface ToolChoiceStore {
  disabled(): Promise<string[]>;
  setDisabled(names: string[]): Promise<void>;
}

const DISABLED_TOOLS_KEY = 'agent.disabled_tools';

/** Kept beside the other per-install settings, as one small row. */
export function settingsToolChoiceStore(settings: SettingsRepository): ToolChoiceStore {
  return {
    async disabled() {
      const stored = await settings.get<unknown>(DISABLED_TOOLS_KEY);
      // A row written by another version that is not a list of names counts as nothing turned off.
      return Array.isArray(stored) ? stored.filter((name): name is string => typeof name === 'string') : [];
    },
    setDisabled: (names) => settings.put(DISABLED_TOOLS_KEY, names),
  };
}

export function memoryToolChoiceStore(): ToolChoiceStore {
  let names: string[] = [];
  return {
    disabled: async () => [...names],
    setDisabled: async (next) => {
      names = [...next];
    },
  };
}
