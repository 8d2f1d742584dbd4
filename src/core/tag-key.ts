/**
 * How tags are compared, as Obsidian does: case does not matter, so `#Project`,
 * `#project` and a front matter's `project` are one tag, and so are the nested
 * `#a/B` and `#A/b`. The stored text keeps its own spelling; only comparisons
 * and counts go through the key.
 *
 * `toLowerCase()`, not `toLocaleLowerCase()`: the key must not depend on the
 * browser's locale (a Turkish one would fold `I` to `ı`, so two tabs or a
 * worker could disagree). It is Unicode's default lowercase mapping, one
 * character to its lowercase, not full case folding: `ẞ` and `ß` are one tag,
 * `STRASSE` and `straße` are two; `I` folds to `i`, and the dotted `İ` to
 * `i̇` (not `i`). NFC first and last, so a tag typed precomposed (`é`) and one
 * pasted decomposed (`e` + combining accent) are one tag. Scripts without case
 * (Chinese, Japanese) are unchanged.
 */
export function tagKey(tag: string): string {
  return tag.normalize('NFC').toLowerCase().normalize('NFC');
}

/** Whether two spellings are the same tag. */
export function sameTag(a: string, b: string): boolean {
  return a === b || tagKey(a) === tagKey(b);
}

/** Whether `tags` holds `tag` in any spelling. */
export function hasTag(tags: readonly string[], tag: string): boolean {
  if (tags.includes(tag)) return true;
  const key = tagKey(tag);
  return tags.some((other) => tagKey(other) === key);
}
