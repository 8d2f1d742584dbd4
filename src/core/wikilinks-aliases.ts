import { splitFrontMatter } from './front-matter';

/** The keys Obsidian reads a note's other names from; `alias` is its older spelling. */
const ALIAS_KEYS = ['aliases', 'alias'] as const;

/**
 * The other names a note answers to in `[[links]]`: Obsidian's `aliases:` (a
 * list or one name) in the front matter that stays at the top of the note's
 * text. A front matter that does not parse names none: the note is still
 * reached by its title.
 */
export function noteAliases(body: string): string[] {
  if (!body.startsWith('---') && !body.startsWith('\uFEFF---')) return [];
  let data: Record<string, unknown>;
  try {
    data = splitFrontMatter(body).data;
  } catch {
    return [];
  }
  const aliases: string[] = [];
  for (const key of ALIAS_KEYS) {
    const value = data[key];
    for (const item of Array.isArray(value) ? value : [value]) {
      const name = typeof item === 'string' || typeof item === 'number' ? String(item).trim() : '';
      if (name !== '' && !aliases.includes(name)) aliases.push(name);
    }
  }
  return aliases;
}
