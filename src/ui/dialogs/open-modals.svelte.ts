/**
 * The modal dialogs open now, the last one on top. A modal makes the rest of
 * the page inert and hides it under its backdrop (a popover shown above it is
 * inert too), so what must stay visible and usable meanwhile, the toasts, is
 * shown inside the top one.
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
    if (this.#stack.includes(dialog)) this.#stack = this.#stack.filter((open) => open !== dialog);
  }
}

export const openModals = new OpenModals();
