import { tick } from 'svelte';
import { clock } from './clock.svelte';
import { flushDrafts, recoverDrafts, reopenLastNote, saveNow, spillDrafts } from './editor/editor.service';
import { installGlobalErrorHandlers } from './errors';
import { resumeJobs } from './jobs/archive.service';
import { announceInterruptedImports } from './jobs/import-notice';
import { refreshAll } from './notes/notes.service';
import { followOtherTabs } from './notes/store-changes.service';
import { routerStarted, startRouter } from './route-sync.svelte';
import { applyFirstPaintLocale, loadSettings, requestPersistentStorage } from './settings/settings.service';
import { loadActiveTheme } from './appearance/themes.service';

/**
 * Start-up, in the order that keeps typed text safe: settings first (locale,
 * autosave delay), then drafts a crash left behind are saved, and only then
 * the lists load and the last note re-opens.
 */
export async function startApp(): Promise<() => void> {
  void applyFirstPaintLocale();
  const removeErrorHandlers = installGlobalErrorHandlers();
  const removeLifecycleHandlers = installSaveOnLeave();
  clock.start();
  void requestPersistentStorage();
  await loadSettings();
  void loadActiveTheme();
  await recoverDrafts();
  // Listening before the lists load: a write another tab makes meanwhile is not missed.
  const stopFollowingTabs = followOtherTabs();
  await refreshAll();
  void resumeJobs();
  void announceInterruptedImports();
  // The address (a bookmark, a reload) says what to show; without a note in it the last one reopens.
  const router = startRouter();
  if (!router.openedNote) await reopenLastNote();
  // State settled by start-up replaced the first history entry; from here on changes add entries.
  await tick();
  routerStarted();
  return () => {
    router.stop();
    removeErrorHandlers();
    removeLifecycleHandlers();
    stopFollowingTabs();
    clock.stop();
  };
}

/**
 * Tab hidden, page closing: save now. Drafts not yet written go to the core
 * when the tab is hidden, and to localStorage synchronously when the page
 * goes (an asynchronous write would not outlive it).
 */
function installSaveOnLeave(): () => void {
  const onVisibilityChange = () => {
    if (document.visibilityState !== 'hidden') return;
    void flushDrafts();
    void saveNow();
  };
  const onPageHide = () => {
    spillDrafts();
    void saveNow();
  };
  const onPageShow = (event: PageTransitionEvent) => {
    if (event.persisted) spillDrafts(true);
  };
  document.addEventListener('visibilitychange', onVisibilityChange);
  window.addEventListener('pagehide', onPageHide);
  window.addEventListener('pageshow', onPageShow);
  return () => {
    document.removeEventListener('visibilitychange', onVisibilityChange);
    window.removeEventListener('pagehide', onPageHide);
    window.removeEventListener('pageshow', onPageShow);
  };
}
