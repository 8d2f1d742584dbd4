import { LazyComponent } from '../lazy-component.svelte';

// The note editor's panels that typing does not need, each kept out of the shell and
// loaded on its own: the ones a user opens when first opened, the ones that show beside
// the note once the page is idle (see NoteEditor). The textarea, drafts, autosave and
// the save status stay in the shell: a key typed at once after start-up lands.

/**
 * The Markdown preview. Its renderer (the `markdown` chunk, most of the app's code) is
 * fetched beside it rather than after it, so opening a note costs one round trip, not two.
 */
export const markdownPreview = new LazyComponent(() => {
  import('../markdown').catch(() => {
    // The preview reports a renderer that failed to load when it asks for it itself.
  });
  return import('./MarkdownPreview.svelte');
});

/** The version history dialog (its button is the editor's). */
export const noteHistory = new LazyComponent(() => import('./NoteHistory.svelte'));

/** The plugin commands' menu on a right-click in the body. */
export const editorContextMenu = new LazyComponent(() => import('./EditorContextMenu.svelte'));

/** The title completion after `[[` in the body. */
export const wikilinkSuggest = new LazyComponent(() => import('./WikilinkSuggest.svelte'));

/** The notes linking here, inside the editor's backlinks frame. */
export const backlinksList = new LazyComponent(() => import('./BacklinksList.svelte'));

/** The audio the note's transcript blocks were cut from, with a player. */
export const noteAudioCitations = new LazyComponent(() => import('../recordings/NoteAudioCitations.svelte'));

/** Undo of an agent's change to the note. */
export const agentUndo = new LazyComponent(() => import('../agent-runs/AgentUndo.svelte'));

/** Loads the panels that show beside an open note without being asked for. */
export function preloadNotePanels(): void {
  backlinksList.preload();
  noteAudioCitations.preload();
  agentUndo.preload();
}
