import { describe, expect, it } from 'vitest';
import type { NoteSummaryDto } from '../../contracts/notes';
import { holes, orderDiffers, pagesOf, refreshedInPlace, rowsFromPages, withPage } from './note-pages';

function summary(id: string, fields: Partial<NoteSummaryDto> = {}): NoteSummaryDto {
  return {
    note_id: id,
    title: `Note ${id}`,
    folder: '',
    tags: [],
    version: 1,
    created_at: '2026-01-01T00:00:00.000Z',
    updated_at: '2026-01-01T00:00:00.000Z',
    deleted_at: null,
    excerpt: '',
    body_length: 0,
    ...fields,
  };
}

const ids = (rows: ReadonlyArray<NoteSummaryDto | undefined>) => rows.map((row) => row?.note_id);

describe('note pages', () => {
  it('names the pages behind the rows on screen, always with the first', () => {
    expect(pagesOf([250, 260, 199], 100)).toEqual([0, 1, 2]);
    expect(pagesOf([], 100)).toEqual([0]);
  });

  it('lays pages into a list of every row, leaving the rest empty until fetched', () => {
    const rows = rowsFromPages(
      new Map([
        [0, [summary('a'), summary('b')]],
        [2, [summary('e')]],
      ]),
      5,
      2,
    );
    expect(ids(rows)).toEqual(['a', 'b', undefined, undefined, 'e']);
    expect(holes(rows, [0, 2, 3, 4, 9])).toEqual([2, 3]);
    expect(ids(withPage(rows, 1, [summary('c'), summary('d')], 2))).toEqual(['a', 'b', 'c', 'd', 'e']);
    // The list it came from is not changed (the screen compares by identity).
    expect(ids(rows)).toEqual(['a', 'b', undefined, undefined, 'e']);
  });

  it('a page longer than the list (it shrank meanwhile) fills only the rows there are', () => {
    const rows = withPage(rowsFromPages(new Map(), 3, 2), 1, [summary('c'), summary('d')], 2);
    expect(ids(rows)).toEqual([undefined, undefined, 'c']);
  });

  it('refreshes what rows say without moving them', () => {
    const rows = rowsFromPages(new Map([[0, [summary('a'), summary('b'), summary('c')]]]), 3, 10);
    const saved = summary('c', { title: 'Renamed', version: 2, updated_at: '2026-02-01T00:00:00.000Z' });
    const next = refreshedInPlace(rows, new Map([['c', saved]]));
    expect(ids(next)).toEqual(['a', 'b', 'c']);
    expect(next[2]?.title).toBe('Renamed');
  });

  it('returns the same list when nothing changed, so nothing re-renders', () => {
    const rows = rowsFromPages(new Map([[0, [summary('a'), summary('b', { tags: ['x'] })]]]), 2, 10);
    expect(refreshedInPlace(rows, new Map([['b', summary('b', { tags: ['x'] })]]))).toBe(rows);
    expect(refreshedInPlace(rows, new Map([['b', summary('b', { tags: ['y'] })]]))).not.toBe(rows);
  });

  it('tells when the notebook would now order the shown rows otherwise', () => {
    const rows = rowsFromPages(new Map([[0, [summary('a'), summary('b'), summary('c')]]]), 3, 10);
    expect(orderDiffers(rows, new Map([[0, [summary('a'), summary('b'), summary('c')]]]), 10)).toBe(false);
    expect(orderDiffers(rows, new Map([[0, [summary('c'), summary('a'), summary('b')]]]), 10)).toBe(true);
    // A page of rows not fetched yet says nothing about the order shown.
    expect(orderDiffers(rows, new Map([[1, [summary('z')]]]), 10)).toBe(false);
  });
});
