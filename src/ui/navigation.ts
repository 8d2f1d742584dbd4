import { formatRoute, notesRoute, parseRoute, type Route } from './router';

/**
 * Views move by changing the URL hash; `route-sync.svelte.ts` applies the
 * hash to the UI. This module has no imports beyond the router, so any
 * service or component can navigate without an import cycle.
 */

type Applier = (route: Route) => void;
let applier: Applier | null = null;
/** A hash applied at once by `navigate`, whose hashchange event is still to come. */
let appliedEarly: string | null = null;

/** The router applies routes; `navigate` hands them over at once, in the caller's task. */
export function setRouteApplier(apply: Applier | null): void {
  applier = apply;
  appliedEarly = null;
}

/** For the hashchange handler: true when `navigate` already applied this hash. */
export function takeAppliedEarly(hash: string): boolean {
  const early = appliedEarly === hash;
  appliedEarly = null;
  return early;
}

/** The route the address bar shows now. */
export function currentRoute(): Route {
  return parseRoute(location.hash);
}

/**
 * Goes to a route: a new history entry (or the current one replaced). Going
 * to the route already shown applies it again (a tap on the open note on a
 * phone shows the editor pane).
 */
export function navigate(route: Route, options: { replace?: boolean } = {}): void {
  const hash = formatRoute(route);
  if (options.replace || hash === location.hash) {
    if (hash !== location.hash) history.replaceState(history.state, '', hash);
  } else {
    location.hash = hash;
    // The hashchange event comes a task later; the view changes now, with the
    // state the caller set alongside (a block to reveal, a title to focus).
    appliedEarly = hash;
  }
  if (applier) applier(route);
  else window.dispatchEvent(new HashChangeEvent('hashchange', { newURL: location.href }));
}

/**
 * Opens a note (its URL is `#/notes/<id>`), keeping the list's folder and
 * tag filters; from the trash the note opens in the trash.
 */
export function openNote(noteId: string): void {
  const route = currentRoute();
  if (route.view === 'notes') navigate({ ...route, noteId });
  else if (route.view === 'trash') navigate({ view: 'trash', noteId });
  else navigate(notesRoute({ noteId }));
}

/**
 * The address named a note that could not be opened (it no longer exists): it names the note
 * still shown instead (or the list), so a reload or Back does not meet the error again.
 */
export function replaceMissingNote(missingId: string, shownId: string | null): void {
  // No address bar (a test without a page): nothing to correct.
  if (typeof location === 'undefined') return;
  const route = currentRoute();
  if ((route.view === 'notes' || route.view === 'trash') && route.noteId === missingId)
    navigate({ ...route, noteId: shownId }, { replace: true });
}
