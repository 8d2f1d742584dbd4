import { describe, expect, it } from 'vitest';
import { MAX_BENCHMARK_NOTE_BODY, benchmarkNoteBlocksSchema } from '../contracts';
import { datasetBlocks, datasetFromNotes } from '../benchmarks/dataset';
import { DEFAULT_PAGE_CHARS, DEFAULT_PAGE_ROWS } from '../db';
import {
  DATASET_NOTE_CHARS,
  blockChoice,
  blockLabel,
  noteBlocksForDataset,
  notebookForDataset,
} from './benchmark-notebook';
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

describe('noteBlocksForDataset: the blocks the dataset picker lists', () => {
  it('lists a note a dataset keeps whole by its first blocks, reading only those rows', async () => {
    const fake = new PagedNotesFake();
    const body = Array.from({ length: 1200 }, (_, index) => `Line ${index} of the log.`).join('\n\n');
    fake.add({ note_id: 'note_log', title: 'Log', body });
    const listed = await noteBlocksForDataset(fake, 'note_log', { limit: 100, maxChars: CAP * 10 });
    expect(benchmarkNoteBlocksSchema.parse(listed)).toEqual(listed);
    expect(listed).toMatchObject({
      note_id: 'note_log',
      title: 'Log',
      kept_block_count: 1200,
      block_count: 1200,
      cut: null,
    });
    expect(listed!.items).toHaveLength(100);
    expect(listed!.items[7]).toEqual({
      block_id: 'note_log-b7',
      label: 'Line 7 of the log.',
      type: 'paragraph',
      answerable: true,
    });
    // The first 100 rows, not the note's 1,200, and never its body.
    expect(fake.blockRowsRead).toBe(100);
    expect(fake.wholeReads.size).toBe(0);
  });

  it('lists only the blocks a cut note keeps, the ones a case may name, with the counts the dataset reports', async () => {
    const { fake } = notebook();
    const listed = (await noteBlocksForDataset(fake, 'note_huge', { limit: 1000, maxChars: CAP }))!;
    expect(benchmarkNoteBlocksSchema.parse(listed)).toEqual(listed);
    const { notes, cut } = await notebookForDataset(fake, [], CAP);
    const copy = notes.find((note) => note.note_id === 'note_huge')!;
    // The same cut as the dataset's, and the same blocks.
    expect(listed.cut).toEqual(cut[0]);
    expect(listed.items.map((item) => item.block_id)).toEqual(copy.block_ids);
    expect(listed.kept_block_count).toBe(copy.block_ids.length);
    expect(listed.block_count).toBe(fake.blocksOf('note_huge').length);
    expect(listed.block_count - listed.kept_block_count).toBeGreaterThan(1000);
    expect(listed.items[0]).toMatchObject({
      label: 'Huge log',
      type: 'heading',
      level: 1,
      answerable: false,
    });
    expect(listed.items[1]!.label).toBe('The opening paragraph names the quokka.');
    // Every listed block makes a valid case; the last one too.
    const last = listed.items.at(-1)!;
    await expect(
      notebookForDataset(fake, [{ note_id: 'note_huge', block_id: last.block_id }], CAP),
    ).resolves.toBeDefined();
  });

  it('reads a huge note only up to the cut: never its body, never its blocks past it', async () => {
    const { fake } = notebook();
    const all = fake.blocksOf('note_huge').length;
    fake.blockRowsRead = 0;
    const listed = (await noteBlocksForDataset(fake, 'note_huge', { limit: 5, maxChars: CAP }))!;
    expect(listed.items).toHaveLength(5);
    // The rows whose text reaches the cut (and the one crossing it): a tenth of the note's here.
    expect(fake.blockRowsRead).toBeGreaterThanOrEqual(listed.kept_block_count);
    expect(fake.blockRowsRead).toBeLessThan(all / 10);
    expect(fake.peakSourceChars).toBeLessThan(CAP + 100);
    expect(fake.wholeReads.size).toBe(0);
    expect(fake.wholeNotebookReads).toBe(0);
  });

  it('says nothing of a note that is missing or in the trash', async () => {
    const { fake } = notebook();
    expect(await noteBlocksForDataset(fake, 'note_nowhere', { limit: 10 })).toBeUndefined();
    expect(await noteBlocksForDataset(fake, 'note_gone', { limit: 10 })).toBeUndefined();
  });
});

describe('blockLabel', () => {
  it('shows a short text as it is, on one line', () => {
    expect(blockLabel('  A TLB caches\n  page table entries.  ', 80)).toBe(
      'A TLB caches page table entries.',
    );
    expect(blockLabel('', 80)).toBe('');
  });

  it('cuts a long text to the bound, saying it goes on, and never splits a character', () => {
    const label = blockLabel('word '.repeat(1_000_000), 80);
    expect(label).toHaveLength(80);
    expect(label.endsWith('word…') || label.endsWith('wor…') || label.endsWith('w…')).toBe(true);
    const emoji = blockLabel(`${'a'.repeat(78)}😀 and more`, 80);
    expect(emoji).toBe(`${'a'.repeat(78)}…`);
    // Whitespace that folds away still leaves a text that goes on.
    expect(blockLabel(`start${' '.repeat(400)}end`, 80)).toBe('start…');
  });
});

describe('blockChoice', () => {
  it('carries the parser type: a heading by its level and words, a code line starting with `#` as code', () => {
    expect(blockChoice({ block_id: 'h', type: 'heading', text: 'Round robin\n---' }, 80)).toEqual({
      block_id: 'h',
      label: 'Round robin',
      type: 'heading',
      level: 2,
      answerable: false,
    });
    expect(blockChoice({ block_id: 'c', type: 'code', text: '    # build step' }, 80)).toEqual({
      block_id: 'c',
      label: '# build step',
      type: 'code',
      answerable: true,
    });
  });

  it('marks tag-only, image-only and rule blocks as nothing a case can expect', () => {
    const choice = (type: string, text: string) => blockChoice({ block_id: 'x', type, text }, 80).answerable;
    expect(choice('paragraph', '#math #exam-week')).toBe(false);
    expect(choice('paragraph', '![plot](plot.png)')).toBe(false);
    expect(choice('rule', '***')).toBe(false);
    expect(choice('paragraph', 'The exam is in week 12. #exam-week')).toBe(true);
  });
});
