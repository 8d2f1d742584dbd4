export type NarrowPane = 'list' | 'editor';

/** Which panels are open; matters on narrow windows, where only one pane fits. */
export class LayoutState {
  #sidebarOpen = $state(false);
  #settingsOpen = $state(false);
  #narrowPane = $state<NarrowPane>('list');

  get sidebarOpen(): boolean {
    return this.#sidebarOpen;
  }

  get settingsOpen(): boolean {
    return this.#settingsOpen;
  }

  get narrowPane(): NarrowPane {
    return this.#narrowPane;
  }

  setSidebarOpen(open: boolean): void {
    this.#sidebarOpen = open;
  }

  setSettingsOpen(open: boolean): void {
    this.#settingsOpen = open;
  }

  showPane(pane: NarrowPane): void {
    this.#narrowPane = pane;
  }

  reset(): void {
    this.#sidebarOpen = false;
    this.#settingsOpen = false;
    this.#narrowPane = 'list';
  }
}

export const layout = new LayoutState();
