import { tagKey } from '../core/tag-key';

/** The folder and tag filter shared by every index, so all modes filter alike. */
export interface SearchFilter {
  /** A folder path; matches that folder and every folder below it. '' matches all. */
  folder?: string;
  /**
   * Every listed tag must be on the note (AND), the way stacked tag chips read;
   * in any spelling (`tagKey`): `Project` finds a note tagged `#project`.
   */
  tags?: readonly string[];
}

export interface FilterableBlock {
  folder: string;
  tags: readonly string[];
}

export function matchesFilter(block: FilterableBlock, filter: SearchFilter | undefined): boolean {
  if (!filter) return true;
  const folder = filter.folder;
  if (
    folder !== undefined &&
    folder !== '' &&
    block.folder !== folder &&
    !block.folder.startsWith(`${folder}/`)
  ) {
    return false;
  }
  const tags = filter.tags ?? [];
  if (tags.length === 0) return true;
  const keys = tagKeysOf(block.tags);
  return tags.every((tag) => block.tags.includes(tag) || keys.has(tagKey(tag)));
}

/**
 * The keys of a tag list, kept per list: the indexes hand every block of a
 * note the note's one list, so a search folds a note's tags once, not once per block.
 */
const keysOfList = new WeakMap<readonly string[], Set<string>>();

function tagKeysOf(tags: readonly string[]): Set<string> {
  let keys = keysOfList.get(tags);
  if (!keys) {
    keys = new Set(tags.map(tagKey));
    keysOfList.set(tags, keys);
  }
  return keys;
}

/** True when the filter lets everything through, so a search can skip the per-block test. */
export function isEmptyFilter(filter: SearchFilter | undefined): boolean {
  return !filter || ((filter.folder ?? '') === '' && (filter.tags ?? []).length === 0);
}
