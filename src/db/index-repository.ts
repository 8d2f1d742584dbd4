import Dexie from 'dexie';
import { AppError } from '../contracts/errors';
import type { NotesAgentDatabase } from './database';
import type { IndexDirtyRow, SearchIndexRow, SearchPackRow, SearchSegmentRow } from './schema';

type Row<K extends SearchIndexRow['key']> = Omit<Extract<SearchIndexRow, { key: K }>, 'key'>;
export type FullTextIndexRow = Row<'full_text'>;
export type VectorIndexRow = Row<'vectors'>;
export type IndexMetaRow = Row<'meta'>;

/**
 * How the rows are stored, in the meta row (`segments.format`): packs plus
 * recent per-note rows. A meta row without it was written when every row was
 * per note; that store reads the same way (all rows recent) and is packed once.
 */
export const SEGMENT_STORE_FORMAT = 'packs-1';
/** Notes' rows per pack: a start pays per record read, and a hundred rows cost little more than one. */
export const PACK_NOTES = 100;

/** What reading a generation's rows found, for deciding whether to pack them (see `segmentPages`). */
export interface SegmentTally {
  /** Notes with a recent (per-note) row, tombstones included. */
  recent: string[];
  packs: number;
  /** Rows in packs, hidden ones included. */
  packed: number;
  /** Packed rows hidden by a newer row, and packed tombstones: what a repack would drop. */
  hidden: number;
}

export function emptyTally(): SegmentTally {
  return { recent: [], packs: 0, packed: 0, hidden: 0 };
}

/** Everything the search indexer keeps between sessions. */
export interface StoredIndexes {
  meta: IndexMetaRow | undefined;
  /** The rows of the live generation; none when the meta row names none. */
  segments: SearchSegmentRow[];
  dirty: IndexDirtyRow[];
  /** Every live (not trashed) note and its `updated_at`, read in the same transaction. */
  live: Map<string, string>;
  /** Rows of other generations: left by a rebuild that never finished. */
  stale_rows: number;
}

/** One transaction's worth of index writes. */
export interface SegmentsToSave {
  generation: number;
  /** Rows of notes (re-)indexed. */
  put: readonly SearchSegmentRow[];
  /** Notes that left the indexes (trashed, deleted): a tombstone row hides any packed row. */
  remove: readonly string[];
  meta: IndexMetaRow;
  /** A rebuild's last write: the generation becomes the live one and every other goes. */
  replaceOthers?: boolean;
}

/**
 * The persisted search indexes, one row per note and generation, and the notes
 * waiting to be re-indexed. The indexes are derived from notes and blocks and
 * can always be rebuilt; this repository only keeps them so a start does not
 * have to, and so an edit writes only the note it changed.
 *
 * Rows are kept in packs of PACK_NOTES notes (a start reads a hundred records,
 * not ten thousand) plus the recent rows, one per note, that edits write. Now
 * and then the recent rows are appended as a new pack (`compact`) and, when
 * packs hold many hidden rows, rewritten whole (`repack`), each in one
 * transaction. Reading resolves duplicates the same way every time, recent row
 * first, then packs newest first, so even a pack and the recent rows it was
 * made from, both present, load each note once.
 */
export class IndexRepository {
  readonly #db: NotesAgentDatabase;

  constructor(db: NotesAgentDatabase) {
    this.#db = db;
  }

  /** Everything kept, the live generation's rows included, read in one transaction. */
  async load(): Promise<StoredIndexes> {
    const db = this.#db;
    return db.transaction('r', [...this.#tables(), db.notes], async () => {
      const head = await this.loadHead();
      const live = await this.liveStamps();
      const generation = head.meta?.segments?.generation;
      const segments: SearchSegmentRow[] = [];
      if (generation !== undefined) {
        for await (const page of this.segmentPages(generation, 1000)) segments.push(...page);
        segments.sort((a, b) => (a.note_id < b.note_id ? -1 : a.note_id > b.note_id ? 1 : 0));
      }
      return { ...head, live, segments };
    });
  }

  /**
   * What a start needs first, in one transaction: the meta row, the dirty
   * marks and the count of stale rows, nothing that grows with the notebook.
   * The rows follow in pages (`segmentPages`), so a start can build the
   * indexes a page at a time and the notes list is answered between pages;
   * the notes' stamps (`liveStamps`) can be read meanwhile.
   */
  async loadHead(): Promise<Omit<StoredIndexes, 'segments' | 'live'>> {
    const db = this.#db;
    return db.transaction('r', this.#tables(), async () => {
      const meta = await db.search_index.get('meta');
      const generation = meta?.key === 'meta' ? meta.segments?.generation : undefined;
      let stale_rows = 0;
      for (const where of [this.#rows(), this.#packs()]) {
        stale_rows +=
          generation === undefined
            ? await where.above([Dexie.minKey, Dexie.minKey]).count()
            : (await where.below([generation, Dexie.minKey]).count()) +
              (await where.above([generation, Dexie.maxKey]).count());
      }
      const dirty = await db.search_index_dirty.toArray();
      return { meta: meta?.key === 'meta' ? withoutKey(meta) : undefined, dirty, stale_rows };
    });
  }

  /**
   * Every live (not trashed) note and its `updated_at`, for checking the
   * stored rows against the notes. Its own read, so a start runs it beside
   * the rows' pages: a note changed after it was read is reported to the
   * indexer as a change anyway.
   */
  async liveStamps(): Promise<Map<string, string>> {
    const live = new Map<string, string>();
    // Keys only: the notes' bodies are not read. `trashed` is 0 or 1, so
    // "below [0, max]" is exactly the live notes; a range open below also
    // keeps fake-indexeddb (tests, bench) from re-walking it per step.
    await this.#db.notes
      .where('[trashed+updated_at]')
      .below([0, Dexie.maxKey])
      .eachKey((key, cursor) => live.set(String(cursor.primaryKey), String((key as [number, string])[1])));
    return live;
  }

  /**
   * The live rows of `generation`, about `size` at a time, each page its own
   * read: the recent rows first (in note order), then the packs newest first.
   * A note is yielded once, from its newest row; tombstones are not yielded.
   * `tally`, when given, is filled with what was read. A row or pack of the
   * wrong shape is refused with STATE_CONFLICT: the index must be rebuilt,
   * since skipping it would leave its notes unsearchable with nothing stale.
   */
  segmentPages(
    generation: number,
    size: number,
    tally: SegmentTally = emptyTally(),
  ): AsyncGenerator<SearchSegmentRow[]> {
    return this.#resolved(generation, size, tally);
  }

  /** `segmentPages`; with `packsBelow`, only the packs numbered below it. */
  async *#resolved(
    generation: number,
    size: number,
    tally: SegmentTally,
    packsBelow?: number,
  ): AsyncGenerator<SearchSegmentRow[]> {
    const seen = new Set<string>();
    let after: string | undefined;
    for (;;) {
      const page = await this.#rows()
        .between([generation, after ?? Dexie.minKey], [generation, Dexie.maxKey], after === undefined, true)
        .limit(size)
        .toArray();
      const rows: SearchSegmentRow[] = [];
      for (const row of page) {
        checkRow(row, { generation });
        seen.add(row.note_id);
        tally.recent.push(row.note_id);
        if (!row.removed) rows.push(row);
      }
      if (rows.length > 0) yield rows;
      if (page.length < size) break;
      after = page[page.length - 1]!.note_id;
    }
    const perRead = Math.max(1, Math.round(size / PACK_NOTES));
    let below = packsBelow;
    for (;;) {
      const packs = await this.#packs()
        .between([generation, Dexie.minKey], [generation, below ?? Dexie.maxKey], true, false)
        .reverse()
        .limit(perRead)
        .toArray();
      const rows: SearchSegmentRow[] = [];
      for (const pack of packs) {
        if (!Array.isArray(pack.rows)) throw damaged({ generation, pack: pack.pack });
        for (const row of pack.rows) checkRow(row, { generation, pack: pack.pack });
        tally.packs += 1;
        tally.packed += pack.rows.length;
        for (const row of pack.rows) {
          if (seen.has(row.note_id) || row.removed) {
            tally.hidden += 1;
            seen.add(row.note_id);
            continue;
          }
          seen.add(row.note_id);
          rows.push({ generation, ...row });
        }
      }
      if (rows.length > 0) yield rows;
      if (packs.length < perRead) return;
      below = packs[packs.length - 1]!.pack;
    }
  }

  /** Every table this repository keeps. */
  #tables() {
    const db = this.#db;
    return [db.search_index, db.search_index_dirty, db.search_segments, db.search_packs] as const;
  }

  #rows() {
    return this.#db.search_segments.where('[generation+note_id]');
  }

  #packs() {
    return this.#db.search_packs.where('[generation+pack]');
  }

  async markDirty(rows: readonly IndexDirtyRow[]): Promise<void> {
    if (rows.length > 0) await this.#db.search_index_dirty.bulkPut([...rows]);
  }

  /**
   * Rows of a generation being built, written as packs of up to PACK_NOTES;
   * not read until a `save` with `replaceOthers` makes it the live one.
   */
  async putSegments(rows: readonly SearchSegmentRow[]): Promise<void> {
    if (rows.length === 0) return;
    const byGeneration = new Map<number, SearchSegmentRow[]>();
    for (const row of rows) {
      const group = byGeneration.get(row.generation);
      if (group) group.push(row);
      else byGeneration.set(row.generation, [row]);
    }
    await this.#db.transaction('rw', this.#db.search_packs, async () => {
      for (const [generation, group] of byGeneration) {
        await this.#appendPacks(generation, group, await this.#nextPack(generation));
      }
    });
  }

  /**
   * Writes the changed notes' rows and the meta row and clears the dirty
   * marks they include, in one transaction: after a crash either the old rows
   * and their marks or the new rows remain. A mark whose token changed since
   * it was read belongs to a later edit and stays.
   */
  async save(save: SegmentsToSave, consumed: readonly IndexDirtyRow[]): Promise<void> {
    const db = this.#db;
    await db.transaction('rw', this.#tables(), async () => {
      if (save.put.length > 0) await db.search_segments.bulkPut([...save.put]);
      if (save.remove.length > 0) {
        await db.search_segments.bulkPut(
          save.remove.map((note_id) => ({
            generation: save.generation,
            note_id,
            updated_at: '',
            full_text: null,
            vectors: null,
            removed: true as const,
          })),
        );
      }
      if (save.replaceOthers) await this.#dropOthers(save.generation);
      await db.search_index.put({ key: 'meta', ...save.meta });
      if (consumed.length === 0) return;
      const current = await db.search_index_dirty.bulkGet(consumed.map((row) => row.note_id));
      const tokens = new Map(consumed.map((row) => [row.note_id, row.token]));
      const done = current
        .filter((row): row is IndexDirtyRow => row !== undefined && tokens.get(row.note_id) === row.token)
        .map((row) => row.note_id);
      await db.search_index_dirty.bulkDelete(done);
    });
  }

  /**
   * Appends the recent rows of the live `generation` as new packs and deletes
   * them, in one transaction: a crash leaves either both or neither (and were
   * both ever left, reading would still take each note once, from its recent
   * row). Also stamps the meta row with SEGMENT_STORE_FORMAT, which is how a
   * store of per-note rows from before packs is converted, once.
   */
  async compact(generation: number): Promise<void> {
    const db = this.#db;
    await db.transaction('rw', db.search_index, db.search_segments, db.search_packs, async () => {
      const meta = await this.#liveMeta(generation);
      if (!meta) return;
      const recent = await this.#rows()
        .between([generation, Dexie.minKey], [generation, Dexie.maxKey])
        .toArray();
      const next = await this.#nextPack(generation);
      // With no packs yet there is no older row for a tombstone to hide.
      await this.#appendPacks(generation, next === 1 ? recent.filter((row) => !row.removed) : recent, next);
      await db.search_segments.bulkDelete(recent.map((row) => [generation, row.note_id]));
      await this.#stampFormat(meta);
    });
  }

  /**
   * Rewrites the live `generation` as packs of its live rows only, dropping
   * hidden packed rows and tombstones, the recent rows included; one
   * transaction, reading the old packs a page at a time.
   */
  async repack(generation: number): Promise<void> {
    const db = this.#db;
    await db.transaction('rw', db.search_index, db.search_segments, db.search_packs, async () => {
      const meta = await this.#liveMeta(generation);
      if (!meta) return;
      const first = await this.#nextPack(generation);
      let next = first;
      let buffer: SearchSegmentRow[] = [];
      // Reads stay below `first`, so the packs written meanwhile are never read back.
      for await (const page of this.#resolved(generation, PACK_NOTES * 5, emptyTally(), first)) {
        buffer.push(...page);
        if (buffer.length < PACK_NOTES) continue;
        const whole = buffer.length - (buffer.length % PACK_NOTES);
        next = await this.#appendPacks(generation, buffer.slice(0, whole), next);
        buffer = buffer.slice(whole);
      }
      await this.#appendPacks(generation, buffer, next);
      await this.#packs().between([generation, Dexie.minKey], [generation, first], true, false).delete();
      await this.#rows().between([generation, Dexie.minKey], [generation, Dexie.maxKey]).delete();
      await this.#stampFormat(meta);
    });
  }

  /** The meta row when `generation` is still the live one. */
  async #liveMeta(generation: number): Promise<IndexMetaRow | undefined> {
    const meta = await this.#db.search_index.get('meta');
    return meta?.key === 'meta' && meta.segments?.generation === generation ? withoutKey(meta) : undefined;
  }

  async #stampFormat(meta: IndexMetaRow): Promise<void> {
    if (!meta.segments || meta.segments.format === SEGMENT_STORE_FORMAT) return;
    await this.#db.search_index.put({
      key: 'meta',
      ...meta,
      segments: { ...meta.segments, format: SEGMENT_STORE_FORMAT },
    });
  }

  async #nextPack(generation: number): Promise<number> {
    const last = await this.#packs().between([generation, Dexie.minKey], [generation, Dexie.maxKey]).last();
    return (last?.pack ?? 0) + 1;
  }

  /** Writes `rows` as packs numbered from `next`; returns the next free number. */
  async #appendPacks(generation: number, rows: readonly SearchSegmentRow[], next: number): Promise<number> {
    const packs: SearchPackRow[] = [];
    for (let start = 0; start < rows.length; start += PACK_NOTES) {
      packs.push({
        generation,
        pack: next + packs.length,
        rows: rows.slice(start, start + PACK_NOTES).map(({ generation: _generation, ...row }) => row),
      });
    }
    if (packs.length > 0) await this.#db.search_packs.bulkPut(packs);
    return next + packs.length;
  }

  /** Drops the rows of every generation but `generation` (left-overs of an interrupted rebuild). */
  async dropGenerationsExcept(generation: number): Promise<void> {
    const db = this.#db;
    await db.transaction('rw', db.search_segments, db.search_packs, () => this.#dropOthers(generation));
  }

  async clear(): Promise<void> {
    const db = this.#db;
    await db.transaction('rw', this.#tables(), async () => {
      for (const table of this.#tables()) await table.clear();
    });
  }

  async #dropOthers(generation: number): Promise<void> {
    for (const where of [() => this.#rows(), () => this.#packs()]) {
      await where().below([generation, Dexie.minKey]).delete();
      await where().above([generation, Dexie.maxKey]).delete();
    }
  }
}

function damaged(where: { generation: number; pack?: number; note_id?: string }): AppError {
  return new AppError('STATE_CONFLICT', 'The stored search index is damaged; rebuild it.', where);
}

/**
 * Throws unless `value` has a stored row's shape. Only what reading relies
 * on is checked: the note and its stamp (a row without them would hide a note
 * or mark it stale for ever), and that both parts are present, null included;
 * the parts' contents are checked by the indexes that read them.
 */
function checkRow(value: unknown, where: { generation: number; pack?: number }): void {
  const row = value as Partial<SearchSegmentRow> | null;
  if (typeof row !== 'object' || row === null || typeof row.note_id !== 'string') throw damaged(where);
  if (row.removed === true) return;
  if (
    typeof row.updated_at !== 'string' ||
    row.full_text === undefined ||
    row.vectors === undefined ||
    typeof row.vectors !== 'object'
  )
    throw damaged({ ...where, note_id: row.note_id });
}

function withoutKey<T extends { key: unknown }>(row: T): Omit<T, 'key'> {
  const { key: _key, ...rest } = row;
  return rest;
}
