/** The folder and tag filter shared by every index, so all modes filter alike. */
export interface SearchFilter {
  /** A folder path; matches that folder and every folder below it. '' matches all. */
  folder?: string;
  /** Every listed tag must be on the note (AND), the way stacked tag chips read. */
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
  return (filter.tags ?? []).every((tag) => block.tags.includes(tag));
}

/** True when the filter lets everything through, so a search can skip the per-block test. */
export function isEmptyFilter(filter: SearchFilter | undefined): boolean {
  return !filter || ((filter.folder ?? '') === '' && (filter.tags ?? []).length === 0);
}
