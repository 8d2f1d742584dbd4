import { describe, expect, it } from 'vitest';
import { MAX_BENCHMARK_NOTE_BODY } from '../contracts';
import { datasetBlocks, datasetFromNotes } from '../benchmarks/dataset';
import { DEFAULT_PAGE_CHARS, DEFAULT_PAGE_ROWS } from '../db';
import { DATASET_NOTE_CHARS, notebookForDataset } from './benchmark-notebook';
import { PagedNotesFake } from './test-paged-notes';
import { codeOf } from './test-error-code';

const CAP = 10_000;

/** A note of many short paragraphs, far longer than the cap: a marker in its first, another in its last. */
function longBody(chars: number): string {
  const head = '---\ntags: [log]\n---\n# Huge log\n\nThe opening paragraph names the quokka.\n\n';
  const tail = 'The closing paragraph names the wombat.\n';
  const filler = 'A line of the log, long enough to matter.\n\n';
  return head + filler.repeat(Math.ceil((chars - head.length - tail.length) / filler.length)) + tail;
}

function notebook(): { fake: PagedNotesFake; hugeBody: string } {
  const fake = new PagedNotesFake();
  for (let i = 0; i < 450; i++) {
    fake.add({ note_id: `note_${i}`, title: `Small ${i}`, body: `# Small ${i}\n\nText of note ${i}.\n` });
  }
  const hugeBody = longBody(50 * CAP);
  fake.add({ note_id: 'note_huge', title: 'Huge log', body: hugeBody });
  fake.add({ note_id: 'note_gone', title: 'Trashed', body: 'x', deleted_at: '2026-01-02T00:00:00.000Z' });
  return { fake, hugeBody };
}

const request = (cases: Array<{ block_id: string; query: string }>) => ({
  dataset_id: 'my-notes',
  description: '',
  cases,
});

describe('notebookForDataset: what "benchmark my notes" copies', () => {
  it('copies the notebook a page at a time and a long note only up to the cap, ending at a whole block', async () => {
    const { fake, hugeBody } = notebook();
    const opening = fake.blocksOf('note_huge').find((block) => block.text.includes('quokka'))!;
    const picked = [{ note_id: 'note_huge', block_id: opening.block_id }];

    const { notes, cut } = await notebookForDataset(fake, picked, CAP);

    expect(notes.map((note) => note.note_id)).toHaveLength(451);
    expect(notes.some((note) => note.note_id === 'note_gone')).toBe(false);
    const huge = notes.find((note) => note.note_id === 'note_huge')!;
    expect(huge.body.length).toBeLessThanOrEqual(CAP);
    expect(huge.body.length).toBeGreaterThan(CAP - 100);
    expect(huge.body).toContain('The opening paragraph names the quokka.');
    expect(huge.body).not.toContain('wombat');
    // The copy's lines are the note's lines (front matter left empty), so its blocks are the note's first ones.
    expect(huge.body.split('\n').slice(3, 8)).toEqual(hugeBody.split('\n').slice(3, 8));
    const stored = fake.blocksOf('note_huge');
    expect(huge.block_ids).toEqual(stored.slice(0, huge.block_ids.length).map((block) => block.block_id));
    expect(cut).toEqual([
      {
        note_id: 'note_huge',
        title: 'Huge log',
        body_length: hugeBody.length,
        kept_chars: huge.body.length,
        kept_block_count: huge.block_ids.length,
        block_count: stored.length,
      },
    ]);
    expect(huge.block_ids.length).toBeLessThan(stored.length);
    const small = notes.find((note) => note.note_id === 'note_7')!;
    expect(small).toMatchObject({
      body: '# Small 7\n\nText of note 7.\n',
      block_ids: ['note_7-b0', 'note_7-b1'],
    });

    // Bounded: never the whole notebook, never the long body whole, a page at a time.
    expect(fake.wholeNotebookReads).toBe(0);
    expect(fake.wholeReads.has('note_huge')).toBe(false);
    expect(fake.longestWholeBody).toBeLessThan(100);
    expect(fake.peakRows).toBeLessThanOrEqual(DEFAULT_PAGE_ROWS);
    expect(fake.peakChars).toBeLessThanOrEqual(DEFAULT_PAGE_CHARS);
    expect(fake.peakSourceChars).toBeLessThan(CAP + 100);
    expect(fake.pages).toBeGreaterThanOrEqual(3);
    expect(fake.overlapping).toBe(false);

    // The copy makes a valid dataset whose case finds its block in the copied text.
    const dataset = datasetFromNotes(
      request([{ block_id: opening.block_id, query: 'quokka' }]),
      notes,
      picked,
    );
    const copied = dataset.notes.find((note) => note.note_id === 'note_huge')!;
    expect(datasetBlocks(copied).find((block) => block.block_id === opening.block_id)?.text).toBe(
      'The opening paragraph names the quokka.',
    );
  });

  it('refuses a case whose block lies past where its note is copied, naming the case and the note', async () => {
    const { fake } = notebook();
    const closing = fake.blocksOf('note_huge').find((block) => block.text.includes('wombat'))!;
    const small = fake.blocksOf('note_3')[1]!;
    const picked = [
      { note_id: 'note_3', block_id: small.block_id },
      { note_id: 'note_huge', block_id: closing.block_id },
    ];
    const failure = notebookForDataset(fake, picked, CAP);
    await expect(failure).rejects.toMatchObject({
      code: 'BENCHMARK_DATASET_INVALID',
      details: { case_id: 'mine-002', field: 'cases.1.block_id' },
    });
    await expect(failure).rejects.toThrow(
      'Case 2: the chosen block lies past the first 10,000 characters of “Huge log”',
    );
  });

  it('copies a note of exactly the cap whole, and uses the dataset format’s own bound by default', async () => {
    expect(DATASET_NOTE_CHARS).toBe(MAX_BENCHMARK_NOTE_BODY);
    const fake = new PagedNotesFake();
    const body = `${'x'.repeat(CAP - 1)}\n`;
    fake.add({ note_id: 'note_full', title: 'Full', body });
    const { notes, cut } = await notebookForDataset(fake, [], CAP);
    expect(notes[0]!.body).toBe(body);
    expect(cut).toEqual([]);
  });

  it('copies nothing of a long note whose first block alone is over the cap, and a case on it is refused', async () => {
    const fake = new PagedNotesFake();
    fake.add({ note_id: 'note_wall', title: 'Wall', body: 'word '.repeat(3 * CAP) });
    const { notes, cut } = await notebookForDataset(fake, [], CAP);
    expect(notes).toEqual([
      { note_id: 'note_wall', title: 'Wall', folder: '', tags: [], body: '', block_ids: [] },
    ]);
    expect(cut).toMatchObject([{ note_id: 'note_wall', kept_chars: 0, kept_block_count: 0, block_count: 1 }]);
    const block = fake.blocksOf('note_wall')[0]!;
    expect(
      await codeOf(notebookForDataset(fake, [{ note_id: 'note_wall', block_id: block.block_id }], CAP)),
    ).toBe('BENCHMARK_DATASET_INVALID');
  });

  it('gives an empty notebook no notes, and passes on a read that fails mid-pass', async () => {
    expect(await notebookForDataset(new PagedNotesFake(), [])).toEqual({ notes: [], cut: [] });
    const { fake } = notebook();
    fake.failOnPage = 2;
    await expect(notebookForDataset(fake, [], CAP)).rejects.toThrow('the disk went away');
  });
});
