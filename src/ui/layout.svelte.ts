export type NarrowPane = 'list' | 'editor';
/** The main area: the notebook (list + editor), the chat, the agent or transcription. */
export type MainView = 'notes' | 'chat' | 'agent' | 'transcription' | 'benchmarks';

/** Which panels are open; matters on narrow windows, where only one pane fits. */
export class LayoutState {
  #sidebarOpen = $state(false);
  #settingsOpen = $state(false);
  #narrowPane = $state<NarrowPane>('list');
  #view = $state<MainView>('notes');

  get view(): MainView {
    return this.#view;
  }

  setView(view: MainView): void {
    this.#view = view;
  }

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
    this.#view = 'notes';
  }
}

export const layout = new LayoutState();
