import { describe, expect, it } from 'vitest';
import type { NoteDto } from '../contracts';
import { parseBlocks, type BlockType } from '../core/blocks';
import type { IndexSource } from '../db';
import { FullTextIndex } from './full-text-index';
import {
  attachedFootnotes,
  documentsOf,
  isTagsOnly,
  MAX_ATTACHED_FOOTNOTE_CHARS,
  noteSegmentOf,
  searchedText,
  titleDocumentId,
} from './index-documents';

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
        { type: 'paragraph', text: 'Time-sharing systems.' },
        { type: 'rule', text: '---' },
        { type: 'paragraph', text: '   ' },
        { type: 'paragraph', text: 'Each process gets a time slice.' },
      ]),
    );
    expect(documents).toEqual([
      {
        block_id: 'block-0',
        note_id: 'note-1',
        text: 'Time-sharing systems.',
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

  it('leaves headings out and gives each block its heading path, its text its own', () => {
    const documents = documentsOf(
      source([
        { type: 'heading', text: '# CPU scheduling' },
        { type: 'heading', text: '## Round **robin**' },
        { type: 'paragraph', text: 'Each process gets a time slice.' },
        { type: 'heading', text: '## Priorities' },
        { type: 'list', text: '- nice values\n- aging' },
      ]),
    );
    expect(documents.map(({ block_id, text, section }) => ({ block_id, text, section }))).toEqual([
      {
        block_id: 'block-2',
        text: 'Each process gets a time slice.',
        section: 'CPU scheduling › Round robin',
      },
      { block_id: 'block-4', text: '- nice values\n- aging', section: 'CPU scheduling › Priorities' },
    ]);
    expect(searchedText(documents[0]!)).toBe('CPU scheduling › Round robin: Each process gets a time slice.');
  });

  it('leaves out paragraphs of nothing but inline tags, and keeps those that say more', () => {
    const documents = documentsOf(
      source([
        { type: 'paragraph', text: '#os #scheduling/cpu' },
        { type: 'paragraph', text: '**#draft**  #OS' },
        { type: 'paragraph', text: 'Review with #os people.' },
        { type: 'paragraph', text: '#1 #2' },
        { type: 'code', text: '#include <stdio.h>' },
      ]),
    );
    expect(documents.map((document) => document.text)).toEqual([
      'Review with #os people.',
      '#1 #2',
      '#include <stdio.h>',
    ]);
    expect(isTagsOnly('#os #scheduling/cpu')).toBe(true);
    expect(isTagsOnly('[#os](https://example.com)')).toBe(false);
    expect(isTagsOnly('`#os`')).toBe(false);
  });

  it('indexes the headings and tag lines of a note that has nothing else, so it can still be found', () => {
    const documents = documentsOf(
      source([
        { type: 'heading', text: '# Round robin' },
        { type: 'heading', text: '## Quantum' },
        { type: 'paragraph', text: '#os' },
      ]),
    );
    expect(documents.map(({ block_id, section }) => [block_id, section])).toEqual([
      ['block-0', undefined],
      ['block-1', 'Round robin'],
      ['block-2', 'Round robin › Quantum'],
    ]);
    const index = new FullTextIndex();
    index.addSegments([noteSegmentOf(note.note_id, documents)]);
    expect(index.search('quantum', { limit: 5 }).map((hit) => hit.block_id)[0]).toBe('block-1');
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
        { type: 'paragraph', text: 'Round robin robin' },
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

  it('stores a block under headings as its searched text, so the index removes exactly what it added', () => {
    const documents = documentsOf(
      source([
        { type: 'heading', text: '## Round robin' },
        { type: 'paragraph', text: 'Each process gets a fixed time quantum.' },
      ]),
    );
    expect(documents[0]).toMatchObject({
      text: 'Each process gets a fixed time quantum.',
      section: 'Round robin',
    });
    const segment = noteSegmentOf(note.note_id, documents)!;
    expect(segment.blocks.map(([blockId, text]) => [blockId, text])).toEqual([
      ['block-1', 'Round robin: Each process gets a fixed time quantum.'],
    ]);
    expect(segment.blocks[0]![2].split(' ')).toEqual(expect.arrayContaining(['round', 'robin', 'quantum']));

    const index = new FullTextIndex();
    index.addSegments([segment]);
    // The live index gives back the segment it was given (a vectors-only rebuild stores that) …
    expect(index.noteSegment(note.note_id)).toEqual(segment);
    // … and re-indexing the note leaves nothing of the old blocks behind.
    index.removeNote(note.note_id);
    index.addSegments([segment]);
    index.removeNote(note.note_id);
    index.addSegments([
      noteSegmentOf(note.note_id, documentsOf(source([{ type: 'paragraph', text: 'other words' }]))),
    ]);
    expect(index.search('robin', { limit: 5 })).toEqual([]);
    expect(index.search('other', { limit: 5 })).toHaveLength(1);
  });

  it("ranks the paragraph under a heading first for a query in the heading's words", () => {
    const scheduling = source([
      { type: 'heading', text: '# Scheduling' },
      { type: 'paragraph', text: 'How the kernel picks the next task.' },
      { type: 'heading', text: '## Round robin' },
      {
        type: 'paragraph',
        text: 'Each process gets a fixed time quantum, then goes to the back of the queue.',
      },
      { type: 'heading', text: '## Shortest job first' },
      { type: 'paragraph', text: 'Needs the length of the next burst in advance.' },
    ]);
    const other: IndexSource = {
      note: { ...note, note_id: 'note-2', title: 'Garden' },
      blocks: [
        {
          block_id: 'other-0',
          note_id: 'note-2',
          type: 'paragraph',
          position: 0,
          text: 'A robin nests in the hedge every spring.',
          start_line: 0,
          end_line: 0,
          hash: 'h',
        },
      ],
    };
    const index = new FullTextIndex();
    index.addSegments([
      noteSegmentOf('note-1', documentsOf(scheduling)),
      noteSegmentOf('note-2', documentsOf(other)),
    ]);
    const hits = index.search('how does round robin scheduling work', { limit: 5 });
    expect(hits[0]?.block_id).toBe('block-3');
    // No heading comes back as a passage of its own.
    const headings = ['block-0', 'block-2', 'block-4'];
    expect(hits.filter((hit) => headings.includes(hit.block_id))).toEqual([]);
    // The passage sent with it says where it stands.
    expect(index.get('block-3')?.text).toBe(
      'Scheduling › Round robin: Each process gets a fixed time quantum, then goes to the back of the queue.',
    );
  });

  it('is undefined for a note with nothing to index', () => {
    expect(
      noteSegmentOf(note.note_id, documentsOf(source([{ type: 'rule', text: '---' }], ''))),
    ).toBeUndefined();
  });
});

describe('documentsOf with aliases', () => {
  it('gives every document the note aliases, and the segment their terms in the title field', () => {
    const documents = documentsOf(
      source([
        { type: 'paragraph', text: 'Four conditions.' },
        { type: 'paragraph', text: 'Break one.' },
      ]),
      ['死锁'],
    );
    expect(documents.map((document) => document.aliases)).toEqual([['死锁'], ['死锁']]);
    // The alias is not part of any block's text: passages stay the notes' own words.
    expect(documents.map(searchedText)).toEqual(['Four conditions.', 'Break one.']);
    const segment = noteSegmentOf(note.note_id, documents);
    expect(segment?.aliases).toEqual(['死锁']);
    const index = new FullTextIndex();
    index.addSegments([segment]);
    expect(index.search('死锁', { limit: 5 }).map((hit) => hit.block_id)).toEqual(['block-0', 'block-1']);
    expect(documentsOf(source([{ type: 'paragraph', text: 'x' }]))[0]).not.toHaveProperty('aliases');
  });
});

describe('documentsOf with footnotes', () => {
  /** A note written as Markdown, its blocks as the app splits them. */
  const written = (markdown: string): IndexSource =>
    source(parseBlocks(markdown).map(({ type, text }) => ({ type, text })));
  const indexOf = (item: IndexSource): FullTextIndex => {
    const index = new FullTextIndex();
    index.addSegments([noteSegmentOf(note.note_id, documentsOf(item))]);
    return index;
  };

  it('gives a claim the footnote it cites, and the definition no passage of its own', () => {
    const documents = documentsOf(
      written(
        'Intro.\n\nRoman concrete grew stronger in seawater.[^1]\n\n[^1]: Jackson et al. 2017, tobermorite.',
      ),
    );
    expect(documents.map(({ block_id, text, footnotes }) => ({ block_id, text, footnotes }))).toEqual([
      { block_id: 'block-0', text: 'Intro.', footnotes: undefined },
      {
        block_id: 'block-1',
        // The block's own text and id: a citation still opens the claim.
        text: 'Roman concrete grew stronger in seawater.[^1]',
        footnotes: '[^1]: Jackson et al. 2017, tobermorite.',
      },
    ]);
    expect(searchedText(documents[1]!)).toBe(
      'Roman concrete grew stronger in seawater.[^1]\n\n[^1]: Jackson et al. 2017, tobermorite.',
    );
    // A word only the footnote holds finds the claim.
    expect(
      indexOf(written('Intro.\n\nRoman concrete.[^1]\n\n[^1]: tobermorite crystals.'))
        .search('tobermorite', { limit: 5 })
        .map((hit) => hit.block_id),
    ).toEqual(['block-1']);
  });

  it('gives a block all the footnotes it cites, with its heading path first', () => {
    const [document] = documentsOf(
      written('# Dome\n\nLargest dome.[^a] Still standing.[^b]\n\n[^a]: 43.3 metres.\n\n[^b]: Since 126 AD.'),
    );
    expect(searchedText(document!)).toBe(
      'Dome: Largest dome.[^a] Still standing.[^b]\n\n[^a]: 43.3 metres.\n\n[^b]: Since 126 AD.',
    );
  });

  it('gives a footnote cited twice to both citing blocks', () => {
    const documents = documentsOf(written('First.[^1]\n\n- second[^1]\n\n[^1]: Shared source.'));
    expect(documents.map((document) => [document.block_id, document.footnotes])).toEqual([
      ['block-0', '[^1]: Shared source.'],
      ['block-1', '[^1]: Shared source.'],
    ]);
  });

  it('keeps a definition no block cites, and a reference with no definition, as they are', () => {
    const documents = documentsOf(written('A claim.[^missing]\n\n[^1]: An orphan footnote.'));
    expect(documents.map((document) => [document.text, document.footnotes])).toEqual([
      ['A claim.[^missing]', undefined],
      ['[^1]: An orphan footnote.', undefined],
    ]);
  });

  it('does not read footnote syntax in a code block as a citation', () => {
    const documents = documentsOf(written('```\nclaim[^1]\n```\n\n[^1]: A real definition.'));
    expect(documents.map((document) => [document.block_id, document.footnotes])).toEqual([
      ['block-0', undefined],
      ['block-1', undefined],
    ]);
  });

  it('keeps a definition cited only by a heading (headings are no passages)', () => {
    const documents = documentsOf(written('# Title[^1]\n\nBody.\n\n[^1]: Heading note.'));
    expect(documents.map((document) => document.text)).toEqual(['Body.', '[^1]: Heading note.']);
  });

  it('finds a Chinese claim by the words of its footnote', () => {
    const index = indexOf(
      written(
        '李白的诗。\n\n都江堰至今仍在灌溉成都平原。[^1]\n\n[^1]: 据《史记·河渠书》记载，李冰主持修建。',
      ),
    );
    expect(index.search('河渠书', { limit: 5 }).map((hit) => hit.block_id)).toEqual(['block-1']);
    expect(index.get('block-1')?.text).toBe(
      '都江堰至今仍在灌溉成都平原。[^1]\n\n[^1]: 据《史记·河渠书》记载，李冰主持修建。',
    );
  });

  it('carries at most MAX_ATTACHED_FOOTNOTE_CHARS of footnotes per block', () => {
    const [document] = documentsOf(
      written(`Claim.[^1]\n\n[^1]: ${'x'.repeat(MAX_ATTACHED_FOOTNOTE_CHARS * 2)}`),
    );
    expect(document?.footnotes).toHaveLength(MAX_ATTACHED_FOOTNOTE_CHARS);
  });
});

describe('attachedFootnotes', () => {
  it('takes the footnotes back from a searched text', () => {
    const searched = searchedText({ text: 'Claim.[^1]', section: 'A', footnotes: '[^1]: Source.' });
    expect(attachedFootnotes(searched, 'paragraph')).toBe('[^1]: Source.');
    expect(attachedFootnotes('A: Claim with no footnotes.', 'paragraph')).toBe('');
    // Code may hold the same text; it never carries footnotes.
    expect(attachedFootnotes('```\nx\n\n[^1]: y\n```', 'code')).toBe('');
  });
});
