import { tagKey } from '../core/tag-key';

/** A query with its tag words taken out: `#os scheduling` → tags ['os'], text 'scheduling'. */
export interface TaggedQuery {
  /** The tags asked for, as typed (without `#` or `tag:`), one per spelling (`tagKey`). */
  tags: string[];
  /** The rest of the query, searched as text; '' when the query was tags only. */
  text: string;
}

// The characters of an Obsidian tag (as src/core/inline-tags.ts reads them), after
// `#` or `tag:` at the start of a word: `C#` and `e#x` are words, not tags.
const TAG_WORD = /(^|\s)(?:#|tag:#?)([\p{L}\p{M}\p{N}_\-/]+)(?=\s|$)/giu;
const ALL_DIGITS = /^[\p{N}/]*$/u;

/**
 * The tags of a search query. A tag in a query asks for the notes that carry
 * it, as the sidebar's tag does (front matter or inline `#tag`), not for the
 * notes whose text holds its word: searched as a word, `#os` missed every
 * note tagged `os` in its front matter only. `#123` is no tag (Obsidian's rule).
 */
export function taggedQuery(query: string): TaggedQuery {
  const tags: string[] = [];
  const keys = new Set<string>();
  const text = query.replace(TAG_WORD, (whole, before: string, name: string) => {
    const tag = name.replace(/\/+$/u, '');
    if (tag === '' || ALL_DIGITS.test(tag)) return whole;
    const key = tagKey(tag);
    if (!keys.has(key)) {
      keys.add(key);
      tags.push(tag);
    }
    return before;
  });
  return { tags, text: text.trim() };
}
