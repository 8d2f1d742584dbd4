import { z } from 'zod';

/** §4.3 offset pages for ordinary resource lists. */
export interface OffsetPage<T> {
  items: T[];
  page: { total: number; limit: number; offset: number };
}

export const MAX_PAGE_LIMIT = 200;
export const DEFAULT_PAGE_LIMIT = 50;

export const pageQuerySchema = z.object({
  limit: z.number().int().min(1).max(MAX_PAGE_LIMIT).default(DEFAULT_PAGE_LIMIT),
  offset: z.number().int().min(0).default(0),
});
export type PageQuery = z.input<typeof pageQuerySchema>;

export function offsetPage<T>(
  items: T[],
  total: number,
  query: { limit: number; offset: number },
): OffsetPage<T> {
  return { items, page: { total, limit: query.limit, offset: query.offset } };
}

/**
 * §4.3 sequence cursors for events and traces. `after_sequence` returns events
 * with a greater sequence; sequences are monotonic per resource and need not
 * start at 0 or 1.
 */
export interface SequencePage<T> {
  items: T[];
  next_sequence: number;
  has_more: boolean;
}

export const sequenceQuerySchema = z.object({
  after_sequence: z.number().int().min(0).default(0),
  limit: z.number().int().min(1).max(1000).default(200),
});
export type SequenceQuery = z.input<typeof sequenceQuerySchema>;
