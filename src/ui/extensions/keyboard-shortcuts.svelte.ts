/** Whether the keyboard shortcuts dialog is open (Ctrl+/ or the palette's command opens it). */
class KeyboardShortcutsState {
  #open = $state(false);

  get open(): boolean {
    return this.#open;
  }

  setOpen(open: boolean): void {
    this.#open = open;
  }
}

export const keyboardShortcuts = new KeyboardShortcutsState();
