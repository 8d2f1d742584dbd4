import { describe, expect, it } from 'vitest';
import { MAX_INDEXED_CHARS_PER_NOTE, type NoteSummaryDto } from '../../contracts/notes';
import { mibText, notesSearchedInPart, shownSize } from './note-size';

const MIB = 1024 * 1024;

function summary(id: string, body_length: number): NoteSummaryDto {
  return {
    note_id: id,
    title: id,
    folder: '',
    tags: [],
    version: 1,
    created_at: '2026-01-01T00:00:00.000Z',
    updated_at: '2026-01-01T00:00:00.000Z',
    deleted_at: null,
    excerpt: '',
    body_length,
  };
}

describe('note sizes in the list', () => {
  it('shows the size of notes of a MiB and more, in MiB with one decimal', () => {
    expect(shownSize({ body_length: 100 * MIB })).toBe('100.0');
    expect(shownSize({ body_length: MIB })).toBe('1.0');
    expect(shownSize({ body_length: MIB - 1 })).toBeNull();
    expect(shownSize({ body_length: 0 })).toBeNull();
    expect(mibText(5.25 * MIB)).toBe('5.3');
  });

  it('names the listed notes longer than the search cap, skipping rows not loaded yet', () => {
    const rows = [
      summary('small', 10),
      undefined,
      summary('huge', 100 * MIB),
      summary('at-cap', MAX_INDEXED_CHARS_PER_NOTE),
      summary('over', MAX_INDEXED_CHARS_PER_NOTE + 1),
    ];
    expect(notesSearchedInPart(rows).map((row) => row.note_id)).toEqual(['huge', 'over']);
    expect(notesSearchedInPart([summary('small', 10)])).toEqual([]);
  });
});
