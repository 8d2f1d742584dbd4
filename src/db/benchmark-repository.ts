import type { DerivedBlock } from '../core/blocks';
import type { NotesAgentDatabase } from './database';
import type { BenchmarkDatasetRow, BenchmarkRunRow, NoteRow } from './schema';

/** Benchmark runs and imported datasets, in the user's database. */
export class BenchmarkRepository {
  readonly #db: NotesAgentDatabase;

  constructor(db: NotesAgentDatabase) {
    this.#db = db;
  }

  async putRun(row: BenchmarkRunRow): Promise<void> {
    await this.#db.benchmark_runs.put(row);
  }

  getRun(runId: string): Promise<BenchmarkRunRow | undefined> {
    return this.#db.benchmark_runs.get(runId);
  }

  async updateRun(runId: string, changes: Partial<Omit<BenchmarkRunRow, 'run_id'>>): Promise<void> {
    await this.#db.benchmark_runs.update(runId, changes);
  }

  /** Newest first; the caller filters by job status and pages. */
  listRuns(kind?: BenchmarkRunRow['kind']): Promise<BenchmarkRunRow[]> {
    const collection = this.#db.benchmark_runs.orderBy('created_at').reverse();
    return (kind === undefined ? collection : collection.filter((row) => row.kind === kind)).toArray();
  }

  async putDataset(row: BenchmarkDatasetRow): Promise<void> {
    await this.#db.benchmark_datasets.put(row);
  }

  getDataset(datasetId: string): Promise<BenchmarkDatasetRow | undefined> {
    return this.#db.benchmark_datasets.get(datasetId);
  }

  listDatasets(): Promise<BenchmarkDatasetRow[]> {
    return this.#db.benchmark_datasets.toArray();
  }
}

export interface SeedNote {
  note_id: string;
  title: string;
  folder: string;
  tags: string[];
  body: string;
  blocks: DerivedBlock[];
}

/**
 * Writes a dataset's notes, with their given note and block ids, into a
 * benchmark's own database (never the user's: the caller opens a separately
 * named one). One transaction: the corpus lands whole or not at all.
 */
export async function seedBenchmarkNotes(
  db: NotesAgentDatabase,
  notes: readonly SeedNote[],
  now: string,
): Promise<void> {
  const rows: NoteRow[] = notes.map((note) => ({
    note_id: note.note_id,
    title: note.title,
    folder: note.folder,
    body: note.body,
    tags: [...note.tags],
    version: 1,
    created_at: now,
    updated_at: now,
    deleted_at: null,
    trashed: 0,
  }));
  const blocks = notes.flatMap((note) => note.blocks.map((block) => ({ ...block, note_id: note.note_id })));
  await db.transaction('rw', db.notes, db.blocks, async () => {
    await db.notes.bulkAdd(rows);
    await db.blocks.bulkAdd(blocks);
  });
}
