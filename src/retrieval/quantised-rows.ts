/**
 * An int8 copy of a vector index's rows, scanned with WebAssembly SIMD, for
 * the candidates of a dense query (VectorIndex re-ranks them on the floats).
 *
 * Why our own and not an approximate-neighbour library: the maintained HNSW
 * builds on npm (hnswlib-wasm, usearch) are either native Node bindings or an
 * Emscripten bundle of a few hundred KB that keeps its graph in its own
 * virtual file system, and a graph is costly to build (seconds per 10,000
 * rows on this class of machine), forgets deleted rows only by marking them,
 * and gives up recall on vectors without cluster structure. A scan of int8
 * codes needs no training, updates a row in place, has the same cost whatever
 * the vectors look like, and its estimate is close enough to the cosine that
 * an exact re-rank of a few times k candidates gives the exact top k. The
 * module is 217 bytes, written out below, so nothing loads lazily.
 *
 * Codes are per dimension: code = round(value × 127 / range), `range` a
 * little over the largest |value| of that dimension when the codes were
 * built, so a model with a few large dimensions keeps its resolution in the
 * others. A query becomes int16 weights (query value × range / 127, scaled to
 * use 15 bits, and so that no row's sum can overflow an int32); a row's
 * estimate is the integer dot product of its codes with those weights, exact
 * integer arithmetic, the same on every engine. Nothing here is persisted: the
 * codes are rebuilt from the stored floats when first needed.
 */

/** Head room over the largest value per dimension, so new rows rarely fall outside it. */
const RANGE_HEADROOM = 1.25;
/** Rows scored per call into the module, so the score buffer has a fixed size. */
const CHUNK_ROWS = 4096;
const PAGE_BYTES = 65_536;
const MAX_WEIGHT = 32_767;
const MAX_SUM = 2 ** 31 - 1;

/**
 * scan(codes, rows, blocks, query, out): for each of `rows` rows of
 * `blocks` × 16 int8 codes from `codes` on, the int32 dot product with the
 * `blocks` × 16 int16 weights at `query`, stored at `out` one after another.
 * Per 16 codes: sign-extend to two i16x8, i32x4.dot_i16x8_s with the weights,
 * add into an i32x4 accumulator; the four lanes are added at the row's end.
 */
// prettier-ignore
const SCAN_BODY = [
  0x02, 0x02, 0x7f, 0x02, 0x7b, //            locals: $block $weights (i32), $sum $codes16 (v128)
  0x02, 0x40, 0x20, 0x01, 0x45, 0x0d, 0x00, // block; if rows == 0 leave
  0x03, 0x40, //                              loop (rows)
  0xfd, 0x0c, ...new Array<number>(16).fill(0), 0x21, 0x07, // $sum = 0
  0x20, 0x03, 0x21, 0x06, //                    $weights = query
  0x20, 0x02, 0x21, 0x05, //                    $block = blocks
  0x03, 0x40, //                                loop (blocks of 16 dimensions)
  0x20, 0x00, 0xfd, 0x00, 0x00, 0x00, 0x21, 0x08, // $codes16 = v128.load codes
  0x20, 0x07, //                                  $sum
  0x20, 0x08, 0xfd, 0x87, 0x01, //                  + dot(extend_low_s($codes16),
  0x20, 0x06, 0xfd, 0x00, 0x00, 0x00, //                v128.load $weights)
  0xfd, 0xba, 0x01, 0xfd, 0xae, 0x01,
  0x20, 0x08, 0xfd, 0x88, 0x01, //                  + dot(extend_high_s($codes16),
  0x20, 0x06, 0xfd, 0x00, 0x00, 0x10, //                v128.load offset=16 $weights)
  0xfd, 0xba, 0x01, 0xfd, 0xae, 0x01,
  0x21, 0x07, //                                  -> $sum
  0x20, 0x00, 0x41, 0x10, 0x6a, 0x21, 0x00, //    codes += 16
  0x20, 0x06, 0x41, 0x20, 0x6a, 0x21, 0x06, //    $weights += 32
  0x20, 0x05, 0x41, 0x01, 0x6b, 0x22, 0x05, 0x0d, 0x00, // if --$block != 0 repeat
  0x0b,
  0x20, 0x04, //                                i32.store out, lane0 + lane1 + lane2 + lane3
  0x20, 0x07, 0xfd, 0x1b, 0x00,
  0x20, 0x07, 0xfd, 0x1b, 0x01, 0x6a,
  0x20, 0x07, 0xfd, 0x1b, 0x02, 0x6a,
  0x20, 0x07, 0xfd, 0x1b, 0x03, 0x6a,
  0x36, 0x02, 0x00,
  0x20, 0x04, 0x41, 0x04, 0x6a, 0x21, 0x04, //  out += 4
  0x20, 0x01, 0x41, 0x01, 0x6b, 0x22, 0x01, 0x0d, 0x00, // if --rows != 0 repeat
  0x0b, 0x0b, 0x0b,
];

function leb128(value: number): number[] {
  const out: number[] = [];
  do {
    let byte = value & 0x7f;
    value >>>= 7;
    if (value) byte |= 0x80;
    out.push(byte);
  } while (value);
  return out;
}

const section = (id: number, bytes: number[]): number[] => [id, ...leb128(bytes.length), ...bytes];
const name = (text: string): number[] => [text.length, ...[...text].map((char) => char.charCodeAt(0))];

function scanModuleBytes(): Uint8Array<ArrayBuffer> {
  return new Uint8Array([
    ...[0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00],
    // One type: (i32 × 5) -> ().
    ...section(1, [0x01, 0x60, 0x05, 0x7f, 0x7f, 0x7f, 0x7f, 0x7f, 0x00]),
    // Imports env.memory, at least one page.
    ...section(2, [0x01, ...name('env'), ...name('memory'), 0x02, 0x00, 0x01]),
    ...section(3, [0x01, 0x00]),
    ...section(7, [0x01, ...name('scan'), 0x00, 0x00]),
    ...section(10, [0x01, ...leb128(SCAN_BODY.length), ...SCAN_BODY]),
  ]);
}

type ScanFunction = (codes: number, rows: number, blocks: number, query: number, out: number) => void;

let compiled: WebAssembly.Module | null | undefined;

/** The compiled module, or null where WebAssembly SIMD is missing (then dense queries scan the floats). */
function scanModule(): WebAssembly.Module | null {
  if (compiled !== undefined) return compiled;
  try {
    const bytes = scanModuleBytes();
    compiled =
      typeof WebAssembly === 'object' && WebAssembly.validate(bytes) ? new WebAssembly.Module(bytes) : null;
  } catch {
    compiled = null;
  }
  return compiled;
}

/** True where the int8 scan can run. */
export function quantisedScanAvailable(): boolean {
  return scanModule() !== null;
}

/**
 * The codes of rows 0..count-1, row-major, each row padded to a multiple of
 * 16 codes, in a WebAssembly memory of its own: [weights | scores | codes].
 */
export class QuantisedRows {
  readonly dimension: number;
  /** Codes per row: the dimension rounded up to 16. */
  readonly stride: number;
  readonly #memory: WebAssembly.Memory;
  readonly #scan: ScanFunction;
  readonly #scoresAt: number;
  readonly #codesAt: number;
  /** 127 / range per dimension; 0 where every row was 0 when built. */
  readonly #scale: Float64Array;
  readonly #range: Float64Array;
  #capacity = 0;
  #codes!: Int8Array;
  #weights!: Int16Array;
  #scores!: Int32Array;

  /** Undefined where WebAssembly SIMD is missing. */
  static create(dimension: number): QuantisedRows | undefined {
    const module = scanModule();
    return module ? new QuantisedRows(module, dimension) : undefined;
  }

  private constructor(module: WebAssembly.Module, dimension: number) {
    this.dimension = dimension;
    this.stride = Math.ceil(dimension / 16) * 16;
    this.#scoresAt = align16(this.stride * 2);
    this.#codesAt = this.#scoresAt + CHUNK_ROWS * 4;
    this.#memory = new WebAssembly.Memory({ initial: Math.ceil(this.#codesAt / PAGE_BYTES) });
    const instance = new WebAssembly.Instance(module, { env: { memory: this.#memory } });
    this.#scan = instance.exports.scan as ScanFunction;
    this.#scale = new Float64Array(dimension);
    this.#range = new Float64Array(dimension);
    this.#views();
  }

  /** Bytes held per row (its codes). */
  get bytesPerRow(): number {
    return this.stride;
  }

  /** Bytes of the whole memory, codes and buffers. */
  get byteLength(): number {
    return this.#memory.buffer.byteLength;
  }

  /**
   * Codes for rows 0..count-1 of a VectorIndex's tiles (`tileRows` rows per
   * tile, dimension-major within it, every row unit length), read straight
   * through memory; the ranges are set from these rows.
   */
  build(tiles: Float32Array, tileRows: number, count: number): void {
    const dimension = this.dimension;
    const stride = this.stride;
    const largest = new Float64Array(dimension);
    for (let first = 0; first < count; first += tileRows) {
      const rows = Math.min(tileRows, count - first);
      const start = first * dimension;
      for (let dim = 0; dim < dimension; dim++) {
        const column = start + dim * tileRows;
        let most = largest[dim]!;
        for (let r = 0; r < rows; r++) most = Math.max(most, Math.abs(tiles[column + r]!));
        largest[dim] = most;
      }
    }
    for (let dim = 0; dim < dimension; dim++) {
      const range = largest[dim]! * RANGE_HEADROOM;
      this.#range[dim] = range;
      this.#scale[dim] = range > 0 ? 127 / range : 0;
    }
    this.reserve(count);
    const codes = this.#codes;
    for (let first = 0; first < count; first += tileRows) {
      const rows = Math.min(tileRows, count - first);
      const start = first * dimension;
      for (let dim = 0; dim < dimension; dim++) {
        const column = start + dim * tileRows;
        const scale = this.#scale[dim]!;
        let at = first * stride + dim;
        for (let r = 0; r < rows; r++, at += stride) codes[at] = Math.round(tiles[column + r]! * scale);
      }
    }
  }

  /** Room for `rows` rows; the memory only grows. */
  reserve(rows: number): void {
    if (rows <= this.#capacity) return;
    const capacity = Math.max(rows, this.#capacity * 2, 64);
    const needed = this.#codesAt + capacity * this.stride;
    const pages = Math.ceil((needed - this.#memory.buffer.byteLength) / PAGE_BYTES);
    if (pages > 0) this.#memory.grow(pages);
    this.#capacity = capacity;
    this.#views();
  }

  /**
   * Writes the row's codes. False, leaving them unwritten, when a value is
   * outside its dimension's range: the caller rebuilds before the next scan.
   */
  set(row: number, vector: Float32Array): boolean {
    this.reserve(row + 1);
    const dimension = this.dimension;
    const codes = this.#codes;
    const start = row * this.stride;
    for (let dim = 0; dim < dimension; dim++) {
      const value = vector[dim]!;
      if (Math.abs(value) > this.#range[dim]!) return false;
      codes[start + dim] = Math.round(value * this.#scale[dim]!);
    }
    return true;
  }

  /** Copies row `from`'s codes over row `to` (the index's swap-remove). */
  move(from: number, to: number): void {
    const stride = this.stride;
    this.#codes.copyWithin(to * stride, from * stride, from * stride + stride);
  }

  /**
   * Estimates `query · row` for rows 0..count-1, up to a common positive
   * factor: `visit(first, scores, rows)` gets scores[i] for row first + i.
   * `query` must be unit length.
   */
  scan(
    query: Float32Array,
    count: number,
    visit: (first: number, scores: Int32Array, rows: number) => void,
  ): void {
    const dimension = this.dimension;
    const weights = new Float64Array(dimension);
    let largest = 0;
    let total = 0;
    for (let dim = 0; dim < dimension; dim++) {
      const scale = this.#scale[dim]!;
      const weight = scale > 0 ? query[dim]! / scale : 0;
      weights[dim] = weight;
      largest = Math.max(largest, Math.abs(weight));
      total += Math.abs(weight);
    }
    const factor = largest > 0 ? Math.min(MAX_WEIGHT / largest, MAX_SUM / (127 * total)) : 0;
    const target = this.#weights;
    target.fill(0);
    for (let dim = 0; dim < dimension; dim++) target[dim] = Math.trunc(weights[dim]! * factor);
    const blocks = this.stride / 16;
    const scores = this.#scores;
    for (let first = 0; first < count; first += CHUNK_ROWS) {
      const rows = Math.min(CHUNK_ROWS, count - first);
      this.#scan(this.#codesAt + first * this.stride, rows, blocks, 0, this.#scoresAt);
      visit(first, scores, rows);
    }
  }

  /** Views over the memory, renewed whenever it grows (growing detaches the old buffer). */
  #views(): void {
    const buffer = this.#memory.buffer;
    this.#weights = new Int16Array(buffer, 0, this.stride);
    this.#scores = new Int32Array(buffer, this.#scoresAt, CHUNK_ROWS);
    this.#codes = new Int8Array(buffer, this.#codesAt, this.#capacity * this.stride);
  }
}

function align16(offset: number): number {
  return (offset + 15) & ~15;
}
