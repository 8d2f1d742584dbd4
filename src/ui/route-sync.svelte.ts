import { untrack } from 'svelte';
import { agentView } from './agent-runs/agent.svelte';
import { chat } from './chat/chat.svelte';
import { openNote as showNoteInEditor, refreshOpenNote } from './editor/editor.service';
import { editor } from './editor/editor.svelte';
import { openWikiAddress } from './editor/links.service';
import { layout, type MainView } from './layout.svelte';
import { currentRoute, setRouteApplier, takeAppliedEarly } from './navigation';
import { applyPendingOrder, refreshList } from './notes/notes.service';
import { notes } from './notes/notes.svelte';
import { formatRoute, isRouteHash, notesRoute, routeNoteId, type Route } from './router';
import { refreshSearch, setSearchQuery } from './search/search.service';
import { search } from './search/search.svelte';
import { settingsNav } from './settings/settings-nav.svelte';
import { isSettingsPage } from './settings/settings-pages';

/**
 * The URL is where the UI is: a hash change (a link, Back, Forward, a
 * bookmark) is applied to the view state here. Some state still changes
 * without a link (a new note opens, the chat starts a conversation, a plugin
 * switches the view); those changes are written into the history, so Back
 * returns to where the user was.
 */

const VIEW_OF_ROUTE: Record<Route['view'], MainView | null> = {
  notes: 'notes',
  trash: 'notes',
  search: 'notes',
  chat: 'chat',
  agent: 'agent',
  recordings: 'transcription',
  benchmarks: 'benchmarks',
  settings: null,
  wiki: 'notes',
};

/** Set while a hash is being applied at start-up: state written back then replaces the entry. */
let starting = false;
/**
 * The address the page was loaded at. A different one at start-up means a
 * menu item was picked while the app was loading: that pick closes the menu,
 * as it would have later.
 */
const addressAtLoad = typeof location === 'undefined' ? '' : location.hash;
let pickedWhileStarting = false;
/** The entry Settings was opened over, when this page pushed it: closing goes back to it. */
let settingsPushedOver = false;

function record(route: Route, replace = starting): void {
  const hash = formatRoute(route);
  if (hash === location.hash) return;
  if (replace) history.replaceState(history.state, '', hash);
  else history.pushState(history.state, '', hash);
}

/** The notebook's route from its state: the list filters and the open note. */
function notebookRoute(noteId: string | null = editor.noteId): Route {
  if (notes.view === 'trash') return { view: 'trash', noteId };
  if (search.active)
    return noteId === null ? { view: 'search', query: search.query } : notesRoute({ noteId });
  return notesRoute({ noteId, folder: notes.folder, tag: notes.tag });
}

/** Settings at the page shown, or at its page list. */
function settingsRoute(): Route {
  return { view: 'settings', page: settingsNav.pageShown ? settingsNav.page : null };
}

function mainRouteFromState(view: MainView = layout.view): Route {
  switch (view) {
    case 'notes':
      return notebookRoute();
    case 'chat':
      return { view: 'chat', conversationId: chat.conversationId };
    case 'agent':
      return { view: 'agent', runId: agentView.selectedRunId };
    case 'transcription':
      return { view: 'recordings' };
    default:
      return { view };
  }
}

async function openConversation(conversationId: string | null): Promise<void> {
  // The chat's code loads with its view, so the notebook's start-up stays small.
  const { openConversation } = await import('./chat/chat.service');
  await openConversation(conversationId);
}

async function showAgentRun(runId: string | null): Promise<void> {
  // The agent's code loads with its view, as the chat's does.
  const { showRun } = await import('./agent-runs/agent.service');
  await showRun(runId);
}

function showNotebook(list: 'notes' | 'trash', folder: string | null, tag: string | null): void {
  const returning = layout.view !== 'notes';
  layout.setView('notes');
  const changed = notes.view !== list || notes.folder !== folder || notes.tag !== tag;
  notes.setView(list);
  if (list === 'notes') {
    notes.setFolder(folder);
    notes.setTag(tag);
  }
  if (changed) {
    void refreshList({ top: true });
    // The sidebar selection is the search's folder and tag filter.
    refreshSearch();
  }
  // The chat or the agent may have written to the open note meanwhile.
  if (returning) void refreshOpenNote();
  // Shown again: the list takes the order that saves of the open note held back.
  if (returning && !changed) applyPendingOrder();
}

/** At start-up the list pane is shown already, and a note the user opened meanwhile stays. */
let initialApply = false;

function showNoteOrList(noteId: string | null): void {
  if (noteId !== null) void showNoteInEditor(noteId);
  else if (!initialApply) layout.showPane('list');
}

/** Applies a route to the UI state. */
export function applyRoute(route: Route): void {
  // A menu opened while the app was starting (a quick tap on a phone) stays open,
  // unless an item in it was picked meanwhile.
  if (!initialApply || pickedWhileStarting) layout.setSidebarOpen(false);
  if (route.view === 'settings') {
    // `#/settings/<page>` opens that page; a bare `#/settings` leaves the choice to the page list.
    if (isSettingsPage(route.page)) settingsNav.show(route.page);
    layout.setSettingsOpen(true);
    return;
  }
  // At start-up a dialog opened while the app was loading stays open.
  if (!initialApply) {
    settingsPushedOver = false;
    layout.setSettingsOpen(false);
  }
  switch (route.view) {
    case 'notes':
      showNotebook('notes', route.folder, route.tag);
      // A list address leaves search; a note opened from the results keeps them. A search
      // typed while the app was loading is the user's, not the address's: it stays.
      if (route.noteId === null && search.query !== '' && !initialApply) setSearchQuery('');
      showNoteOrList(route.noteId);
      return;
    case 'trash':
      showNotebook('trash', null, null);
      showNoteOrList(route.noteId);
      return;
    case 'search':
      showNotebook('notes', notes.folder, notes.tag);
      if (search.query !== route.query) setSearchQuery(route.query);
      layout.showPane('list');
      return;
    case 'chat':
      layout.setView('chat');
      if (chat.conversationId !== route.conversationId) void openConversation(route.conversationId);
      return;
    case 'wiki':
      showNotebook('notes', notes.folder, notes.tag);
      void openWikiAddress(route.title);
      return;
    case 'agent':
      layout.setView('agent');
      if (agentView.selectedRunId !== route.runId) void showAgentRun(route.runId);
      return;
    default: {
      const view = VIEW_OF_ROUTE[route.view];
      if (view !== null) layout.setView(view);
    }
  }
}

/** Runs `onChange` with each new value of `read` (not with the first). */
function watch<T>(read: () => T, onChange: (value: T) => void): void {
  let first = true;
  $effect(() => {
    const value = read();
    if (first) {
      first = false;
      return;
    }
    untrack(() => onChange(value));
  });
}

function installStateWatchers(): void {
  // A plugin or another service switched the main view.
  watch(
    () => layout.view,
    (view) => {
      const route = currentRoute();
      if (route.view !== 'settings' && VIEW_OF_ROUTE[route.view] !== view) record(mainRouteFromState(view));
    },
  );
  // A note opened without a link (created, reopened at start, opened by a service).
  watch(
    () => editor.noteId,
    (noteId) => {
      if (layout.view !== 'notes') return;
      const route = currentRoute();
      if (route.view === 'settings' || routeNoteId(route) === noteId) return;
      record(notebookRoute(noteId), noteId === null || starting);
    },
  );
  // The phone's back arrow in the editor, or a closed note, shows the list.
  watch(
    () => layout.narrowPane,
    (pane) => {
      if (layout.view !== 'notes') return;
      const route = currentRoute();
      if (route.view === 'settings') return;
      if (pane === 'list' && routeNoteId(route) !== null) record(notebookRoute(null));
      // The note just left, shown again (a search result opened twice): the note watcher
      // above sees the same id, so the visit is recorded here.
      else if (pane === 'editor' && routeNoteId(route) === null && editor.noteId !== null)
        record(notebookRoute(editor.noteId));
    },
  );
  // A new conversation got its id with its first message, or the chat opened one.
  watch(
    () => chat.conversationId,
    (conversationId) => {
      if (layout.view !== 'chat') return;
      const route = currentRoute();
      if (route.view === 'chat' && route.conversationId !== conversationId) {
        record({ view: 'chat', conversationId });
      }
    },
  );
  // Opening or starting a run is an entry of its own, as a conversation is.
  watch(
    () => agentView.selectedRunId,
    (runId) => {
      if (layout.view !== 'agent') return;
      const route = currentRoute();
      if (route.view === 'agent' && route.runId !== runId) record({ view: 'agent', runId });
    },
  );
  // Typing a search: the first character makes an entry, the next ones update it.
  watch(
    () => search.query,
    (query) => {
      if (layout.view !== 'notes' || notes.view !== 'notes') return;
      const route = currentRoute();
      if (route.view === 'settings') return;
      if (query.trim() === '') {
        if (route.view === 'search') record(notebookRoute(null), true);
      } else if (route.view === 'search') {
        if (route.query !== query) record({ view: 'search', query }, true);
      } else if (routeNoteId(route) === null) {
        record({ view: 'search', query });
      }
    },
  );
  // A page picked in Settings replaces the address, so Back still closes Settings.
  watch(
    () => (settingsNav.pageShown ? settingsNav.page : null),
    (page) => {
      const route = currentRoute();
      if (layout.settingsOpen && route.view === 'settings' && route.page !== page)
        record({ view: 'settings', page }, true);
    },
  );
  // Settings opened or closed by its own buttons.
  watch(
    () => layout.settingsOpen,
    (open) => {
      const route = currentRoute();
      if (open && route.view !== 'settings') {
        record(settingsRoute());
        settingsPushedOver = !starting;
      } else if (!open && route.view === 'settings') {
        if (settingsPushedOver) history.back();
        else record(mainRouteFromState(), true);
        settingsPushedOver = false;
      }
    },
  );
}

/**
 * Applies the address the page was opened at and follows later changes.
 * Returns whether that address named a note (else the last note may reopen).
 */
export function startRouter(): { openedNote: boolean; stop: () => void } {
  const onHashChange = (event: HashChangeEvent) => {
    // The event names the address it was fired for. A state watcher may have recorded
    // a newer one since (history.pushState fires no event); then this event is stale,
    // and applying today's address would undo a switch the user just asked for.
    const at = event.newURL ? event.newURL.indexOf('#') : -2;
    const hash = at === -2 ? location.hash : at < 0 ? '' : event.newURL.slice(at);
    if (takeAppliedEarly(hash) || !isRouteHash(hash) || hash !== location.hash) return;
    applyRoute(currentRoute());
  };
  window.addEventListener('hashchange', onHashChange);
  setRouteApplier(applyRoute);
  const stopWatchers = $effect.root(installStateWatchers);
  const route = currentRoute();
  starting = true;
  initialApply = true;
  pickedWhileStarting = location.hash !== addressAtLoad;
  try {
    applyRoute(route);
  } finally {
    initialApply = false;
    pickedWhileStarting = false;
  }
  // A note opened or a search typed before the router started (while the app was
  // loading) is the address.
  const openedMeanwhile =
    route.view === 'notes' && route.noteId === null && (editor.noteId !== null || search.active);
  record(openedMeanwhile ? notebookRoute() : route, true);
  // Settings opened while the app was loading (its gear works before start-up ends) gets its
  // address over the notebook's, as if opened now: a reload keeps it, Back closes it. The
  // watcher cannot see it, having started with Settings already open.
  if (layout.settingsOpen && route.view !== 'settings') {
    record(settingsRoute(), false);
    settingsPushedOver = true;
  }
  return {
    // A wikilink's address names a note too: the last note must not reopen over it.
    openedNote: routeNoteId(route) !== null || route.view === 'wiki',
    stop: () => {
      window.removeEventListener('hashchange', onHashChange);
      setRouteApplier(null);
      stopWatchers();
    },
  };
}

/** Start-up finished: state changes from now on are new history entries. */
export function routerStarted(): void {
  starting = false;
}
