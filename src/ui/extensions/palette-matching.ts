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

/** A note the palette may offer: its title and those of its aliases the core found for the query. */
export interface NoteCandidate {
  note_id: string;
  title: string;
  aliases: readonly string[];
}

/** A note that answers the query, and the alias it was found by (null: by its title). */
export interface NoteMatch {
  note_id: string;
  title: string;
  alias: string | null;
  score: number;
}

/** Scores of the tiers a note can match in, best first: its title's start, an alias, then fuzzy. */
const NOTE_SCORE = {
  titleExact: 100,
  titlePrefix: 90,
  aliasExact: 80,
  aliasPrefix: 75,
  aliasWordStart: 72,
  aliasInside: 70,
  titleWordStart: 60,
  titleInside: 55,
  titleWords: 50,
  aliasWords: 45,
  titleInOrder: 30,
  aliasInOrder: 20,
} as const;

/**
 * Full-width and half-width forms alike (NFKC: "ＡＢＣ" is "abc"), case ignored, runs of
 * spaces as one: what a title is compared as.
 */
export function foldName(text: string): string {
  return text.normalize('NFKC').toLocaleLowerCase().replace(/\s+/g, ' ').trim();
}

function substringScore(
  name: string,
  query: string,
  start: number,
  wordStart: number,
  inside: number,
): number {
  const at = name.indexOf(query);
  if (at < 0) return 0;
  if (at === 0) return start;
  return /[\s\p{P}]/u.test(name.charAt(at - 1)) ? wordStart : inside;
}

/** Every word typed is in the name, in any order. */
function hasAllWords(name: string, query: string): boolean {
  const words = query.split(' ');
  return words.length > 1 && words.every((word) => name.includes(word));
}

/**
 * The query's characters (spaces aside) appear in the name in order, as "qtrly" in "quarterly"
 * or "会纪" in "会议纪要" (Chinese has no word boundaries to start from). Between 0 and 1: how
 * tightly they sit, so "会议纪要" ranks above a longer title that spreads them apart.
 */
function inOrderTightness(name: string, query: string): number {
  const chars = [...query.replace(/ /g, '')];
  if (chars.length < 2) return 0;
  let from = 0;
  let first = -1;
  for (const char of chars) {
    const at = name.indexOf(char, from);
    if (at < 0) return 0;
    if (first < 0) first = at;
    from = at + char.length;
  }
  return query.replace(/ /g, '').length / (from - first);
}

/**
 * How a note answers the query, or null: the title exactly or at its start, then an alias (the
 * best one, which the palette shows), then fuzzy matches of either (the query inside the title,
 * every word in any order, the characters in order).
 */
export function matchNote(candidate: NoteCandidate, query: string): NoteMatch | null {
  const wanted = foldName(query);
  if (wanted === '') return null;
  const title = foldName(candidate.title);
  const aliases = candidate.aliases
    .map((alias) => ({ alias, name: foldName(alias) }))
    .filter(({ name }) => name !== '');
  const found = (score: number, alias: string | null): NoteMatch => ({
    note_id: candidate.note_id,
    title: candidate.title,
    alias,
    score,
  });
  /** The alias scoring best, when one scores at all. */
  const bestAlias = (scoreOf: (name: string) => number): NoteMatch | null => {
    let best: NoteMatch | null = null;
    for (const { alias, name } of aliases) {
      const score = scoreOf(name);
      if (score > 0 && (best === null || score > best.score)) best = found(score, alias);
    }
    return best;
  };

  if (title === wanted) return found(NOTE_SCORE.titleExact, null);
  if (title.startsWith(wanted)) return found(NOTE_SCORE.titlePrefix, null);
  const byAlias = bestAlias((name) =>
    name === wanted
      ? NOTE_SCORE.aliasExact
      : substringScore(
          name,
          wanted,
          NOTE_SCORE.aliasPrefix,
          NOTE_SCORE.aliasWordStart,
          NOTE_SCORE.aliasInside,
        ),
  );
  if (byAlias) return byAlias;
  const inside = substringScore(title, wanted, 0, NOTE_SCORE.titleWordStart, NOTE_SCORE.titleInside);
  if (inside > 0) return found(inside, null);
  if (hasAllWords(title, wanted)) return found(NOTE_SCORE.titleWords, null);
  const aliasWords = bestAlias((name) => (hasAllWords(name, wanted) ? NOTE_SCORE.aliasWords : 0));
  if (aliasWords) return aliasWords;
  // Tighter runs rank higher, but a fuzzy title stays above a fuzzy alias.
  const titleRun = inOrderTightness(title, wanted);
  if (titleRun > 0) return found(NOTE_SCORE.titleInOrder + 9 * titleRun, null);
  return bestAlias((name) => {
    const run = inOrderTightness(name, wanted);
    return run > 0 ? NOTE_SCORE.aliasInOrder + 9 * run : 0;
  });
}

/** The notes that answer the query, best first, at most `limit`; ties keep the candidates' order. */
export function rankNotes(candidates: readonly NoteCandidate[], query: string, limit: number): NoteMatch[] {
  return candidates
    .map((candidate, index) => ({ match: matchNote(candidate, query), index }))
    .filter((item): item is { match: NoteMatch; index: number } => item.match !== null)
    .sort((a, b) => b.match.score - a.match.score || a.index - b.index)
    .slice(0, limit)
    .map((item) => item.match);
}

/**
 * One candidate per note from what the core answered: notes found by title (every note, however
 * many share a title) and `[[` suggestions (a title, or an alias with the note it opens). The
 * order is the first answer's, then the second's.
 */
export function mergeCandidates(
  byTitle: readonly { note_id: string; title: string }[],
  suggestions: readonly { note_id: string; title: string; alias: string | null }[],
): NoteCandidate[] {
  const notes = new Map<string, { note_id: string; title: string; aliases: string[] }>();
  const add = (noteId: string, title: string) => {
    let note = notes.get(noteId);
    if (!note) notes.set(noteId, (note = { note_id: noteId, title, aliases: [] }));
    return note;
  };
  for (const note of byTitle) add(note.note_id, note.title);
  for (const suggestion of suggestions) {
    const note = add(suggestion.note_id, suggestion.title);
    if (suggestion.alias !== null && !note.aliases.includes(suggestion.alias))
      note.aliases.push(suggestion.alias);
  }
  return [...notes.values()];
}
