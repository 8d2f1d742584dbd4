import { describe, expect, it } from 'vitest';
import { noteAfterRemoval } from './next-note-after-trash';

const rows = (...ids: (string | undefined)[]) =>
  ids.map((id) => (id === undefined ? undefined : { note_id: id }));

describe('noteAfterRemoval', () => {
  it('goes on to the row below', () => {
    expect(noteAfterRemoval(rows('a', 'b', 'c'), 'a')).toEqual({ kind: 'next', noteId: 'b' });
    expect(noteAfterRemoval(rows('a', 'b', 'c'), 'b')).toEqual({ kind: 'next', noteId: 'c' });
  });

  it('goes back to the row above when the note was the last', () => {
    expect(noteAfterRemoval(rows('a', 'b', 'c'), 'c')).toEqual({ kind: 'next', noteId: 'b' });
  });

  it('says the list is empty when the note was its only row', () => {
    expect(noteAfterRemoval(rows('a'), 'a')).toEqual({ kind: 'empty' });
  });

  it('knows no neighbour for a note the list does not show, or whose neighbour has not arrived', () => {
    expect(noteAfterRemoval(rows('a', 'b'), 'x')).toEqual({ kind: 'unlisted' });
    expect(noteAfterRemoval(rows(), 'x')).toEqual({ kind: 'unlisted' });
    expect(noteAfterRemoval(rows('a', undefined), 'a')).toEqual({ kind: 'unlisted' });
  });
});
