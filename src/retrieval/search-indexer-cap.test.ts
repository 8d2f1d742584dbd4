import { describe, expect, it } from 'vitest';
import { capNoteDocuments, MAX_INDEXED_CHARS_PER_NOTE, mayHaveFrontMatter } from './search-indexer';

const doc = (text: string) => ({ text });

describe('capNoteDocuments', () => {
  it('keeps every block of a note within the limit', () => {
    const documents = [doc('a'.repeat(10)), doc('b'.repeat(10))];
    expect(capNoteDocuments(documents, 20)).toEqual({ documents, truncated: false });
  });

  it('keeps the first blocks of a larger note, the start of the one that crosses the limit, and says it left the rest out', () => {
    const documents = [doc('a'.repeat(10)), doc('b'.repeat(10)), doc('c'.repeat(10)), doc('d')];
    expect(capNoteDocuments(documents, 25)).toEqual({
      documents: [...documents.slice(0, 2), doc('ccccc')],
      truncated: true,
    });
    expect(capNoteDocuments(documents, 20)).toEqual({ documents: documents.slice(0, 2), truncated: true });
  });

  it('counts the footnotes a block carries, cutting them before the block text', () => {
    const documents = [doc('a'.repeat(10)), { text: 'b'.repeat(10), footnotes: 'f'.repeat(10) }, doc('c')];
    expect(capNoteDocuments(documents, 25)).toEqual({
      documents: [documents[0], { text: 'b'.repeat(10), footnotes: 'fffff' }],
      truncated: true,
    });
    expect(capNoteDocuments(documents, 15)).toEqual({
      documents: [documents[0], doc('bbbbb')],
      truncated: true,
    });
    expect(capNoteDocuments(documents, 31).truncated).toBe(false);
  });

  it('indexes the start of a note that is one huge block', () => {
    const capped = capNoteDocuments([{ block_id: 'b1', text: `opening words ${'x'.repeat(100)}` }], 20);
    expect(capped).toEqual({
      documents: [{ block_id: 'b1', text: 'opening words xxxxxx' }],
      truncated: true,
    });
  });

  it('indexes at most the default limit of a 100 MB note', () => {
    const block = doc('x'.repeat(1024 * 1024));
    const documents = Array.from({ length: 100 }, () => block);
    const capped = capNoteDocuments(documents);
    expect(capped.truncated).toBe(true);
    expect(capped.documents.reduce((sum, item) => sum + item.text.length, 0)).toBeLessThanOrEqual(
      MAX_INDEXED_CHARS_PER_NOTE,
    );
    expect(capped.documents).toHaveLength(2);
  });
});

describe('mayHaveFrontMatter (whether the indexer reads a body for its aliases)', () => {
  const block = (start_line: number, text: string) => ({ start_line, text });

  it('reads a note whose first block starts below line 0, or that has no block', () => {
    expect(mayHaveFrontMatter([block(3, 'Deadlock needs four conditions.')])).toBe(true);
    expect(mayHaveFrontMatter([])).toBe(true);
  });

  it('does not read a note that starts with its text', () => {
    expect(mayHaveFrontMatter([block(0, '# Deadlock')])).toBe(false);
  });

  it('does not read a note whose blocks already reach the per-note cap: a huge note is never read whole', () => {
    const huge = Array.from({ length: 3 }, (_, index) =>
      block(4 + index, 'x'.repeat(MAX_INDEXED_CHARS_PER_NOTE / 2)),
    );
    expect(mayHaveFrontMatter(huge)).toBe(false);
  });
});
