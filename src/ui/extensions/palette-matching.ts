import type { MessageKey } from '../i18n';

/** The palette's own commands: they need no plugin. */
export type BuiltInCommand =
  | 'new-note'
  | 'all-notes'
  | 'trash'
  | 'chat'
  | 'agent'
  | 'transcription'
  | 'settings'
  | 'export-note'
  | 'keyboard-shortcuts';

export interface BuiltInCommandSpec {
  id: BuiltInCommand;
  title: MessageKey;
  /** More words it is found by (another language's, "help"…), besides its title. */
  keywords?: MessageKey;
  /** Offered only while a note is open. */
  needsNote?: boolean;
}

/** In the order the palette lists them before anything is typed. */
export const BUILT_IN_COMMANDS: readonly BuiltInCommandSpec[] = [
  { id: 'new-note', title: 'palette.command.newNote' },
  { id: 'all-notes', title: 'palette.command.allNotes' },
  { id: 'trash', title: 'palette.command.trash' },
  { id: 'chat', title: 'palette.command.chat' },
  { id: 'agent', title: 'palette.command.agent' },
  { id: 'transcription', title: 'palette.command.transcription' },
  { id: 'settings', title: 'palette.command.settings' },
  { id: 'export-note', title: 'palette.command.exportNote', needsNote: true },
  {
    id: 'keyboard-shortcuts',
    title: 'palette.command.keyboardShortcuts',
    keywords: 'palette.command.keywords.keyboardShortcuts',
  },
];

/**
 * How well `text` answers `query`, 0 for not at all: the whole text, then its start, then the
 * start of one of its words, then anywhere in it. Case does not count; every word typed must be
 * found (in any order), and the weakest of them decides.
 */
export function matchScore(text: string, query: string): number {
  const words = query.trim().toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return 1;
  const haystack = text.toLowerCase();
  let weakest = Infinity;
  for (const word of words) {
    weakest = Math.min(weakest, wordScore(haystack, word));
    if (weakest === 0) return 0;
  }
  // A query that is the whole text ranks above one that only starts it.
  return haystack === query.trim().toLowerCase() ? 5 : weakest;
}

function wordScore(haystack: string, word: string): number {
  const at = haystack.indexOf(word);
  if (at < 0) return 0;
  if (at === 0) return 4;
  // The start of a word: after a space or punctuation. CJK text has no spaces; any place counts.
  if (/[\s\p{P}]/u.test(haystack.charAt(at - 1))) return 3;
  return 2;
}

/**
 * The entries that answer `query`, best first; ties keep the given order. The text an entry is
 * found by is its title and, weaker, its other words: a match on those alone counts as "anywhere".
 */
export function rankMatches<T>(
  entries: readonly T[],
  query: string,
  textOf: (entry: T) => { title: string; more?: string },
): T[] {
  const scored = entries.map((entry, index) => {
    const { title, more } = textOf(entry);
    const titleScore = matchScore(title, query);
    const moreScore = more ? Math.min(matchScore(`${title} ${more}`, query), 1) : 0;
    return { entry, index, score: Math.max(titleScore, moreScore) };
  });
  return scored
    .filter((item) => item.score > 0)
    .sort((a, b) => b.score - a.score || a.index - b.index)
    .map((item) => item.entry);
}
