/**
 * Whether the page shows a dark theme now, as reactive state: what draws its
 * own colours (Mermaid diagrams) re-renders when a theme is switched or, under
 * "follow system", when the OS switches.
 */
export class AppearanceState {
  #dark = $state(false);

  get dark(): boolean {
    return this.#dark;
  }

  setDark(dark: boolean): void {
    this.#dark = dark;
  }

  reset(): void {
    this.#dark = false;
  }
}

export const appearance = new AppearanceState();
