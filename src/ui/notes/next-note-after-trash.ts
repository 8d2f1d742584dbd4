/**
 * Where the list goes on from when the open note leaves it (moved to the trash, or restored out
 * of the trash), as mail clients and file managers do: to the row below it, or the row above it
 * when it was the last.
 */
export type AfterRemoval =
  /** The neighbour that takes its place. */
  | { kind: 'next'; noteId: string }
  /** It was the only row: the list is empty now. */
  | { kind: 'empty' }
  /** Not a row of the list shown (opened from a search or a link), or its neighbour's page is still loading. */
  | { kind: 'unlisted' };

export function noteAfterRemoval(
  rows: ReadonlyArray<{ readonly note_id: string } | undefined>,
  noteId: string,
): AfterRemoval {
  const index = rows.findIndex((row) => row?.note_id === noteId);
  if (index < 0) return { kind: 'unlisted' };
  if (rows.length === 1) return { kind: 'empty' };
  const neighbour = index + 1 < rows.length ? rows[index + 1] : rows[index - 1];
  return neighbour ? { kind: 'next', noteId: neighbour.note_id } : { kind: 'unlisted' };
}
