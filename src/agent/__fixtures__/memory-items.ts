import type { MetonaMemoryItem } from '../../ir';

export const DAY = 24 * 60 * 60 * 1000;
/** The tests' "now": memories are made a day before it unless told otherwise. */
export const NOW = 1_800_000_000_000;

/** A semantic memory the user gave, of middling importance, made a day before `NOW`. */
export function memoryItem(id: string, content: string, fields: Partial<MetonaMemoryItem> = {}): MetonaMemoryItem {
  return {
    id,
    type: 'semantic',
    content,
    source: 'user_input',
    importance: 0.5,
    createdAt: NOW - DAY,
    ...fields,
  };
}
