import { afterEach, describe, expect, it } from 'vitest';
import type { RagCaseDto, RagDatasetFile } from '../contracts';
import { blockHash } from '../core/blocks';
import { NotesRepository, type NotesAgentDatabase } from '../db';
import { freshDatabase } from '../db/test-database';
import { datasetBlocks, datasetFromNotes, datasetHash, parseDataset, parseDatasetText } from './dataset';
import { seedDataset } from './isolated-index';
import { ragCaseResult } from './rag-run';

const NOTES = [
  { note_id: 'a', title: 'A', folder: '', tags: ['t'], body: 'First.\n\nSecond.', block_ids: ['ba1', 'ba2'] },
  { note_id: 'b', title: 'B', folder: 'f', tags: [], body: 'Only.', block_ids: ['bb1'] },
];

describe('parseDatasetText', () => {
  it('refuses an empty file and text that is not JSON, naming the root', () => {
    for (const text of ['', '{nope', 42]) {
      expect(() => parseDatasetText(text)).toThrow(
        expect.objectContaining({
          code: 'BENCHMARK_DATASET_INVALID',
          details: { case_id: null, field: '(root)' },
        }),
      );
    }
  });
});

describe('datasetFromNotes', () => {
  it('copies every note with its block ids and makes one case per picked block', async () => {
    const dataset = datasetFromNotes(
      {
        dataset_id: 'mine',
        description: '',
        cases: [
          { block_id: 'ba2', query: 'second?' },
          { block_id: 'bb1', query: 'only?' },
        ],
      },
      NOTES,
      [{ note_id: 'a' }, { note_id: 'b' }],
    );
    expect(dataset.notes.map((note) => note.block_ids)).toEqual([['ba1', 'ba2'], ['bb1']]);
    // Each id's block by the hash the indexer gives it, and its first line.
    expect(dataset.notes.map((note) => note.block_anchors)).toEqual([
      [
        { hash: blockHash('paragraph', 'First.'), line: 0 },
        { hash: blockHash('paragraph', 'Second.'), line: 2 },
      ],
      [{ hash: blockHash('paragraph', 'Only.'), line: 0 }],
    ]);
    expect(dataset.cases).toEqual([
      {
        case_id: 'mine-001',
        query: 'second?',
        expected_note_ids: ['a'],
        expected_block_ids: ['ba2'],
        citation_required: false,
        tags: ['mine'],
      },
      {
        case_id: 'mine-002',
        query: 'only?',
        expected_note_ids: ['b'],
        expected_block_ids: ['bb1'],
        citation_required: false,
        tags: ['mine'],
      },
    ]);
    expect(await datasetHash(dataset)).toMatch(/^sha256:[0-9a-f]{64}$/);
  });

  it('names the case whose block no longer exists', () => {
    expect(() =>
      datasetFromNotes(
        {
          dataset_id: 'mine',
          description: '',
          cases: [
            { block_id: 'ba1', query: 'q' },
            { block_id: 'gone', query: 'q' },
          ],
        },
        NOTES,
        [{ note_id: 'a' }, undefined],
      ),
    ).toThrow(
      expect.objectContaining({
        code: 'BENCHMARK_DATASET_INVALID',
        details: { case_id: 'mine-002', field: 'cases.1.block_id' },
      }),
    );
  });
});

describe('"my notes" datasets whose notes are cut or ordered differently later', () => {
  let db: NotesAgentDatabase | undefined;
  afterEach(async () => {
    await db?.delete();
    db = undefined;
  });

  const mine = (notes: typeof NOTES, cases: Array<{ block_id: string; query: string }>) =>
    datasetFromNotes(
      { dataset_id: 'mine', description: '', cases },
      notes,
      cases.map(({ block_id }) => ({
        note_id: notes.find((note) => note.block_ids.includes(block_id))!.note_id,
      })),
    ) as RagDatasetFile;

  /** The dataset as a later run seeds it: its notes' blocks, by id, from the run's own database. */
  async function seeded(dataset: RagDatasetFile): Promise<Map<string, string>> {
    db = freshDatabase();
    await seedDataset(db, dataset, '2026-01-01T00:00:00Z');
    const notes = new NotesRepository(db);
    const blocks = (await Promise.all(dataset.notes.map((note) => notes.blocks(note.note_id)))).flat();
    return new Map(blocks.map((block) => [block.text, block.block_id]));
  }

  /** A case scored against one hit: the block holding `text`. */
  const scoredOn = (entry: RagCaseDto, blocks: Map<string, string>, text: string) =>
    ragCaseResult(entry, 'fts', 1, [{ block_id: blocks.get(text)!, note_id: 'a' }], 1);

  it('keeps each expected block on its content when the blocks of a note come in another order', async () => {
    const dataset = mine(
      [
        {
          note_id: 'a',
          title: 'A',
          folder: '',
          tags: [],
          body: 'Alpha.\n\nBeta.\n\nGamma.',
          block_ids: ['x1', 'x2', 'x3'],
        },
      ],
      [
        { block_id: 'x2', query: 'beta?' },
        { block_id: 'x3', query: 'gamma?' },
      ],
    );
    // The same blocks, reordered: the ids follow the text, not the position.
    const reordered = parseDataset({
      ...dataset,
      notes: [{ ...dataset.notes[0]!, body: 'Gamma.\n\nAlpha.\n\nBeta.' }],
    }) as RagDatasetFile;
    const blocks = await seeded(reordered);
    expect(Object.fromEntries(blocks)).toEqual({ 'Gamma.': 'x3', 'Alpha.': 'x1', 'Beta.': 'x2' });
    const [beta, gamma] = reordered.cases;
    expect(scoredOn(beta!, blocks, 'Beta.')).toMatchObject({ passed: true, first_hit_rank: 1 });
    expect(scoredOn(gamma!, blocks, 'Gamma.')).toMatchObject({ passed: true, first_hit_rank: 1 });
    expect(scoredOn(gamma!, blocks, 'Alpha.')).toMatchObject({ passed: false });

    // By position alone (no anchors), the same dataset would expect the wrong text.
    const positional = datasetBlocks({ ...reordered.notes[0]!, block_anchors: undefined });
    expect(positional.map((block) => [block.text, block.block_id])).toEqual([
      ['Gamma.', 'x1'],
      ['Alpha.', 'x2'],
      ['Beta.', 'x3'],
    ]);
  });

  it('finds an id whose block a newer parser cuts differently by the line the block started on', () => {
    // As an older parser cut it: the heading and the line under it were one paragraph.
    const body = '# Title\nIntro line.\n\nSecond para.';
    const note = {
      note_id: 'n',
      title: 'N',
      folder: '',
      tags: [],
      body,
      block_ids: ['old1', 'old2'],
      block_anchors: [
        { hash: blockHash('paragraph', '# Title\nIntro line.'), line: 0 },
        { hash: blockHash('paragraph', 'Second para.'), line: 3 },
      ],
    };
    const dataset = parseDataset({
      dataset_id: 'mine',
      kind: 'rag',
      version: '1.0.0',
      notes: [note],
      cases: [
        { case_id: 'c1', query: 'title?', expected_note_ids: ['n'], expected_block_ids: ['old1'] },
        { case_id: 'c2', query: 'second?', expected_note_ids: ['n'], expected_block_ids: ['old2'] },
      ],
    });
    expect(datasetBlocks(dataset.notes[0]!).map((block) => [block.type, block.text, block.block_id])).toEqual(
      [
        ['heading', '# Title', 'old1'],
        ['paragraph', 'Intro line.', 'n#1'],
        ['paragraph', 'Second para.', 'old2'],
      ],
    );
  });

  it('gives a block two old ones now share to the one a case expects, and refuses a case whose block is gone', async () => {
    // Two old blocks, now one paragraph.
    const note = {
      note_id: 'n',
      title: 'N',
      folder: '',
      tags: [],
      body: 'First half\nsecond half',
      block_ids: ['h1', 'h2'],
      block_anchors: [
        { hash: blockHash('paragraph', 'First half'), line: 0 },
        { hash: blockHash('paragraph', 'second half'), line: 1 },
      ],
    };
    const rag = (expected: string[]) => ({
      dataset_id: 'mine',
      kind: 'rag',
      version: '1.0.0',
      notes: [note],
      cases: expected.map((id, index) => ({
        case_id: `c${index}`,
        query: 'q',
        expected_note_ids: ['n'],
        expected_block_ids: [id],
      })),
    });
    const dataset = parseDataset(rag(['h2'])) as RagDatasetFile;
    expect(Object.fromEntries(await seeded(dataset))).toEqual({ 'First half\nsecond half': 'h2' });
    expect(datasetBlocks(note).map((block) => block.block_id)).toEqual(['h1']);

    expect(() => parseDataset(rag(['h1', 'h2']))).toThrow(
      expect.objectContaining({
        code: 'BENCHMARK_DATASET_INVALID',
        details: { case_id: 'c1', field: 'cases.1.expected_block_ids.0' },
      }),
    );
  });

  it('refuses anchors that do not pair with the ids, and notes whose stored blocks the parser no longer agrees with', () => {
    const dataset = mine(NOTES, [{ block_id: 'ba1', query: 'q' }]);
    const broken = {
      ...dataset,
      notes: [{ ...dataset.notes[0]!, block_anchors: [dataset.notes[0]!.block_anchors![0]] }],
    };
    expect(() => parseDataset(broken)).toThrow(
      expect.objectContaining({
        code: 'BENCHMARK_DATASET_INVALID',
        details: { case_id: null, field: 'notes.0.block_anchors' },
      }),
    );
    const badHash = {
      ...dataset,
      notes: [
        {
          ...dataset.notes[0]!,
          block_anchors: dataset.notes[0]!.block_anchors!.map((a) => ({ ...a, hash: 'x' })),
        },
      ],
    };
    expect(() => parseDataset(badHash)).toThrow(
      expect.objectContaining({ code: 'BENCHMARK_DATASET_INVALID' }),
    );
    // Stored blocks from another parser version: three ids for a body of two blocks.
    expect(() =>
      mine([{ ...NOTES[0]!, block_ids: ['ba1', 'ba2', 'ba3'] }], [{ block_id: 'ba1', query: 'q' }]),
    ).toThrow(
      expect.objectContaining({
        code: 'BENCHMARK_DATASET_INVALID',
        details: { case_id: null, field: 'notes.0.block_ids' },
      }),
    );
  });
});
