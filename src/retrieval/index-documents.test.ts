import { describe, expect, it } from 'vitest';
import type { NoteDto } from '../contracts';
import type { BlockType } from '../core/blocks';
import type { IndexSource } from '../db';
import { FullTextIndex } from './full-text-index';
import { documentsOf, noteSegmentOf, titleDocumentId } from './index-documents';

const note: NoteDto = {
  note_id: 'note-1',
  title: 'Scheduling',
  folder: 'os/notes',
  body: '',
  tags: ['os'],
  version: 1,
  created_at: '2026-01-01T00:00:00.000Z',
  updated_at: '2026-01-01T00:00:00.000Z',
  deleted_at: null,
};

function source(blocks: Array<{ type: BlockType; text: string }>, title = note.title): IndexSource {
  return {
    note: { ...note, title },
    blocks: blocks.map((block, position) => ({
      block_id: `block-${position}`,
      note_id: note.note_id,
      type: block.type,
      position,
      text: block.text,
      start_line: position,
      end_line: position,
      hash: `hash-${position}`,
    })),
  };
}

describe('documentsOf', () => {
  it('indexes each block with its note title, folder and tags, leaving out rules and empty blocks', () => {
    const documents = documentsOf(
      source([
        { type: 'heading', text: '# Round robin' },
        { type: 'rule', text: '---' },
        { type: 'paragraph', text: '   ' },
        { type: 'paragraph', text: 'Each process gets a time slice.' },
      ]),
    );
    expect(documents).toEqual([
      {
        block_id: 'block-0',
        note_id: 'note-1',
        text: '# Round robin',
        title: 'Scheduling',
        folder: 'os/notes',
        tags: ['os'],
      },
      {
        block_id: 'block-3',
        note_id: 'note-1',
        text: 'Each process gets a time slice.',
        title: 'Scheduling',
        folder: 'os/notes',
        tags: ['os'],
      },
    ]);
  });

  it('stands a note with a title and no text in by one title document', () => {
    expect(documentsOf(source([{ type: 'rule', text: '---' }]))).toEqual([
      {
        block_id: titleDocumentId('note-1'),
        note_id: 'note-1',
        text: 'Scheduling',
        title: 'Scheduling',
        folder: 'os/notes',
        tags: ['os'],
      },
    ]);
  });

  it('has nothing to index for a note with neither title nor text', () => {
    expect(documentsOf(source([], '  '))).toEqual([]);
  });

  it('gives the title document an id no block id can take', () => {
    expect(titleDocumentId('note-1')).toBe('note-1:title');
  });
});

describe('noteSegmentOf', () => {
  it('is the segment the full-text index would store for the same blocks, tokenized once', () => {
    const documents = documentsOf(
      source([
        { type: 'heading', text: '# Round robin robin' },
        { type: 'paragraph', text: '进程调度 uses a quantum; the quantum is short.' },
        { type: 'code', text: 'run(run)' },
      ]),
    );
    const index = new FullTextIndex();
    for (const document of documents) index.add(document);
    const segment = noteSegmentOf(note.note_id, documents);
    expect(segment).toEqual(index.noteSegment(note.note_id));

    // Loaded from it, the index answers as one built block by block.
    const loaded = new FullTextIndex();
    loaded.addSegments([segment]);
    for (const query of ['robin', 'quantum', '调度', 'ru']) {
      expect(loaded.search(query, { limit: 5, prefix: true })).toEqual(
        index.search(query, { limit: 5, prefix: true }),
      );
    }
  });

  it('is undefined for a note with nothing to index', () => {
    expect(
      noteSegmentOf(note.note_id, documentsOf(source([{ type: 'rule', text: '---' }], ''))),
    ).toBeUndefined();
  });
});
