import { describe, expect, it } from 'vitest';
import { QuantisedRows, quantisedScanAvailable } from './quantised-rows';

const TILE_ROWS = 8;

function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1_664_525) + 1_013_904_223) >>> 0;
    return (state / 2 ** 32) * 2 - 1;
  };
}

function unit(vector: Float32Array): Float32Array {
  let norm = 0;
  for (const value of vector) norm += value * value;
  return vector.map((value) => value / Math.sqrt(norm));
}

/** Rows in the tile layout QuantisedRows.build reads: TILE_ROWS rows per tile, dimension-major inside. */
function tiles(rows: readonly Float32Array[], dimension: number): Float32Array {
  const data = new Float32Array(Math.ceil(rows.length / TILE_ROWS) * TILE_ROWS * dimension);
  rows.forEach((row, index) => {
    const start = Math.floor(index / TILE_ROWS) * TILE_ROWS * dimension + (index % TILE_ROWS);
    row.forEach((value, dim) => (data[start + dim * TILE_ROWS] = value));
  });
  return data;
}

function estimates(codes: QuantisedRows, query: Float32Array, count: number): number[] {
  const out: number[] = [];
  codes.scan(query, count, (first, scores, rows) => {
    expect(first).toBe(out.length);
    for (let r = 0; r < rows; r++) out.push(scores[r]!);
  });
  return out;
}

function correlation(a: readonly number[], b: readonly number[]): number {
  const mean = (values: readonly number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;
  const ma = mean(a);
  const mb = mean(b);
  let ab = 0;
  let aa = 0;
  let bb = 0;
  a.forEach((value, i) => {
    ab += (value - ma) * (b[i]! - mb);
    aa += (value - ma) ** 2;
    bb += (b[i]! - mb) ** 2;
  });
  return ab / Math.sqrt(aa * bb);
}

const dot = (a: Float32Array, b: Float32Array) => a.reduce((sum, value, i) => sum + value * b[i]!, 0);

describe('QuantisedRows', () => {
  it('runs here (WebAssembly SIMD, as in every browser the app supports and Node 20)', () => {
    expect(quantisedScanAvailable()).toBe(true);
  });

  it('estimates the dot product of every row, across chunks, with a dimension that is not a multiple of 16', () => {
    const dimension = 40;
    const next = seeded(3);
    // Over one 4096-row chunk, so the scan's chunks are stitched together.
    const rows = Array.from({ length: 5000 }, () => unit(new Float32Array(dimension).map(() => next())));
    const codes = QuantisedRows.create(dimension)!;
    codes.build(tiles(rows, dimension), TILE_ROWS, rows.length);
    const query = unit(new Float32Array(dimension).map(() => next()));
    const estimated = estimates(codes, query, rows.length);
    expect(estimated).toHaveLength(rows.length);
    const exact = rows.map((row) => dot(row, query));
    expect(correlation(estimated, exact)).toBeGreaterThan(0.9999);
  });

  it('keeps per-dimension resolution when one dimension is much larger than the rest', () => {
    const dimension = 32;
    const next = seeded(5);
    const rows = Array.from({ length: 300 }, () => {
      const row = new Float32Array(dimension).map(() => next() * 0.05);
      row[0] = 5 + next();
      return unit(row);
    });
    const codes = QuantisedRows.create(dimension)!;
    codes.build(tiles(rows, dimension), TILE_ROWS, rows.length);
    // A query orthogonal to the large dimension ranks by the small ones.
    const query = unit(new Float32Array(dimension).map((_, dim) => (dim === 0 ? 0 : next())));
    expect(
      correlation(
        estimates(codes, query, rows.length),
        rows.map((row) => dot(row, query)),
      ),
    ).toBeGreaterThan(0.999);
  });

  it('never overflows: a wide row equal to the query scores highest and its opposite lowest', () => {
    const dimension = 1024;
    const row = unit(new Float32Array(dimension).fill(1));
    const rows = [row, row.map((value) => -value), new Float32Array(dimension)];
    const codes = QuantisedRows.create(dimension)!;
    codes.build(tiles(rows, dimension), TILE_ROWS, rows.length);
    const [same, opposite, zero] = estimates(codes, row, rows.length);
    expect(same).toBeGreaterThan(0);
    expect(opposite).toBe(-same!);
    expect(zero).toBe(0);
  });

  it('set refuses a value outside its range, and move copies a row', () => {
    const dimension = 16;
    const rows = [unit(new Float32Array(dimension).fill(1)), unit(new Float32Array(dimension).fill(-1))];
    const codes = QuantisedRows.create(dimension)!;
    codes.build(tiles(rows, dimension), TILE_ROWS, rows.length);
    const outside = new Float32Array(dimension);
    outside[3] = 1;
    expect(codes.set(2, outside)).toBe(false);
    expect(codes.set(2, rows[0]!)).toBe(true);
    codes.move(1, 0);
    const [first, second, third] = estimates(codes, rows[0]!, 3);
    expect(first).toBe(second);
    expect(third).toBe(-first!);
  });
});
