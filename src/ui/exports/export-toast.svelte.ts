import { untrack } from 'svelte';
import { i18n } from '../i18n';
import { toasts, type ShowToastOptions } from '../toasts/toasts.svelte';

/**
 * Every export's toast has this key: the newest export's word replaces the last one's, so a
 * note exported three ways in a row leaves one toast over the editor, not three.
 */
export const EXPORT_TOAST = 'export';

/** The toast's words and options, written in the current language each time it is called. */
export type ComposeToast = () => { message: string; options: Omit<ShowToastOptions, 'key'> };

/** Stops the last export toast's following of the language. */
let stopFollowing: (() => void) | null = null;

/**
 * Shows the export's toast, and while it is on screen writes it again in the new language
 * when the UI's language changes: a toast from before a switch stayed in the old language
 * over the switched page (and over the Export options dialog). The toast keeps the export's
 * facts (file name, warnings), not its sentence, which `compose` makes from them.
 */
export function showExportToast(compose: ComposeToast): void {
  stopFollowing?.();
  const show = () => {
    const { message, options } = compose();
    return toasts.show(message, { ...options, key: EXPORT_TOAST });
  };
  let id = show();
  let shownIn = i18n.locale;
  let stopped = false;
  const stopThis = (): void => {
    if (stopped) return;
    stopped = true;
    dispose();
    if (stopFollowing === stopThis) stopFollowing = null;
  };
  const dispose = $effect.root(() => {
    $effect(() => {
      const locale = i18n.locale;
      const onScreen = toasts.items.some((toast) => toast.id === id);
      if (!onScreen) {
        // Gone (timed out, closed, replaced by the next export): nothing left to follow.
        queueMicrotask(stopThis);
        return;
      }
      if (locale === shownIn) return;
      shownIn = locale;
      id = untrack(show);
    });
  });
  stopFollowing = stopThis;
}
