/** Which audio passage belongs to a block a search or chat citation revealed in the note. */

export interface CitedPassage {
  block_id: string;
  start_line: number;
}

export interface RevealedBlock {
  blockId: string;
  line: number;
}

/**
 * The revealed block's own citation; after an edit gave the block a new id, the
 * passage of the cited block it lies in (the last one starting at or before its line).
 */
export function passageOf<T extends CitedPassage>(cited: readonly T[], revealed: RevealedBlock): T | null {
  const own = cited.find((passage) => passage.block_id === revealed.blockId);
  if (own) return own;
  let best: T | null = null;
  for (const passage of cited) {
    if (passage.start_line <= revealed.line && (best === null || passage.start_line > best.start_line))
      best = passage;
  }
  return best;
}
