import { DEFAULT_SETTINGS, type SettingsDto } from '../../contracts/settings';

export class SettingsState {
  #value = $state.raw<SettingsDto>(DEFAULT_SETTINGS);
  #loaded = $state(false);

  get value(): SettingsDto {
    return this.#value;
  }

  get loaded(): boolean {
    return this.#loaded;
  }

  set(value: SettingsDto): void {
    this.#value = value;
    this.#loaded = true;
  }

  reset(): void {
    this.#value = DEFAULT_SETTINGS;
    this.#loaded = false;
  }
}

export const settings = new SettingsState();
