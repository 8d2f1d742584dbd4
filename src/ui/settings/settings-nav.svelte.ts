import { layout } from '../layout.svelte';
import { DEFAULT_SETTINGS_PAGE, type SettingsPageId } from './settings-pages';

/**
 * Which Settings page is shown. On a phone only one of the page list and the page fits:
 * `pageShown` says which (wide windows show both and ignore it).
 */
export class SettingsNavState {
  #page = $state<SettingsPageId>(DEFAULT_SETTINGS_PAGE);
  #pageShown = $state(false);

  get page(): SettingsPageId {
    return this.#page;
  }

  get pageShown(): boolean {
    return this.#pageShown;
  }

  show(page: SettingsPageId): void {
    this.#page = page;
    this.#pageShown = true;
  }

  showList(): void {
    this.#pageShown = false;
  }

  reset(): void {
    this.#page = DEFAULT_SETTINGS_PAGE;
    this.#pageShown = false;
  }
}

export const settingsNav = new SettingsNavState();

/** Opens Settings, at a page when one is given (an error's "open its settings" link). */
export function openSettings(page?: SettingsPageId): void {
  if (page) settingsNav.show(page);
  else settingsNav.showList();
  layout.setSettingsOpen(true);
}
