import { z } from 'zod';
import { AppError } from '../contracts';
import {
  embeddingModelDifferences,
  embeddingModelInfoSchema,
  sameEmbeddingModel,
  type Embedder,
  type EmbeddingModelInfo,
} from './embedder';
import { HASH_EMBEDDER_INFO } from './hash-embedder';
import { QuantisedRows } from './quantised-rows';
import type { RelevanceCalibration } from './relevance-calibration';
import { isEmptyFilter, matchesFilter, type SearchFilter } from './search-filter';

export interface VectorEntry {
  block_id: string;
  note_id: string;
  folder?: string;
  tags?: readonly string[];
}

export interface VectorHit {
  block_id: string;
  note_id: string;
  /** Cosine similarity, -1..1. */
  score: number;
}

interface RowMeta {
  note_id: string;
  folder: string;
  tags: readonly string[];
}

/**
 * One note's vectors, stored on its own so an edit rewrites one note: its
 * block ids and their unit-length rows, one after another.
 *
 * Stored sparse when most values are zero (`storedSegment`): hash-v1's
 * vectors, the default model's, use a few dozen of their 256 dimensions.
 * `data` then holds only the non-zero values, block after block, `dims` the
 * dimension of each and `ends` where each block's values end. The values are
 * the same floats, so a sparse row reads back bit for bit; either form loads.
 */
export interface VectorNoteSegment {
  block_ids: string[];
  folder: string;
  tags: string[];
  data: Float32Array;
  dims?: Uint16Array;
  ends?: Uint32Array;
}

/** Stored sparse only when that takes at most this share of the dense bytes. */
const SPARSE_AT_MOST = 0.5;

const MAGIC = 'NAVX';
export const VECTOR_BUFFER_VERSION = 1;
const PREFIX_BYTES = 12;
const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;
/** Rows per tile of the in-memory layout (see VectorIndex); a power of two. */
const TILE_ROWS = 512;
const TILE_SHIFT = 9;
/** Below this many rows a dense query scans the floats: it is quick, and no codes are kept. */
export const QUANTISED_FROM_ROWS = 2048;
/** Candidates re-ranked on the floats per hit asked for, plus a few (see #quantisedSearch). */
const RERANK_FACTOR = 4;
const RERANK_EXTRA = 16;

export interface VectorIndexOptions {
  /**
   * Row count from which a dense query takes the int8 scan and an exact
   * re-rank instead of scanning every float (default QUANTISED_FROM_ROWS;
   * Infinity: never).
   */
  quantisedFrom?: number;
}

export interface VectorSearchOptions {
  /** Scan every float even for a dense query: the exact answer the quantised path is measured against. */
  exact?: boolean;
}

/** Memory held for the vectors, in bytes. */
export interface VectorIndexMemory {
  rows: number;
  /** The float rows, with the tiles' spare room. */
  float_bytes: number;
  /** The int8 codes with their scan buffers; 0 until a dense query needed them. */
  code_bytes: number;
}

const headerSchema = z.object({
  model: embeddingModelInfoSchema,
  block_ids: z.array(z.string()),
  /** [note_id, folder, tags]: stored once per note, rows point at them. */
  notes: z.array(z.tuple([z.string(), z.string(), z.array(z.string())])),
  note_rows: z.array(z.number().int().min(0)),
});

/** The INDEX_MODEL_MISMATCH error: both sides in the details, named as in the §9.9 status. */
export function indexModelMismatch(stored: EmbeddingModelInfo, current: EmbeddingModelInfo): AppError {
  return new AppError(
    'INDEX_MODEL_MISMATCH',
    'The vector index was built with another embedding model. Rebuild the vectors, or search full text.',
    {
      vector_index: { ...stored },
      embedding: { ...current },
      differences: embeddingModelDifferences(stored, current),
    },
  );
}

/**
 * Exact cosine search over block vectors. Every vector is stored unit-length, so
 * cosine is a dot product. The index is tagged with the model that made its
 * vectors and refuses vectors or queries from any other: old and new never mix.
 *
 * In memory the vectors sit in one Float32Array in tiles of TILE_ROWS rows, and
 * within a tile dimension after dimension: the value of dimension d for the
 * tile's row r is at tile start + d * TILE_ROWS + r. A query then adds
 * `weight × column` into a tile's scores one dimension at a time, straight
 * through memory, and skips every dimension where the query is zero. A hash-v1
 * query touches a few dozen of its 256 dimensions, so a 50,000-block search
 * reads a few percent of the floats a row-by-row scan reads; a dense model's
 * query reads them all, at the speed of the row scan. Each row's sum still
 * adds its products in dimension order, so the scores are bit for bit those
 * of a row-by-row dot product. Stored buffers and segments keep a row per
 * block; the tiles exist only in memory.
 *
 * A dense query (a downloaded model's: every dimension used) over at least
 * `quantisedFrom` rows first estimates every row from an int8 copy of the
 * rows (QuantisedRows, a WebAssembly SIMD scan reading a quarter of the
 * bytes), then computes the exact score of the best RERANK_FACTOR × k +
 * RERANK_EXTRA of them from the floats, as the scan would, and keeps the best
 * k: the scores returned are always exact, and the hits are the exact top k
 * unless one of them was estimated below all those candidates (the bench and
 * the tests print and assert recall against the float scan). hash-v1 and
 * sparse queries always take the exact path. The codes are built on the
 * first dense query and then kept in step with every upsert and removal; they
 * are never stored, so the stored format did not change.
 */
export class VectorIndex {
  readonly info: EmbeddingModelInfo;
  #data: Float32Array;
  /** A tile's scores, reused by every query. */
  readonly #scores = new Float64Array(TILE_ROWS);
  #count = 0;
  readonly #ids: string[] = [];
  readonly #meta: RowMeta[] = [];
  readonly #rows = new Map<string, number>();
  readonly #notes = new Map<string, Set<string>>();
  #quantisedFrom: number;
  /** The int8 codes, once a dense query built them; undefined where WebAssembly SIMD is missing. */
  #codes: QuantisedRows | undefined;
  /** The codes no longer match the rows (a value fell outside their range): rebuilt before the next scan. */
  #codesStale = false;
  #calibration: RelevanceCalibration | undefined;

  constructor(info: EmbeddingModelInfo, initialCapacity = 64, options: VectorIndexOptions = {}) {
    this.info = Object.freeze({ ...embeddingModelInfoSchema.parse(info) });
    this.#data = new Float32Array(tilesFor(initialCapacity) * TILE_ROWS * this.info.dimension);
    this.#quantisedFrom =
      this.info.model_id === HASH_EMBEDDER_INFO.model_id
        ? Infinity
        : (options.quantisedFrom ?? QUANTISED_FROM_ROWS);
  }

  /** What the vectors hold in memory. */
  memory(): VectorIndexMemory {
    return {
      rows: this.#count,
      float_bytes: this.#data.byteLength,
      code_bytes: this.#codes?.byteLength ?? 0,
    };
  }

  get size(): number {
    return this.#count;
  }

  has(blockId: string): boolean {
    return this.#rows.has(blockId);
  }

  blocksOf(noteId: string): string[] {
    return [...(this.#notes.get(noteId) ?? [])];
  }

  /**
   * The relevance floor measured on these vectors (see relevance-calibration):
   * kept with the index so it is measured once, not per query, and stored with it.
   */
  get relevanceCalibration(): RelevanceCalibration | undefined {
    return this.#calibration;
  }

  set relevanceCalibration(calibration: RelevanceCalibration | undefined) {
    if (calibration) this.assertCompatible(calibration.model);
    this.#calibration = calibration;
  }

  isCompatible(info: EmbeddingModelInfo): boolean {
    return sameEmbeddingModel(this.info, info);
  }

  assertCompatible(info: EmbeddingModelInfo): void {
    if (!this.isCompatible(info)) throw indexModelMismatch(this.info, info);
  }

  /**
   * Adds or replaces the vectors of blocks. `model` is the embedder that made
   * them; anything but this index's model is refused with INDEX_MODEL_MISMATCH.
   */
  upsert(entries: readonly VectorEntry[], vectors: readonly Float32Array[], model: EmbeddingModelInfo): void {
    this.assertCompatible(model);
    if (entries.length !== vectors.length) {
      throw new AppError('INVALID_REQUEST', 'Each block needs exactly one vector.', {
        entries: entries.length,
        vectors: vectors.length,
      });
    }
    vectors.forEach((vector) => this.#checkDimension(vector));
    entries.forEach((entry, index) => {
      const vector = vectors[index];
      if (vector) this.#put(entry, vector);
    });
  }

  remove(blockId: string): boolean {
    const row = this.#rows.get(blockId);
    if (row === undefined) return false;
    const meta = this.#meta[row];
    const last = this.#count - 1;
    const dimension = this.info.dimension;
    // Swap the last row into the hole so the rows stay contiguous.
    if (row !== last) {
      const data = this.#data;
      const to = tileStart(row, dimension);
      const from = tileStart(last, dimension);
      for (let dim = 0; dim < dimension; dim++) data[to + dim * TILE_ROWS] = data[from + dim * TILE_ROWS]!;
      if (this.#codes && !this.#codesStale) this.#codes.move(last, row);
      const movedId = this.#ids[last] ?? '';
      this.#ids[row] = movedId;
      this.#meta[row] = this.#meta[last] ?? { note_id: '', folder: '', tags: [] };
      this.#rows.set(movedId, row);
    }
    this.#ids.pop();
    this.#meta.pop();
    this.#rows.delete(blockId);
    this.#count = last;
    if (meta) {
      const blocks = this.#notes.get(meta.note_id);
      blocks?.delete(blockId);
      if (blocks?.size === 0) this.#notes.delete(meta.note_id);
    }
    return true;
  }

  removeNote(noteId: string): number {
    const blocks = this.blocksOf(noteId);
    for (const blockId of blocks) this.remove(blockId);
    return blocks.length;
  }

  clear(): void {
    this.#count = 0;
    this.#calibration = undefined;
    // The next rows may span other ranges: the codes are rebuilt when next needed.
    this.#codesStale = true;
    this.#ids.length = 0;
    this.#meta.length = 0;
    this.#rows.clear();
    this.#notes.clear();
  }

  /**
   * The k rows most similar to `vector`, best first; equal scores by block id.
   * The caller vouches that `vector` came from this index's model (see `query`).
   */
  search(
    vector: Float32Array,
    k: number,
    filter?: SearchFilter,
    options: VectorSearchOptions = {},
  ): VectorHit[] {
    this.#checkDimension(vector);
    const query = unit(vector);
    if (!query || k <= 0) return [];
    const dimension = this.info.dimension;
    const dims: number[] = [];
    const weights: number[] = [];
    for (let dim = 0; dim < dimension; dim++) {
      // A zero weight adds exactly +0 to every sum, so skipping it changes no score.
      if (query[dim] !== 0) {
        dims.push(dim);
        weights.push(query[dim]!);
      }
    }
    // Dense: the sparse scan below would read at least half the floats.
    if (!options.exact && this.#count >= this.#quantisedFrom && dims.length * 2 > dimension) {
      const codes = this.#readyCodes();
      if (codes) return this.#quantisedSearch(codes, query, k, filter);
    }
    const data = this.#data;
    const scores = this.#scores;
    const everything = isEmptyFilter(filter);
    const top = new TopK(k, (row) => this.#ids[row] ?? '');
    const used = dims.length;
    for (let first = 0; first < this.#count; first += TILE_ROWS) {
      const rows = Math.min(TILE_ROWS, this.#count - first);
      const start = tileStart(first, dimension);
      scores.fill(0, 0, rows);
      let at = 0;
      // Four dimensions per pass over the tile, added one after another as a
      // row-by-row dot product would: a quarter of the score loads and stores.
      for (; at + 4 <= used; at += 4) {
        const a = start + dims[at]! * TILE_ROWS;
        const b = start + dims[at + 1]! * TILE_ROWS;
        const c = start + dims[at + 2]! * TILE_ROWS;
        const d = start + dims[at + 3]! * TILE_ROWS;
        const wa = weights[at]!;
        const wb = weights[at + 1]!;
        const wc = weights[at + 2]!;
        const wd = weights[at + 3]!;
        for (let r = 0; r < rows; r++) {
          let sum = scores[r]!;
          sum += data[a + r]! * wa;
          sum += data[b + r]! * wb;
          sum += data[c + r]! * wc;
          sum += data[d + r]! * wd;
          scores[r] = sum;
        }
      }
      for (; at < used; at++) {
        const a = start + dims[at]! * TILE_ROWS;
        const wa = weights[at]!;
        for (let r = 0; r < rows; r++) scores[r] = scores[r]! + data[a + r]! * wa;
      }
      for (let r = 0; r < rows; r++) {
        const score = scores[r]!;
        if (top.cannotTake(score)) continue;
        if (!everything) {
          const meta = this.#meta[first + r];
          if (!meta || !matchesFilter(meta, filter)) continue;
        }
        top.offer(first + r, score);
      }
    }
    return this.#hits(top);
  }

  #hits(top: TopK): VectorHit[] {
    return top.sorted().map(({ row, score }) => ({
      block_id: this.#ids[row] ?? '',
      note_id: this.#meta[row]?.note_id ?? '',
      score,
    }));
  }

  /**
   * The best `RERANK_FACTOR × k + RERANK_EXTRA` rows by the int8 estimate
   * (those the filter lets through), then their exact scores from the floats,
   * added in dimension order as the float scan adds them, so a row's score is
   * bit for bit the scan's. The estimate errs by about 1/1000 of a cosine, far
   * less than what separates the k-th best row from the candidates' last.
   */
  #quantisedSearch(codes: QuantisedRows, query: Float32Array, k: number, filter?: SearchFilter): VectorHit[] {
    const everything = isEmptyFilter(filter);
    const candidates = new TopK(
      Math.min(this.#count, k * RERANK_FACTOR + RERANK_EXTRA),
      (row) => this.#ids[row] ?? '',
    );
    codes.scan(query, this.#count, (first, scores, rows) => {
      for (let r = 0; r < rows; r++) {
        const score = scores[r]!;
        if (candidates.cannotTake(score)) continue;
        if (!everything) {
          const meta = this.#meta[first + r];
          if (!meta || !matchesFilter(meta, filter)) continue;
        }
        candidates.offer(first + r, score);
      }
    });
    const data = this.#data;
    const dimension = this.info.dimension;
    const top = new TopK(k, (row) => this.#ids[row] ?? '');
    for (const row of candidates.rows()) {
      const start = tileStart(row, dimension);
      let sum = 0;
      for (let dim = 0; dim < dimension; dim++) {
        const weight = query[dim]!;
        if (weight !== 0) sum += data[start + dim * TILE_ROWS]! * weight;
      }
      top.offer(row, sum);
    }
    return this.#hits(top);
  }

  /** The codes of every row, built or rebuilt when missing or stale; undefined without WebAssembly SIMD. */
  #readyCodes(): QuantisedRows | undefined {
    if (this.#codes && !this.#codesStale) return this.#codes;
    this.#codes ??= QuantisedRows.create(this.info.dimension);
    if (!this.#codes) {
      // No SIMD here: dense queries scan the floats for good.
      this.#quantisedFrom = Infinity;
      return undefined;
    }
    this.#codes.build(this.#data, TILE_ROWS, this.#count);
    this.#codesStale = false;
    return this.#codes;
  }

  /**
   * Embeds `text` with `embedder` and searches. The model check comes first, so
   * a mismatched index fails fast with INDEX_MODEL_MISMATCH before any work.
   */
  async query(
    embedder: Embedder,
    text: string,
    k: number,
    options: { filter?: SearchFilter; signal?: AbortSignal } = {},
  ): Promise<VectorHit[]> {
    this.assertCompatible(embedder.info);
    const [vector] = await embedder.embed([text], options.signal ? { signal: options.signal } : {});
    if (!vector) return [];
    return this.search(vector, k, options.filter);
  }

  /** The note's rows as a segment, or undefined when it has none. */
  noteSegment(noteId: string): VectorNoteSegment | undefined {
    const blocks = this.#notes.get(noteId);
    if (!blocks || blocks.size === 0) return undefined;
    const dimension = this.info.dimension;
    const block_ids = [...blocks];
    const data = new Float32Array(block_ids.length * dimension);
    block_ids.forEach((blockId, index) => this.#readRow(this.#rows.get(blockId)!, data, index * dimension));
    const meta = this.#meta[this.#rows.get(block_ids[0]!)!]!;
    return { block_ids, folder: meta.folder, tags: [...meta.tags], data };
  }

  /**
   * The note's rows as they are stored: `noteSegment`, sparse where that is
   * much smaller (see VectorNoteSegment). A start reads every stored byte, so
   * fewer bytes is a faster start.
   */
  storedSegment(noteId: string): VectorNoteSegment | undefined {
    const dense = this.noteSegment(noteId);
    if (!dense) return undefined;
    const { data } = dense;
    let values = 0;
    for (let i = 0; i < data.length; i++) if (data[i] !== 0) values += 1;
    // 4 bytes a value, 2 for its dimension, 4 for each block's end.
    if (values * 6 + dense.block_ids.length * 4 > data.byteLength * SPARSE_AT_MOST) return dense;
    const dimension = this.info.dimension;
    const packed = new Float32Array(values);
    const dims = new Uint16Array(values);
    const ends = new Uint32Array(dense.block_ids.length);
    let at = 0;
    for (let block = 0; block < ends.length; block++) {
      const start = block * dimension;
      for (let dim = 0; dim < dimension; dim++) {
        const value = data[start + dim]!;
        if (value === 0) continue;
        packed[at] = value;
        dims[at] = dim;
        at += 1;
      }
      ends[block] = at;
    }
    return { ...dense, data: packed, dims, ends };
  }

  /**
   * An index of `info`'s vectors from stored segments (dense or sparse),
   * copied as they are (they were stored unit-length). Anything that does not
   * fit is VECTOR_INDEX_REBUILD_REQUIRED.
   */
  static fromSegments(
    info: EmbeddingModelInfo,
    segments: ReadonlyArray<{ note_id: string; vectors: VectorNoteSegment }>,
    options: VectorIndexOptions = {},
  ): VectorIndex {
    let count = 0;
    for (const { vectors } of segments)
      count += Array.isArray(vectors?.block_ids) ? vectors.block_ids.length : 0;
    const index = new VectorIndex(info, count, options);
    const dimension = index.info.dimension;
    // Where each row's floats are: copied a tile at a time once all are known (see #writeRows).
    const sources: Float32Array[] = [];
    const offsets: number[] = [];
    const sparse: Array<{ row: number; segment: VectorNoteSegment; block: number }> = [];
    for (const { note_id, vectors } of segments) {
      const packed = vectors?.dims !== undefined;
      if (
        !(vectors?.data instanceof Float32Array) ||
        !Array.isArray(vectors.block_ids) ||
        (packed
          ? !sparseFits(vectors, dimension)
          : vectors.data.length !== vectors.block_ids.length * dimension)
      ) {
        throw new AppError(
          'VECTOR_INDEX_REBUILD_REQUIRED',
          'The stored vector index cannot be read; rebuild it.',
          {
            reason: 'a note segment does not match the model',
            note_id,
          },
        );
      }
      const meta: RowMeta = {
        note_id,
        folder: String(vectors.folder ?? ''),
        tags: [...(vectors.tags ?? [])],
      };
      vectors.block_ids.forEach((blockId, offset) => {
        if (index.#rows.has(blockId)) {
          throw new AppError(
            'VECTOR_INDEX_REBUILD_REQUIRED',
            'The stored vector index cannot be read; rebuild it.',
            {
              reason: 'a block is stored twice',
              block_id: blockId,
            },
          );
        }
        const row = index.#count++;
        if (packed) {
          // Left out of the tile copy (its row stays zero there) and set value by value below.
          sources.push(EMPTY_ROWS);
          offsets.push(-1);
          sparse.push({ row, segment: vectors, block: offset });
        } else {
          sources.push(vectors.data);
          offsets.push(offset * dimension);
        }
        index.#ids.push(blockId);
        index.#meta.push(meta);
        index.#rows.set(blockId, row);
        index.#track(note_id, blockId);
      });
    }
    index.#writeRows(sources, offsets);
    const data = index.#data;
    for (const { row, segment, block } of sparse) {
      const start = tileStart(row, dimension);
      const values = segment.data;
      const dims = segment.dims!;
      for (let at = block === 0 ? 0 : segment.ends![block - 1]!; at < segment.ends![block]!; at++) {
        data[start + dims[at]! * TILE_ROWS] = values[at]!;
      }
    }
    return index;
  }

  /**
   * `NAVX`, format version (u32), header length (u32), a JSON header (model,
   * ids, notes), padding to 4 bytes, then the rows as little-endian float32.
   */
  toBuffer(): ArrayBuffer {
    const noteIndex = new Map<string, number>();
    const notes: Array<[string, string, string[]]> = [];
    const noteRows = this.#meta.slice(0, this.#count).map((meta) => {
      // Keyed on all three fields: blocks of one note normally agree, but a
      // half-applied move must not borrow another block's folder or tags.
      const key = JSON.stringify([meta.note_id, meta.folder, meta.tags]);
      let index = noteIndex.get(key);
      if (index === undefined) {
        index = notes.push([meta.note_id, meta.folder, [...meta.tags]]) - 1;
        noteIndex.set(key, index);
      }
      return index;
    });
    const header = new TextEncoder().encode(
      JSON.stringify({
        model: this.info,
        block_ids: this.#ids.slice(0, this.#count),
        notes,
        note_rows: noteRows,
      }),
    );
    const dataOffset = align4(PREFIX_BYTES + header.byteLength);
    const floats = this.#count * this.info.dimension;
    const buffer = new ArrayBuffer(dataOffset + floats * 4);
    const bytes = new Uint8Array(buffer);
    const view = new DataView(buffer);
    bytes.set(new TextEncoder().encode(MAGIC), 0);
    view.setUint32(4, VECTOR_BUFFER_VERSION, true);
    view.setUint32(8, header.byteLength, true);
    bytes.set(header, PREFIX_BYTES);
    const rows = LITTLE_ENDIAN ? new Float32Array(buffer, dataOffset, floats) : new Float32Array(floats);
    for (let row = 0; row < this.#count; row++) this.#readRow(row, rows, row * this.info.dimension);
    if (!LITTLE_ENDIAN) for (let i = 0; i < floats; i++) view.setFloat32(dataOffset + i * 4, rows[i]!, true);
    return buffer;
  }

  /** Loads `toBuffer()` output; anything unreadable is VECTOR_INDEX_REBUILD_REQUIRED. */
  static fromBuffer(buffer: ArrayBuffer, options: VectorIndexOptions = {}): VectorIndex {
    const unreadable = (reason: string): AppError =>
      new AppError('VECTOR_INDEX_REBUILD_REQUIRED', 'The stored vector index cannot be read; rebuild it.', {
        reason,
      });
    if (buffer.byteLength < PREFIX_BYTES) throw unreadable('too short');
    const view = new DataView(buffer);
    if (new TextDecoder().decode(new Uint8Array(buffer, 0, 4)) !== MAGIC)
      throw unreadable('not a vector index');
    const version = view.getUint32(4, true);
    if (version !== VECTOR_BUFFER_VERSION) throw unreadable(`format version ${version}`);
    const headerLength = view.getUint32(8, true);
    if (PREFIX_BYTES + headerLength > buffer.byteLength) throw unreadable('header past the end');
    let parsed: z.infer<typeof headerSchema>;
    try {
      const text = new TextDecoder().decode(new Uint8Array(buffer, PREFIX_BYTES, headerLength));
      parsed = headerSchema.parse(JSON.parse(text));
    } catch {
      throw unreadable('header');
    }
    const count = parsed.block_ids.length;
    const dimension = parsed.model.dimension;
    const dataOffset = align4(PREFIX_BYTES + headerLength);
    if (
      parsed.note_rows.length !== count ||
      parsed.note_rows.some((note) => note >= parsed.notes.length) ||
      new Set(parsed.block_ids).size !== count ||
      buffer.byteLength !== dataOffset + count * dimension * 4
    ) {
      throw unreadable('rows do not match the header');
    }
    const index = new VectorIndex(parsed.model, count, options);
    const floats = count * dimension;
    let rows: Float32Array;
    if (LITTLE_ENDIAN) rows = new Float32Array(buffer, dataOffset, floats);
    else {
      rows = new Float32Array(floats);
      for (let i = 0; i < floats; i++) rows[i] = view.getFloat32(dataOffset + i * 4, true);
    }
    for (let row = 0; row < count; row++) index.#writeRow(row, rows, row * dimension);
    const notes = parsed.notes.map(([note_id, folder, tags]) => ({ note_id, folder, tags }));
    parsed.block_ids.forEach((blockId, row) => {
      const meta = notes[parsed.note_rows[row] ?? 0] ?? { note_id: '', folder: '', tags: [] };
      index.#ids.push(blockId);
      index.#meta.push(meta);
      index.#rows.set(blockId, row);
      index.#track(meta.note_id, blockId);
    });
    index.#count = count;
    return index;
  }

  #checkDimension(vector: Float32Array): void {
    if (vector.length !== this.info.dimension) {
      throw new AppError('EMBEDDING_DIMENSION_MISMATCH', 'The vector does not have the index dimension.', {
        expected: this.info.dimension,
        found: vector.length,
      });
    }
  }

  #put(entry: VectorEntry, vector: Float32Array): void {
    const dimension = this.info.dimension;
    let row = this.#rows.get(entry.block_id);
    if (row === undefined) {
      row = this.#count++;
      this.#grow(this.#count);
      this.#ids[row] = entry.block_id;
      this.#rows.set(entry.block_id, row);
    } else {
      const before = this.#meta[row];
      if (before && before.note_id !== entry.note_id) {
        this.#notes.get(before.note_id)?.delete(entry.block_id);
        if (this.#notes.get(before.note_id)?.size === 0) this.#notes.delete(before.note_id);
      }
    }
    this.#meta[row] = { note_id: entry.note_id, folder: entry.folder ?? '', tags: [...(entry.tags ?? [])] };
    this.#track(entry.note_id, entry.block_id);
    // Stored unit-length whatever the model's normalisation, so search is a dot product.
    const normalised = unit(vector) ?? new Float32Array(dimension);
    this.#writeRow(row, normalised, 0);
    if (this.#codes && !this.#codesStale && !this.#codes.set(row, normalised)) this.#codesStale = true;
  }

  /** Copies the row's vector into `target` from `offset` on. */
  #readRow(row: number, target: Float32Array, offset: number): void {
    const data = this.#data;
    const start = tileStart(row, this.info.dimension);
    for (let dim = 0; dim < this.info.dimension; dim++) target[offset + dim] = data[start + dim * TILE_ROWS]!;
  }

  /** Sets the row's vector from `source`, `dimension` floats from `offset` on. */
  #writeRow(row: number, source: Float32Array, offset: number): void {
    const data = this.#data;
    const start = tileStart(row, this.info.dimension);
    for (let dim = 0; dim < this.info.dimension; dim++) data[start + dim * TILE_ROWS] = source[offset + dim]!;
  }

  /**
   * Sets rows 0.. from `sources[row]` at `offsets[row]` (a row whose offset is
   * negative is left as it is). A row alone writes
   * one float per dimension, each a tile column apart, a cache miss apiece;
   * here a run of rows of one tile is written a dimension at a time, so the
   * writes go straight through memory and the rows being read stay in cache.
   */
  #writeRows(sources: readonly Float32Array[], offsets: readonly number[]): void {
    const data = this.#data;
    const dimension = this.info.dimension;
    const run = 32;
    let rows: number;
    for (let first = 0; first < sources.length; first += rows) {
      // Never past the tile's end: the next tile starts elsewhere.
      rows = Math.min(run, sources.length - first, TILE_ROWS - (first & (TILE_ROWS - 1)));
      const start = tileStart(first, dimension);
      let dense = 0;
      for (let r = 0; r < rows; r++) if (offsets[first + r]! >= 0) dense += 1;
      if (dense === 0) continue;
      for (let dim = 0; dim < dimension; dim++) {
        const column = start + dim * TILE_ROWS;
        for (let r = 0; r < rows; r++) {
          const offset = offsets[first + r]!;
          if (offset >= 0) data[column + r] = sources[first + r]![offset + dim]!;
        }
      }
    }
  }

  #track(noteId: string, blockId: string): void {
    const blocks = this.#notes.get(noteId) ?? new Set<string>();
    blocks.add(blockId);
    this.#notes.set(noteId, blocks);
  }

  #grow(rows: number): void {
    const tileFloats = TILE_ROWS * this.info.dimension;
    const tiles = this.#data.length / tileFloats;
    if (rows <= tiles * TILE_ROWS) return;
    // Tiles are appended, never moved within: the old ones copy over as they are.
    const next = new Float32Array(Math.max(tilesFor(rows), tiles * 2) * tileFloats);
    next.set(this.#data);
    this.#data = next;
  }
}

const EMPTY_ROWS = new Float32Array(0);

/** A sparse segment whose parts agree with each other and with `dimension`. */
function sparseFits(segment: VectorNoteSegment, dimension: number): boolean {
  const { data, dims, ends, block_ids } = segment;
  if (!(dims instanceof Uint16Array) || !(ends instanceof Uint32Array)) return false;
  if (dims.length !== data.length || ends.length !== block_ids.length) return false;
  let previous = 0;
  for (const end of ends) {
    if (end < previous) return false;
    previous = end;
  }
  if (previous !== data.length) return false;
  for (const dim of dims) if (dim >= dimension) return false;
  return true;
}

function tilesFor(rows: number): number {
  return Math.max(1, Math.ceil(rows / TILE_ROWS));
}

/** Where the row's first dimension is: its tile's start plus its place in the tile. */
function tileStart(row: number, dimension: number): number {
  return (row >> TILE_SHIFT) * TILE_ROWS * dimension + (row & (TILE_ROWS - 1));
}

function align4(offset: number): number {
  return (offset + 3) & ~3;
}

/** A unit-length copy, or undefined for a zero (or non-finite) vector, which is similar to nothing. */
function unit(vector: Float32Array): Float32Array | undefined {
  let norm = 0;
  for (const value of vector) norm += value * value;
  if (!(norm > 0) || !Number.isFinite(norm)) return undefined;
  const scale = 1 / Math.sqrt(norm);
  return vector.map((value) => value * scale);
}

/**
 * Keeps the k best (row, score) pairs in a min-heap, so a scan is O(n log k).
 * "Worse" is a lower score, or an equal score with a later block id, so the
 * result does not depend on the order of the rows.
 */
class TopK {
  readonly #rows: number[] = [];
  readonly #scores: number[] = [];
  constructor(
    readonly k: number,
    readonly idOf: (row: number) => string,
  ) {}

  /** True when the heap is full and `score` is below its worst: such a row can never get in. */
  cannotTake(score: number): boolean {
    return this.#rows.length === this.k && score < (this.#scores[0] ?? 0);
  }

  offer(row: number, score: number): void {
    if (this.#rows.length < this.k) {
      this.#rows.push(row);
      this.#scores.push(score);
      this.#up(this.#rows.length - 1);
    } else if (this.#worse(0, row, score)) {
      this.#rows[0] = row;
      this.#scores[0] = score;
      this.#down(0);
    }
  }

  /** The rows held, in no order. */
  rows(): readonly number[] {
    return this.#rows;
  }

  sorted(): Array<{ row: number; score: number }> {
    return this.#rows
      .map((row, index) => ({ row, score: this.#scores[index] ?? 0 }))
      .sort((a, b) => b.score - a.score || compareIds(this.idOf(a.row), this.idOf(b.row)));
  }

  /** Is the heap entry at `index` worse than (row, score)? */
  #worse(index: number, row: number, score: number): boolean {
    const heldScore = this.#scores[index] ?? 0;
    if (heldScore !== score) return heldScore < score;
    return compareIds(this.idOf(this.#rows[index] ?? 0), this.idOf(row)) > 0;
  }

  #less(a: number, b: number): boolean {
    return this.#worse(a, this.#rows[b] ?? 0, this.#scores[b] ?? 0);
  }

  #swap(a: number, b: number): void {
    [this.#rows[a], this.#rows[b]] = [this.#rows[b] ?? 0, this.#rows[a] ?? 0];
    [this.#scores[a], this.#scores[b]] = [this.#scores[b] ?? 0, this.#scores[a] ?? 0];
  }

  #up(index: number): void {
    while (index > 0) {
      const parent = (index - 1) >> 1;
      if (!this.#less(index, parent)) return;
      this.#swap(index, parent);
      index = parent;
    }
  }

  #down(index: number): void {
    const size = this.#rows.length;
    for (;;) {
      const left = index * 2 + 1;
      const right = left + 1;
      let smallest = index;
      if (left < size && this.#less(left, smallest)) smallest = left;
      if (right < size && this.#less(right, smallest)) smallest = right;
      if (smallest === index) return;
      this.#swap(index, smallest);
      index = smallest;
    }
  }
}

function compareIds(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
