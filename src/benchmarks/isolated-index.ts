import type { BenchmarkDatasetFile } from '../contracts';
import { EventLog } from '../core/event-log';
import { JobRuntime } from '../core/job-runtime';
import {
  EventRepository,
  IndexRepository,
  JobRepository,
  NotesRepository,
  type NotesAgentDatabase,
} from '../db';
import { seedBenchmarkNotes } from '../db/benchmark-repository';
import type { Embedder } from '../retrieval';
import { SearchIndexer } from '../retrieval/search-indexer';
import { datasetBlocks, expectedBlockIds } from './dataset';

/** The name prefix of a benchmark run's own database: never the user's notebook. */
export const ISOLATED_DATABASE_PREFIX = 'notes-agent-benchmark-';

/** Writes a dataset's notes (with its block ids) into a run's own database. */
export function seedDataset(
  db: NotesAgentDatabase,
  dataset: BenchmarkDatasetFile,
  now: string,
): Promise<void> {
  const expected = expectedBlockIds(dataset);
  return seedBenchmarkNotes(
    db,
    dataset.notes.map((note) => ({ ...note, blocks: datasetBlocks(note, expected) })),
    now,
  );
}

/**
 * A RAG run's own notebook: the dataset's notes in a separately named
 * database, with its own job runtime so its index jobs never appear among the
 * user's. Deleted when the run ends, whatever the outcome.
 */
export class IsolatedIndex {
  readonly db: NotesAgentDatabase;
  readonly notes: NotesRepository;
  readonly events: EventLog;
  readonly indexer: SearchIndexer;

  private constructor(db: NotesAgentDatabase, embedder: Embedder, queryEmbedder: Embedder) {
    this.db = db;
    this.notes = new NotesRepository(db);
    this.events = new EventLog(new EventRepository(db));
    const runtime = new JobRuntime(new JobRepository(db), this.events);
    this.indexer = new SearchIndexer({
      notes: this.notes,
      store: new IndexRepository(db),
      runtime,
      embedder,
      queryEmbedder,
    });
  }

  static async open(
    db: NotesAgentDatabase,
    dataset: BenchmarkDatasetFile,
    embedder: Embedder,
    now: string,
    /** What embeds the queries when the model wants them apart (e5's `query: ` prefix). */
    queryEmbedder: Embedder = embedder,
  ): Promise<IsolatedIndex> {
    const isolated = new IsolatedIndex(db, embedder, queryEmbedder);
    try {
      await seedDataset(db, dataset, now);
      await isolated.indexer.start();
      return isolated;
    } catch (error) {
      await isolated.close();
      throw error;
    }
  }

  async close(): Promise<void> {
    this.indexer.dispose();
    await this.db.delete();
  }
}
