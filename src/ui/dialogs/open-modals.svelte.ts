/**
 * The modal dialogs open now, the last one on top. A modal makes the rest of
 * the page inert and hides it under its backdrop, so whatever must stay
 * visible and usable meanwhile (the toasts) moves into the top one.
 */
class OpenModals {
  #stack = $state.raw<readonly HTMLDialogElement[]>([]);

  get top(): HTMLDialogElement | null {
    return this.#stack.at(-1) ?? null;
  }

  opened(dialog: HTMLDialogElement): void {
    this.#stack = [...this.#stack.filter((open) => open !== dialog), dialog];
  }

  closed(dialog: HTMLDialogElement): void {
    this.#stack = this.#stack.filter((open) => open !== dialog);
  }
}

export const openModals = new OpenModals();
