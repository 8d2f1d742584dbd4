import { registerSW } from 'virtual:pwa-register';
import { t } from './i18n';
import { toasts } from './toasts/toasts.svelte';

type UpdateServiceWorker = (reloadPage?: boolean) => Promise<void>;

/**
 * The service worker's life: "update available" (the user chooses when to
 * reload, so no typing is interrupted) and "ready to work offline".
 */
export class PwaState {
  #needRefresh = $state(false);
  #offlineReady = $state(false);
  #updateServiceWorker: UpdateServiceWorker | null = null;

  get needRefresh(): boolean {
    return this.#needRefresh;
  }

  get offlineReady(): boolean {
    return this.#offlineReady;
  }

  register(): void {
    if (this.#updateServiceWorker || typeof navigator === 'undefined' || !('serviceWorker' in navigator))
      return;
    this.#updateServiceWorker = registerSW({
      immediate: true,
      onNeedRefresh: () => {
        this.#needRefresh = true;
      },
      onOfflineReady: () => {
        this.#offlineReady = true;
        toasts.show(t('pwa.offlineReady'), { kind: 'success' });
      },
      onRegisterError: (error: unknown) => {
        console.warn('NotesAgent: service worker registration failed', error);
      },
    });
  }

  /** Activates the waiting service worker; the page reloads when it takes over. */
  async update(): Promise<void> {
    this.#needRefresh = false;
    await this.#updateServiceWorker?.(true);
  }

  dismiss(): void {
    this.#needRefresh = false;
  }

  reset(): void {
    this.#needRefresh = false;
    this.#offlineReady = false;
  }
}

export const pwa = new PwaState();
