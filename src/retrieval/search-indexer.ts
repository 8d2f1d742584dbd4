import {
  AppError,
  INDEX_REBUILD_JOB_KIND,
  INDEX_UPDATE_JOB_KIND,
  isAbortError,
  isAppError,
  toErrorEnvelope,
  type ErrorCode,
  type IndexState,
  type IndexStatusDto,
  type JobDto,
  type RebuildScope,
} from '../contracts';
import { MAX_INDEXED_CHARS_PER_NOTE } from '../contracts/notes';
import type { JobContext, JobRuntime } from '../core/job-runtime';
import { newId } from '../core/ids';
import { noteAliases } from '../core/wikilinks-aliases';
import type {
  IndexDirtyRow,
  IndexMetaRow,
  IndexSource,
  NoteChange,
  NoteChangeListener,
  SearchSegmentRow,
} from '../db';
import { emptyTally, PACK_NOTES, SEGMENT_STORE_FORMAT, type SegmentTally } from '../db/index-repository';
import type { Embedder } from './embedder';
import { FULL_TEXT_SEGMENT_FORMAT, FullTextIndex, type FullTextNoteSegment } from './full-text-index';
import {
  documentsOf,
  INDEX_DOCUMENTS_FORMAT,
  noteSegmentOf,
  searchedText,
  type IndexDocument,
} from './index-documents';
import type { IndexNotesSource, IndexStore } from './index-ports';
import { calibrateIndex, storedCalibration } from './relevance-calibration';
import { VectorIndex } from './vector-index';

/** The indexes one query reads: taken once per query, so a swap never mixes two generations. */
export interface IndexView {
  fullText: FullTextIndex;
  /** Undefined until vectors have been built (or when the stored ones cannot be read). */
  vectors: VectorIndex | undefined;
  embedder: Embedder;
  /**
   * True when the stored indexes were still loading and the caller accepted
   * that: `fullText` then holds only the notes read so far and `vectors` is
   * undefined. See `view({ partial: true })`.
   */
  loading: boolean;
}

export interface SearchIndexerOptions {
  notes: IndexNotesSource;
  store: IndexStore;
  runtime: JobRuntime;
  /** Embeds the blocks; and the queries too unless `queryEmbedder` is given. */
  embedder: Embedder;
  /** The same model with its query prefix (e5: `query: `); see TransformersEmbedder.forQueries. */
  queryEmbedder?: Embedder;
  /**
   * Called once before the stored indexes load: the embedder the user chose
   * last time, restored from settings (undefined: keep `embedder`). Loading
   * waits for it, so a first build never uses the wrong model.
   */
  restoreEmbedder?: () => Promise<EmbedderPair | undefined>;
  /** Quiet time after the last note change before the update job starts. */
  debounceMs?: number;
  /** The longest a change waits while changes keep arriving. */
  maxWaitMs?: number;
  /** How long a search waits for changes to reach the in-memory indexes before answering without them. */
  catchUpTimeoutMs?: number;
  now?: () => string;
}

export interface IndexJobResult {
  notes: number;
  blocks: number;
  /** Notes of which only the first MAX_INDEXED_CHARS_PER_NOTE characters were indexed. */
  truncated_notes?: string[];
}

export { MAX_INDEXED_CHARS_PER_NOTE };

/**
 * The note's documents up to `limit` characters of text (footnotes a block
 * carries count too), in order; the block that crosses the limit keeps its
 * start (a note of one 100 MB paragraph is still found by its first words),
 * its footnotes only as far as they fit. `truncated` says whether any text was left out.
 */
export function capNoteDocuments<T extends { text: string; footnotes?: string }>(
  documents: readonly T[],
  limit = MAX_INDEXED_CHARS_PER_NOTE,
): { documents: T[]; truncated: boolean } {
  let total = 0;
  for (let index = 0; index < documents.length; index += 1) {
    const document = documents[index]!;
    const footnotes = document.footnotes ?? '';
    if (total + document.text.length + footnotes.length > limit) {
      const kept = documents.slice(0, index);
      const room = limit - total - document.text.length;
      if (room > 0) {
        kept.push({ ...document, footnotes: footnotes.slice(0, room) });
      } else if (limit > total) {
        const { footnotes: _dropped, ...rest } = document;
        kept.push({ ...rest, text: document.text.slice(0, limit - total) } as T);
      }
      return { documents: kept, truncated: true };
    }
    total += document.text.length + footnotes.length;
  }
  return { documents: [...documents], truncated: false };
}

/**
 * The full-text format stored in the meta row: how segments are encoded and
 * what a block's document holds (its heading path since `sections-1`). A start
 * that finds another rebuilds both indexes, since the vectors embed the same text.
 */
export const STORED_FULL_TEXT_FORMAT = `${FULL_TEXT_SEGMENT_FORMAT}/${INDEX_DOCUMENTS_FORMAT}`;

/** Notes read, embedded and indexed per step: bounds memory, and a cancel lands between steps. */
const NOTES_PER_STEP = 50;
/** Texts per embedder call. */
const EMBED_BATCH = 64;
/** Stored rows (notes) read and added per step of a start. */
const LOAD_PAGE_ROWS = 500;
/**
 * Recent (per-note) rows kept before they are packed: each costs a start one
 * record read, a pack of a hundred about the same as one.
 */
export const RECENT_ROWS_LIMIT = 100;

/**
 * Whether the rows a start read should be packed: a store of per-note rows
 * from before packs (once), too many recent rows (`compact`: append them as a
 * pack), or packs holding many hidden rows or many small packs (`repack`).
 */
export function packingNeeded(tally: SegmentTally, format: string | undefined): 'compact' | 'repack' | null {
  const live = tally.packed - tally.hidden;
  if (tally.hidden > PACK_NOTES && tally.hidden > live / 4) return 'repack';
  if (tally.packs > 2 * Math.ceil(live / PACK_NOTES) + 4) return 'repack';
  if (format !== SEGMENT_STORE_FORMAT || tally.recent.length >= RECENT_ROWS_LIMIT) return 'compact';
  return null;
}

/** Lets queued messages (a notes list asked for at start) run before the next step. */
function nextTask(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}
/**
 * Finished `index.update` jobs kept (newest first): one runs after every burst
 * of edits, so without pruning the jobs table and its events grow for ever.
 * The runtime prunes in batches (see JobHandler.keepFinished).
 */
export const KEEP_FINISHED_UPDATE_JOBS = 5;

/** One model for both sides: blocks are embedded as passages, queries as queries. */
export interface EmbedderPair {
  passages: Embedder;
  queries: Embedder;
}

interface Target {
  fullText: FullTextIndex | undefined;
  vectors: VectorIndex | undefined;
}

/** What one indexing pass did: blocks indexed, and each note that still exists with its `updated_at`. */
interface Indexed {
  blocks: number;
  stamps: Map<string, string>;
  /** The full-text segment of each note added to the target's full-text index, ready to store. */
  segments: Map<string, FullTextNoteSegment>;
}

/**
 * Keeps the full-text and vector indexes in step with the notes.
 *
 * - Start: the indexes saved last time are loaded (the fast path), one stored
 *   row per note, read a pack of rows at a time; a note whose row does not
 *   match it (a change whose dirty mark was lost) is re-indexed, and only when
 *   there are none, or they cannot be read, a rebuild job builds them from the
 *   notes. A store with many unpacked or hidden rows is packed after the load.
 * - Saving writes the rows of the notes just indexed, the meta row and the
 *   cleared dirty marks in one transaction, never the whole index; every
 *   RECENT_ROWS_LIMIT notes saved so, their rows are appended as a pack.
 * - Note changes arrive through `notesChanged` (the notes repository calls it
 *   after each commit). A change is marked dirty in memory and in IndexedDB, a
 *   trashed or deleted note leaves the in-memory indexes at once, and a
 *   debounced `index.update` job re-indexes the dirty notes and saves.
 * - `rebuild` builds new indexes beside the live ones and swaps them in, saved,
 *   only when complete: a cancelled rebuild leaves the old indexes answering.
 * - Vectors are only ever added by the model that made the index: when the
 *   embedder differs, updates remove stale vectors but add none until a rebuild.
 *
 * Updates and rebuilds hold one lock, so they never interleave. Queries do
 * not take it: they read the live pair, which is replaced, never half-edited
 * across an await.
 */
export class SearchIndexer implements NoteChangeListener {
  readonly #notes: IndexNotesSource;
  readonly #store: IndexStore;
  readonly #runtime: JobRuntime;
  #embedder: EmbedderPair;
  readonly #restoreEmbedder: (() => Promise<EmbedderPair | undefined>) | undefined;
  readonly #debounceMs: number;
  readonly #maxWaitMs: number;
  readonly #catchUpTimeoutMs: number;
  readonly #now: () => string;

  #live: Target & { fullText: FullTextIndex } = { fullText: new FullTextIndex(), vectors: undefined };
  #loading: Promise<void> | null = null;
  #loaded = false;
  /** While a start reads the stored rows: the full-text index they fill, and the notes removed meanwhile. */
  #loadingFullText: FullTextIndex | undefined;
  readonly #removedWhileLoading = new Set<string>();
  /** Resolves when there is something to search: loaded, and the first build done when nothing was stored. */
  #searchable: Promise<void> | null = null;
  /**
   * Resolves when the rebuild a start began (of everything, or of the vectors
   * alone) has ended. Until its job is created no one else knows of it, so
   * `flush` waits for this, not only for the jobs it can see.
   */
  #startBuild: Promise<void> = Promise.resolve();
  #loadFailed: { code: ErrorCode; message: string } | null = null;
  #meta: IndexMetaRow | undefined;
  /** The stored generation the live indexes are saved in (see SearchSegmentRow). */
  #generation = 0;
  /** Notes with a recent (unpacked) stored row in the live generation. */
  readonly #recent = new Set<string>();
  #lastError: { code: ErrorCode; message: string } | null = null;

  /** note_id -> token of its latest mark. */
  readonly #dirty = new Map<string, string>();
  #dirtyWrites: Promise<void> = Promise.resolve();
  /** Bumped on every mark; `#applied` says up to which mark the in-memory indexes are current. */
  #marks = 0;
  #applied = 0;
  #settleWaiters: Array<() => void> = [];
  #timer: ReturnType<typeof setTimeout> | null = null;
  #firstMarkAt: number | null = null;

  #lock: Promise<unknown> = Promise.resolve();
  #rebuilding = 0;
  /** Index jobs not yet ended, by job_id; and which of them hold the lock. */
  readonly #jobs = new Map<string, { kind: string; ended: Promise<void> }>();
  readonly #runningJobs = new Set<string>();
  /** The update job created and not started yet (resolves to its id once created). */
  #queuedUpdate: Promise<string | null> | null = null;
  #disposed = false;
  /** Notes indexed only in part (over MAX_INDEXED_CHARS_PER_NOTE), reported with each job. */
  readonly #truncated = new Set<string>();

  constructor(options: SearchIndexerOptions) {
    this.#notes = options.notes;
    this.#store = options.store;
    this.#runtime = options.runtime;
    this.#embedder = { passages: options.embedder, queries: options.queryEmbedder ?? options.embedder };
    this.#restoreEmbedder = options.restoreEmbedder;
    this.#debounceMs = options.debounceMs ?? 1500;
    this.#maxWaitMs = options.maxWaitMs ?? 10_000;
    this.#catchUpTimeoutMs = options.catchUpTimeoutMs ?? 3000;
    this.#now = options.now ?? (() => new Date().toISOString());
    options.runtime.register<Record<string, never>, IndexJobResult>({
      kind: INDEX_UPDATE_JOB_KIND,
      concurrency: 1,
      // Its input is the dirty marks in IndexedDB, so it can simply run again.
      resumable: true,
      keepFinished: KEEP_FINISHED_UPDATE_JOBS,
      run: (context) => this.#runUpdate(context),
    });
    options.runtime.register<{ scope?: unknown }, IndexJobResult & { scope: RebuildScope }>({
      kind: INDEX_REBUILD_JOB_KIND,
      concurrency: 1,
      // Rebuilding starts from the notes every time; resuming is starting again.
      resumable: true,
      run: (context) => this.#runRebuild(context),
    });
  }

  /** The model blocks are embedded with now. */
  get embedder(): Embedder {
    return this.#embedder.passages;
  }

  /**
   * Switches the embedding model. Nothing is re-embedded here: vectors made by
   * another model stay until a `vectors` rebuild replaces them, and meanwhile
   * vector queries fail with INDEX_MODEL_MISMATCH (§9.9). Jobs already running
   * finish with the model they started with.
   */
  setEmbedder(pair: EmbedderPair): void {
    this.#embedder = pair;
  }

  /** Loads the stored indexes (once); later calls return the same promise. */
  start(): Promise<void> {
    this.#loading ??= this.#load();
    return this.#loading;
  }

  /**
   * The indexes a query should read, after the changes reported so far have
   * reached them (read-your-writes), unless a rebuild is running (then the old
   * indexes answer) or catching up takes longer than the timeout.
   *
   * `partial`: while the stored index is still being read (seconds for a large
   * notebook on a slow device), answer at once from the notes read so far,
   * marked `loading`, instead of waiting for all of them. Search as you type
   * asks this; the caller searches again once `start()` resolves.
   */
  async view(options: { partial?: boolean } = {}): Promise<IndexView> {
    const loading = this.start();
    if (options.partial && !this.#loaded) {
      return {
        fullText: this.#loadingFullText ?? new FullTextIndex(),
        vectors: undefined,
        embedder: this.#embedder.queries,
        loading: true,
      };
    }
    await loading;
    await this.#searchable;
    await this.#catchUp();
    return {
      fullText: this.#live.fullText,
      vectors: this.#live.vectors,
      embedder: this.#embedder.queries,
      loading: false,
    };
  }

  // ---------------------------------------------------------------------------
  // Note changes
  // ---------------------------------------------------------------------------

  notesChanged(change: NoteChange): void {
    if (this.#disposed || change.note_ids.length === 0) return;
    const rows: IndexDirtyRow[] = change.note_ids.map((note_id) => ({ note_id, token: newId('mark') }));
    for (const row of rows) this.#dirty.set(row.note_id, row.token);
    this.#marks += 1;
    if (change.kind === 'removed') {
      // Leaving is cheap and must not wait: a trashed note disappears from results now.
      for (const noteId of change.note_ids) {
        this.#live.fullText.removeNote(noteId);
        this.#live.vectors?.removeNote(noteId);
        if (this.#loadingFullText) {
          this.#loadingFullText.removeNote(noteId);
          this.#removedWhileLoading.add(noteId);
        }
      }
    }
    this.#dirtyWrites = this.#dirtyWrites
      .then(() => this.#store.markDirty(rows))
      .catch((error: unknown) => this.#warn('could not record notes to re-index', error));
    this.#schedule();
  }

  #schedule(): void {
    if (this.#disposed) return;
    if (this.#timer !== null) clearTimeout(this.#timer);
    const now = Date.now();
    this.#firstMarkAt ??= now;
    const delay = Math.max(0, Math.min(this.#debounceMs, this.#firstMarkAt + this.#maxWaitMs - now));
    this.#timer = setTimeout(() => void this.#flushNow(), delay);
  }

  /**
   * Starts an update job now unless one is already waiting to run (it will
   * take every mark). Resolves when the job is created.
   */
  #flushNow(): Promise<void> {
    if (this.#timer !== null) clearTimeout(this.#timer);
    this.#timer = null;
    this.#firstMarkAt = null;
    if (this.#disposed || this.#dirty.size === 0) return Promise.resolve();
    if (this.#queuedUpdate !== null) return this.#queuedUpdate.then(() => undefined);
    const created = this.#runtime.create(INDEX_UPDATE_JOB_KIND, {}).then(
      (job) => {
        this.#track(job);
        // Normally the job clears this when it starts; a job cancelled while queued never starts.
        void this.#jobs.get(job.job_id)?.ended.then(() => {
          if (this.#queuedUpdate === created) this.#queuedUpdate = null;
        });
        return job.job_id;
      },
      (error: unknown) => {
        if (this.#queuedUpdate === created) this.#queuedUpdate = null;
        this.#settle();
        this.#warn('could not start the index update', error);
        return null;
      },
    );
    this.#queuedUpdate = created;
    return created.then(() => undefined);
  }

  /** Runs the pending update now and waits for the index jobs to end (tests, shutdown). */
  async flush(): Promise<void> {
    await this.start();
    await this.#searchable;
    await this.#startBuild;
    for (let round = 0; round < 10 && (this.#dirty.size > 0 || this.#jobs.size > 0); round++) {
      await this.#flushNow();
      await this.#dirtyWrites;
      await Promise.all([...this.#jobs.values()].map((job) => job.ended));
    }
    // Packing the stored rows holds the lock too, without being a job.
    await this.#lock.catch(() => undefined);
  }

  async #catchUp(): Promise<void> {
    const target = this.#marks;
    for (let attempt = 0; attempt < 3 && this.#applied < target; attempt++) {
      if (this.#rebuilding > 0) return;
      const settled = new Promise<void>((resolve) => this.#settleWaiters.push(resolve));
      void this.#flushNow();
      let timer: ReturnType<typeof setTimeout> | undefined;
      const timedOut = await Promise.race([
        settled.then(() => false),
        new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(true), this.#catchUpTimeoutMs))),
      ]);
      clearTimeout(timer);
      if (timedOut || this.#lastError !== null) return;
    }
  }

  #settle(): void {
    const waiters = this.#settleWaiters;
    this.#settleWaiters = [];
    for (const resolve of waiters) resolve();
  }

  // ---------------------------------------------------------------------------
  // Loading and saving
  // ---------------------------------------------------------------------------

  async #load(): Promise<void> {
    let needs: RebuildScope | null = null;
    let packing: 'compact' | 'repack' | null = null;
    try {
      const restored = await this.#restoreEmbedder?.();
      if (restored) this.#embedder = restored;
    } catch (error) {
      this.#warn('the chosen embedding model could not be restored; using the default', error);
    }
    try {
      const stored = await this.#store.loadHead();
      for (const row of stored.dirty) {
        // A mark made in this session before loading is newer than the stored one.
        if (!this.#dirty.has(row.note_id)) this.#dirty.set(row.note_id, row.token);
      }
      if (stored.dirty.length > 0) this.#marks += 1;
      let fullText: FullTextIndex | undefined;
      let vectors: VectorIndex | undefined;
      const saved = stored.meta?.segments;
      if (saved) this.#generation = saved.generation;
      const rows: Array<Pick<SearchSegmentRow, 'note_id' | 'updated_at'>> = [];
      const tally = emptyTally();
      let stamps: Promise<Map<string, string>> | undefined;
      if (saved?.format !== undefined && saved.format !== SEGMENT_STORE_FORMAT) {
        this.#warn('the stored index is kept in another format; rebuilding it', saved.format);
      } else if (saved && saved.full_text_format !== STORED_FULL_TEXT_FORMAT) {
        this.#warn('the stored full-text index has another format; rebuilding it', saved.full_text_format);
      } else if (saved) {
        // The notes' stamps are read beside the rows, not after them: only the
        // check of one against the other (below) needs both. Its failure is
        // thrown there, not reported unhandled meanwhile.
        stamps = this.#store.liveStamps();
        stamps.catch(() => undefined);
        fullText = new FullTextIndex();
        this.#loadingFullText = fullText;
        const vectorRows: Array<{ note_id: string; vectors: NonNullable<SearchSegmentRow['vectors']> }> = [];
        try {
          // A page at a time, yielding between pages: the worker that loads
          // also answers the notes list, which must not wait for the whole index.
          for await (const page of this.#store.segmentPages(saved.generation, LOAD_PAGE_ROWS, tally)) {
            for (const row of page) {
              rows.push({ note_id: row.note_id, updated_at: row.updated_at });
              if (row.vectors) vectorRows.push({ note_id: row.note_id, vectors: row.vectors });
            }
            try {
              // A note trashed meanwhile stays out of partial answers; its dirty mark re-indexes it after the load.
              fullText?.addSegments(
                page.flatMap((row) =>
                  row.full_text && !this.#removedWhileLoading.has(row.note_id) ? [row.full_text] : [],
                ),
              );
            } catch (error) {
              fullText = undefined;
              this.#loadingFullText = undefined;
              this.#warn('the stored full-text index cannot be used; rebuilding it', error);
            }
            await nextTask();
          }
        } catch (error) {
          // A stored row or pack of the wrong shape: skipping it would leave its
          // notes unsearchable, so the whole index is rebuilt. Anything else is
          // IndexedDB itself failing (below).
          if (!isAppError(error) || error.code !== 'STATE_CONFLICT') throw error;
          fullText = undefined;
          this.#loadingFullText = undefined;
          this.#warn('the stored index is damaged; rebuilding it', error);
        }
        try {
          if (fullText && saved.vector_model)
            vectors = VectorIndex.fromSegments(saved.vector_model, vectorRows);
          if (vectors) vectors.relevanceCalibration = storedCalibration(saved.relevance_calibration, vectors);
        } catch (error) {
          this.#warn('the stored vectors cannot be read; rebuilding them', error);
        }
      }
      this.#meta = stored.meta;
      if (fullText && stamps) this.#markStale(rows, await stamps);
      // Before any job can take the lock, so a rebuild's own new rows are never caught.
      if (stored.stale_rows > 0) {
        await this.#store
          .dropGenerationsExcept(this.#generation)
          .catch((error: unknown) => this.#warn('could not drop an unfinished rebuild', error));
      }
      if (fullText) {
        // Dirty notes (changed since the save) are caught up before the first query reads them.
        this.#live = { fullText, vectors };
        if (!vectors) needs = 'vectors';
        for (const noteId of tally.recent) this.#recent.add(noteId);
        packing = packingNeeded(tally, saved?.format);
      } else {
        needs = 'all';
      }
    } catch (error) {
      // IndexedDB itself failed: search what this session indexes, say why, build anew.
      this.#loadFailed = codeAndMessage(toErrorEnvelope(error, 'The search index could not be loaded.'));
      this.#warn('loading the search index failed', error);
      needs = 'all';
    }
    this.#loadingFullText = undefined;
    this.#removedWhileLoading.clear();
    this.#loaded = true;
    if (needs !== null) {
      const build = this.#startRebuild(needs).then(
        (job) => this.#runtime.whenEnded(job.job_id),
        (error: unknown) => this.#warn('could not start the index build', error),
      );
      this.#startBuild = build;
      // With no full-text index at all a search would find nothing: wait for the first build.
      this.#searchable = needs === 'all' ? build : Promise.resolve();
    } else {
      this.#searchable = Promise.resolve();
      // In the background and under the lock, so no update or rebuild writes meanwhile.
      if (packing !== null) void this.#withLock(null, () => this.#pack(packing));
    }
    // Updates finished in earlier sessions are pruned at the first one that ends in this one.
    if (this.#dirty.size > 0) this.#schedule();
  }

  /**
   * Marks the notes whose stored rows do not match the notes table: a note
   * changed, created, trashed or deleted while its dirty mark was lost (the tab
   * closed between the note's commit and the mark). Only those are re-indexed.
   */
  #markStale(
    rows: ReadonlyArray<Pick<SearchSegmentRow, 'note_id' | 'updated_at'>>,
    live: ReadonlyMap<string, string>,
  ): void {
    const stored = new Map(rows.map((row) => [row.note_id, row.updated_at]));
    const stale: string[] = [];
    for (const [noteId, updatedAt] of live) if (stored.get(noteId) !== updatedAt) stale.push(noteId);
    for (const noteId of stored.keys()) if (!live.has(noteId)) stale.push(noteId);
    let marked = false;
    for (const noteId of stale) {
      if (this.#dirty.has(noteId)) continue;
      this.#dirty.set(noteId, newId('mark'));
      marked = true;
    }
    if (marked) this.#marks += 1;
  }

  /** The stored rows of `noteIds` after indexing them into `target`: a row per note that exists, the others removed. */
  #rows(
    target: Target,
    noteIds: Iterable<string>,
    indexed: Omit<Indexed, 'blocks'>,
    generation: number,
  ): { put: SearchSegmentRow[]; remove: string[] } {
    const { stamps, segments } = indexed;
    const fullText = target.fullText ?? this.#live.fullText;
    const put: SearchSegmentRow[] = [];
    const remove: string[] = [];
    for (const noteId of noteIds) {
      const updatedAt = stamps.get(noteId);
      if (updatedAt === undefined) {
        remove.push(noteId);
        continue;
      }
      put.push({
        generation,
        note_id: noteId,
        updated_at: updatedAt,
        // The segment the note was just indexed from; the index is asked only for notes not in this pass.
        full_text: segments.get(noteId) ?? fullText.noteSegment(noteId) ?? null,
        vectors: target.vectors?.storedSegment(noteId) ?? null,
      });
    }
    return { put, remove };
  }

  /**
   * Saves what indexing `consumed` changed: an update rewrites only those
   * notes' rows; a rebuild (`built`) writes them into its new generation and
   * makes it the live one.
   */
  async #save(
    target: Target,
    consumed: ReadonlyMap<string, string>,
    built: 'all' | 'vectors' | null,
    indexed: Omit<Indexed, 'blocks'>,
  ) {
    const vectors = target.vectors;
    const now = this.#now();
    // Before the first build there is no stored index to add to; the build writes all of it.
    const stored = built !== null || this.#meta?.segments !== undefined;
    const generation = built !== null ? this.#generation + 1 : this.#generation;
    const meta: IndexMetaRow = {
      last_completed_at: now,
      full_text_built_at: built === 'all' ? now : (this.#meta?.full_text_built_at ?? null),
      vectors_built_at: built !== null ? now : (this.#meta?.vectors_built_at ?? null),
      ...(stored && {
        segments: {
          generation,
          format: SEGMENT_STORE_FORMAT,
          full_text_format: STORED_FULL_TEXT_FORMAT,
          vector_model: vectors ? { ...vectors.info } : null,
          ...(vectors?.relevanceCalibration && { relevance_calibration: vectors.relevanceCalibration }),
        },
      }),
    };
    const rows = stored ? this.#rows(target, consumed.keys(), indexed, generation) : { put: [], remove: [] };
    await this.#dirtyWrites;
    await this.#store.save(
      { generation, ...rows, meta, ...(built !== null && { replaceOthers: true }) },
      [...consumed].map(([note_id, token]) => ({ note_id, token })),
    );
    this.#meta = meta;
    if (built !== null) this.#recent.clear();
    for (const noteId of consumed.keys()) if (stored) this.#recent.add(noteId);
    this.#generation = generation;
    this.#loadFailed = null;
  }

  /**
   * Packs the recent rows of the live generation (or rewrites its packs
   * whole). Only ever a cost, never a loss: it is one transaction, and the
   * rows read the same either way; a failure leaves them recent for next time.
   */
  async #pack(how: 'compact' | 'repack'): Promise<void> {
    if (this.#disposed || this.#meta?.segments === undefined) return;
    try {
      await (how === 'compact'
        ? this.#store.compact(this.#generation)
        : this.#store.repack(this.#generation));
      this.#recent.clear();
    } catch (error) {
      this.#warn('could not pack the stored index', error);
    }
  }

  // ---------------------------------------------------------------------------
  // Jobs
  // ---------------------------------------------------------------------------

  /** A rebuild job of `scope`, or the one already waiting or running that covers it. */
  async rebuild(scope: RebuildScope): Promise<JobDto> {
    await this.start();
    return this.#startRebuild(scope);
  }

  async #startRebuild(scope: RebuildScope): Promise<JobDto> {
    for (const [jobId, { kind }] of this.#jobs) {
      if (kind !== INDEX_REBUILD_JOB_KIND) continue;
      const job = await this.#runtime.get(jobId);
      if (job.status !== 'queued' && job.status !== 'running') continue;
      if (scope === 'vectors' || job.input.scope !== 'vectors') return job;
    }
    // A rebuild resumed after a reload is not known to this session yet.
    for (const status of ['running', 'queued'] as const) {
      const page = await this.#runtime.list({ kind: INDEX_REBUILD_JOB_KIND, status, limit: 10, offset: 0 });
      for (const job of page.items) {
        this.#track(job);
        if (scope === 'vectors' || job.input.scope !== 'vectors') return job;
      }
    }
    const job = await this.#runtime.create(INDEX_REBUILD_JOB_KIND, { scope });
    this.#track(job);
    return job;
  }

  #track(job: JobDto): void {
    if (this.#jobs.has(job.job_id)) return;
    const ended = this.#runtime.whenEnded(job.job_id).then(() => {
      this.#jobs.delete(job.job_id);
      this.#runningJobs.delete(job.job_id);
    });
    this.#jobs.set(job.job_id, { kind: job.kind, ended });
  }

  async #runUpdate(context: JobContext<Record<string, never>>): Promise<IndexJobResult> {
    // From here on a new mark needs a new job: this one has begun taking marks.
    const queued = this.#queuedUpdate;
    if (queued && (await queued) === context.jobId && this.#queuedUpdate === queued)
      this.#queuedUpdate = null;
    await this.start();
    return this.#withLock(context.jobId, async () => {
      const marks = this.#marks;
      const batch = this.#takeDirty();
      if (batch.size === 0) {
        this.#applied = Math.max(this.#applied, marks);
        this.#settle();
        return { notes: 0, blocks: 0 };
      }
      try {
        const indexed = await this.#index(this.#live, [...batch.keys()], context, this.#embedder.passages);
        this.#applied = Math.max(this.#applied, marks);
        this.#settle();
        await this.#save(this.#live, batch, null, indexed);
        this.#lastError = null;
        if (this.#recent.size >= RECENT_ROWS_LIMIT) await this.#pack('compact');
        return { notes: batch.size, blocks: indexed.blocks, ...this.#truncatedReport() };
      } catch (error) {
        this.#restoreDirty(batch);
        this.#fail(error);
        throw error;
      }
    });
  }

  async #runRebuild(
    context: JobContext<{ scope?: unknown }>,
  ): Promise<IndexJobResult & { scope: RebuildScope }> {
    const scope: RebuildScope = context.input.scope === 'vectors' ? 'vectors' : 'all';
    await this.start();
    return this.#withLock(context.jobId, async () => {
      this.#rebuilding += 1;
      // The whole rebuild uses one model, even if the user switches meanwhile.
      const { passages: embedder, queries } = this.#embedder;
      try {
        const noteIds = await this.#notes.liveNoteIds();
        const total = await this.#notes.countBlocks(noteIds);
        await context.progress({ phase: 'indexing', current: 0, total });
        // New indexes beside the live ones; `vectors` keeps the live full-text index as it is.
        const next: Target = {
          fullText: scope === 'all' ? new FullTextIndex() : undefined,
          vectors: new VectorIndex(embedder.info, Math.max(64, total)),
        };
        // The new generation's rows are written as they are built; until the
        // last save switches to it they are not read, and an interrupted
        // rebuild's rows are dropped here by the next one.
        const generation = this.#generation + 1;
        await this.#store.dropGenerationsExcept(this.#generation);
        let done = 0;
        // Written a pack at a time: a start pays per record read.
        let unwritten: SearchSegmentRow[] = [];
        for (let start = 0; start < noteIds.length; start += NOTES_PER_STEP) {
          context.signal.throwIfAborted();
          const step = noteIds.slice(start, start + NOTES_PER_STEP);
          const indexed = await this.#index(next, step, context, embedder, true);
          done += indexed.blocks;
          unwritten.push(...this.#rows(next, step, indexed, generation).put);
          if (unwritten.length >= PACK_NOTES || start + NOTES_PER_STEP >= noteIds.length) {
            await this.#store.putSegments(unwritten);
            unwritten = [];
          }
          await context.progress({ phase: 'indexing', current: Math.min(done, total), total });
        }
        // Measured before the save, so the floor is stored with the vectors it was measured on.
        await calibrateIndex(next.vectors!, queries, { signal: context.signal });
        context.signal.throwIfAborted();
        // Changes made while building go on top before the swap (they re-read the notes).
        const marks = this.#marks;
        const batch = this.#takeDirty();
        const swapped: Target & { fullText: FullTextIndex } = {
          fullText: next.fullText ?? this.#live.fullText,
          vectors: next.vectors,
        };
        try {
          const indexed = await this.#index(swapped, [...batch.keys()], context, embedder);
          context.signal.throwIfAborted();
          await this.#save(swapped, batch, scope, indexed);
        } catch (error) {
          this.#restoreDirty(batch);
          throw error;
        }
        this.#live = swapped;
        this.#applied = Math.max(this.#applied, marks);
        this.#lastError = null;
        this.#settle();
        return { scope, notes: noteIds.length, blocks: done, ...this.#truncatedReport() };
      } catch (error) {
        this.#fail(error);
        throw error;
      } finally {
        this.#rebuilding -= 1;
      }
    });
  }

  /**
   * Re-indexes `noteIds` into `target`: reads the notes, embeds their blocks,
   * then applies every change in one synchronous step, so a query never sees
   * a note half-indexed.
   */
  async #index(
    target: Target,
    noteIds: readonly string[],
    context: Pick<JobContext<unknown>, 'signal'>,
    embedder: Embedder,
    fresh = false,
  ): Promise<Indexed> {
    let indexed = 0;
    const stamps = new Map<string, string>();
    const segments = new Map<string, FullTextNoteSegment>();
    for (let start = 0; start < noteIds.length; start += NOTES_PER_STEP) {
      const ids = noteIds.slice(start, start + NOTES_PER_STEP);
      const sources = await this.#notes.indexSources(ids);
      const aliases = await this.#aliasesOf(sources);
      const notes = sources.map((source) => {
        const noteId = source.note.note_id;
        stamps.set(noteId, source.note.updated_at);
        const capped = capNoteDocuments(documentsOf(source, aliases.get(noteId)));
        if (capped.truncated) {
          this.#truncated.add(noteId);
          console.warn(
            `search index: only the first ${MAX_INDEXED_CHARS_PER_NOTE} characters of note ${noteId} are indexed`,
          );
        } else {
          this.#truncated.delete(noteId);
        }
        return { noteId, documents: capped.documents };
      });
      const documents = notes.flatMap((note) => note.documents);
      // Only the model that made the vector index may add to it; old and new never mix.
      const vectors = target.vectors?.isCompatible(embedder.info) ? target.vectors : undefined;
      const embedded = vectors ? await this.#embed(embedder, documents, context.signal) : [];
      context.signal.throwIfAborted();
      // Tokenized once per block: the segment feeds the full-text index and is the stored row.
      const noteSegments = target.fullText
        ? notes.flatMap(({ noteId, documents }) => noteSegmentOf(noteId, documents) ?? [])
        : [];
      if (!fresh) {
        for (const noteId of ids) {
          target.fullText?.removeNote(noteId);
          target.vectors?.removeNote(noteId);
        }
      }
      target.fullText?.addSegments(noteSegments);
      for (const segment of noteSegments) segments.set(segment.note_id, segment);
      vectors?.upsert(documents, embedded, embedder.info);
      indexed += documents.length;
    }
    return { blocks: indexed, stamps, segments };
  }

  /**
   * The aliases of those notes that may have front matter. Front matter is no
   * block, so only a note whose first block starts below line 0 (or that has
   * no block) can hold one, and only those bodies are read: most notes are not.
   */
  async #aliasesOf(sources: readonly IndexSource[]): Promise<Map<string, string[]>> {
    const aliases = new Map<string, string[]>();
    const getMany = this.#notes.getMany?.bind(this.#notes);
    if (!getMany) return aliases;
    const ids = sources
      .filter((source) => mayHaveFrontMatter(source.blocks))
      .map((source) => source.note.note_id);
    if (ids.length === 0) return aliases;
    for (const note of await getMany(ids)) {
      const names = note ? noteAliases(note.body) : [];
      if (note && names.length > 0) aliases.set(note.note_id, names);
    }
    return aliases;
  }

  async #embed(
    embedder: Embedder,
    documents: readonly IndexDocument[],
    signal: AbortSignal,
  ): Promise<Float32Array[]> {
    const vectors: Float32Array[] = [];
    for (let start = 0; start < documents.length; start += EMBED_BATCH) {
      // Embedded with its heading path, as the full-text index matches it.
      const texts = documents.slice(start, start + EMBED_BATCH).map(searchedText);
      vectors.push(...(await embedder.embed(texts, { signal })));
    }
    if (vectors.length !== documents.length) {
      throw new AppError(
        'EMBEDDING_DIMENSION_MISMATCH',
        'The embedder returned the wrong number of vectors.',
        {
          expected: documents.length,
          found: vectors.length,
        },
      );
    }
    return vectors;
  }

  #takeDirty(): Map<string, string> {
    const batch = new Map(this.#dirty);
    this.#dirty.clear();
    return batch;
  }

  /** Puts a batch back after a failure, unless the note was marked again meanwhile. */
  #restoreDirty(batch: ReadonlyMap<string, string>): void {
    for (const [noteId, token] of batch) if (!this.#dirty.has(noteId)) this.#dirty.set(noteId, token);
    this.#settle();
  }

  #fail(error: unknown): void {
    this.#settle();
    if (isAbortError(error)) return;
    this.#lastError = codeAndMessage(toErrorEnvelope(error, 'Indexing failed.'));
  }

  /** Runs `work` after the lock's holders; `jobId` null: not a job (packing), not reported in the status. */
  async #withLock<T>(jobId: string | null, work: () => Promise<T>): Promise<T> {
    const previous = this.#lock;
    const next = previous
      .catch(() => undefined)
      .then(async () => {
        if (jobId !== null) this.#runningJobs.add(jobId);
        try {
          return await work();
        } finally {
          if (jobId !== null) this.#runningJobs.delete(jobId);
        }
      });
    this.#lock = next;
    return next;
  }

  // ---------------------------------------------------------------------------
  // Status
  // ---------------------------------------------------------------------------

  /** Waits for the stored indexes to load (fast), not for a build. */
  async status(): Promise<IndexStatusDto> {
    await this.start();
    const vectors = this.#live.vectors;
    const running = [...this.#runningJobs];
    const activeJob =
      running.find((jobId) => this.#jobs.get(jobId)?.kind === INDEX_REBUILD_JOB_KIND) ?? running[0] ?? null;
    let status: IndexState;
    if (!this.#loaded) status = 'loading';
    else if (this.#rebuilding > 0) status = 'rebuilding';
    else if (running.length > 0 || this.#dirty.size > 0) status = 'updating';
    else if (this.#lastError !== null || this.#loadFailed !== null) status = 'failed';
    else status = 'idle';
    return {
      status,
      pending_jobs: this.#jobs.size,
      active_job_id: activeJob,
      embedding: { ...this.#embedder.passages.info },
      vector_index: vectors
        ? {
            ...vectors.info,
            compatible: vectors.isCompatible(this.#embedder.passages.info),
            block_count: vectors.size,
          }
        : null,
      full_text: { block_count: this.#live.fullText.size },
      pending_notes: this.#dirty.size,
      last_completed_at: this.#meta?.last_completed_at ?? null,
      error_message: (this.#lastError ?? this.#loadFailed)?.message ?? null,
      error_code: (this.#lastError ?? this.#loadFailed)?.code ?? null,
    };
  }

  /** Stops the debounce timer; later changes are ignored (tests, worker shutdown). */
  dispose(): void {
    this.#disposed = true;
    if (this.#timer !== null) clearTimeout(this.#timer);
    this.#timer = null;
    this.#settle();
  }

  #truncatedReport(): Pick<IndexJobResult, 'truncated_notes'> {
    return this.#truncated.size > 0 ? { truncated_notes: [...this.#truncated] } : {};
  }

  #warn(message: string, error: unknown): void {
    if (this.#disposed) return;
    console.warn(`search index: ${message}`, error);
  }
}

/** What the status tells of a failure: the code chooses the UI's text, the message is the core's own. */
function codeAndMessage(envelope: ReturnType<typeof toErrorEnvelope>): { code: ErrorCode; message: string } {
  return { code: envelope.error.code, message: envelope.error.message };
}

/**
 * Front matter comes first and is no block: a note whose text starts at line 0 has none.
 * A note whose blocks reach the per-note cap was read in part (`indexSources`): its body is
 * not read whole for aliases, so a huge note stays as cheap to index as before.
 */
export function mayHaveFrontMatter(blocks: readonly { start_line: number; text: string }[]): boolean {
  const first = blocks[0];
  if (first !== undefined && first.start_line === 0) return false;
  let chars = 0;
  for (const block of blocks) chars += block.text.length;
  return chars < MAX_INDEXED_CHARS_PER_NOTE;
}
