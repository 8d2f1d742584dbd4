/**
 * Whether the page shows a dark theme now, as reactive state: what draws its
 * own colours (Mermaid diagrams) re-renders when a theme is switched or, under
 * "follow system", when the OS switches.
 */
export class AppearanceState {
  #dark = $state(false);
  #themeId = $state('light');

  get dark(): boolean {
    return this.#dark;
  }

  /** The theme on screen: an enabled package's id, else the built-in `light` or `dark`. */
  get themeId(): string {
    return this.#themeId;
  }

  setThemeId(themeId: string): void {
    this.#themeId = themeId;
  }

  setDark(dark: boolean): void {
    this.#dark = dark;
  }

  reset(): void {
    this.#dark = false;
    this.#themeId = 'light';
  }
}

export const appearance = new AppearanceState();
