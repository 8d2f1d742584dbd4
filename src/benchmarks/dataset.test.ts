import { describe, expect, it } from 'vitest';
import { datasetFromNotes, datasetHash, parseDatasetText } from './dataset';

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
