import { z } from 'zod';
import { seededRandom } from '../core/seeded-random';
import { embeddingModelInfoSchema, sameEmbeddingModel, type Embedder, type RelevanceFloor } from './embedder';
import type { VectorIndex } from './vector-index';

/**
 * A relevance floor measured on the user's own notebook with the model itself,
 * for models whose catalog entry has no measured floor. Queries about nothing
 * (nonsense probes) are embedded as queries and scored against every indexed
 * block: the best score any of them reaches is what "unrelated" looks like for
 * this (model, notebook) pair, and a real query's vector hits must beat it.
 * A guessed constant could sit above a model's real matches or below its
 * noise; this one sits just above the noise of this notebook.
 *
 * Change the probes, their count or the rule below and CALIBRATION_VERSION
 * must change, so calibrations stored with an index are measured again.
 */
export const CALIBRATION_VERSION = 1;
export const CALIBRATION_SEED = 0x6e756c6c; // "null"
export const CALIBRATION_PROBES = 32;
/**
 * Added to the highest probe score. The probes are a sample of nonsense, so a
 * query made of other nonsense can land a little above the best of them; the
 * margin covers that, and grows with the spread of the probes' scores, which
 * differs from model to model (a model that packs every cosine into 0.7-0.9
 * has a small spread).
 */
export const CALIBRATION_MARGIN = 0.02;
/** The margin also grows by this many standard deviations of the probes' top scores. */
export const CALIBRATION_SPREAD_FACTOR = 0.5;
/** Below this many indexed blocks the best nonsense score says too little: no calibrated floor. */
export const CALIBRATION_MIN_ROWS = 8;
/** Calibrated again when the index has grown or shrunk by this factor since. */
export const CALIBRATION_REGROW_FACTOR = 2;

export const relevanceCalibrationSchema = z.object({
  calibration_version: z.number().int().min(1),
  /** The model the probes were embedded with; the calibration is void for any other. */
  model: embeddingModelInfoSchema,
  /** Indexed blocks when measured. */
  rows: z.number().int().min(0),
  /** Probes that matched some block (the others count for nothing). */
  probes: z.number().int().min(1),
  /** The probes' best scores against the notebook: highest, 99th and 50th percentile, mean, standard deviation. */
  null_max: z.number().finite(),
  null_p99: z.number().finite(),
  null_p50: z.number().finite(),
  null_mean: z.number().finite(),
  null_std: z.number().finite().min(0),
  margin: z.number().finite().min(0),
  /** null_max + margin: vector hits below it are dropped. */
  min_cosine: z.number().finite(),
});
export type RelevanceCalibration = z.infer<typeof relevanceCalibrationSchema>;

/** Where the floor of a search came from, shown with its results. */
export interface RelevanceFloorInUse {
  /** model: the catalog's (or hash-v1's) measured floor; calibrated: measured on this notebook; none. */
  source: 'model' | 'calibrated' | 'none';
  floor: RelevanceFloor | null;
  calibration: RelevanceCalibration | null;
}

const LETTERS = 'abcdefghijklmnopqrstuvwxyz';
const ONSETS = [
  'b',
  'bl',
  'br',
  'd',
  'dr',
  'f',
  'fl',
  'g',
  'gr',
  'k',
  'kl',
  'm',
  'n',
  'p',
  'pl',
  'r',
  's',
  'sk',
  't',
  'tr',
  'v',
  'z',
];
const NUCLEI = ['a', 'e', 'i', 'o', 'u', 'oo', 'ai', 'ea'];
const CODAS = ['', '', 'b', 'g', 'k', 'm', 'n', 'p', 'rt', 'sh', 'x', 'z'];
/** CJK Unified Ideographs: random picks are mostly rare characters, as nonsense should be. */
const HAN_FIRST = 0x4e00;
const HAN_COUNT = 0x9fff - 0x4e00 + 1;

/**
 * The nonsense probes, in both scripts: random letter strings, made-up words
 * of English-like syllables, random Han characters, and the two mixed.
 * Deterministic from the seed.
 */
export function nonsenseProbes(
  count: number = CALIBRATION_PROBES,
  seed: number = CALIBRATION_SEED,
): string[] {
  // Seeded, so the probes are the same on every device.
  const random = seededRandom(seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
  const between = (low: number, high: number): number => low + Math.floor(random() * (high - low + 1));
  const letters = (): string => Array.from({ length: between(3, 8) }, () => pick([...LETTERS])).join('');
  const word = (): string =>
    Array.from({ length: between(2, 3) }, () => pick(ONSETS) + pick(NUCLEI) + pick(CODAS)).join('');
  const han = (): string =>
    Array.from({ length: between(2, 5) }, () =>
      String.fromCodePoint(HAN_FIRST + Math.floor(random() * HAN_COUNT)),
    ).join('');
  const kinds: Array<() => string> = [
    () => Array.from({ length: between(1, 3) }, letters).join(' '),
    () => Array.from({ length: between(1, 3) }, word).join(' '),
    han,
    () => `${word()} ${han()}`,
  ];
  return Array.from({ length: count }, (_, index) => kinds[index % kinds.length]!());
}

/** The q-quantile (0..1) of sorted values, interpolated between neighbours. */
function quantile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return 0;
  const at = (sorted.length - 1) * q;
  const low = Math.floor(at);
  const high = Math.ceil(at);
  return sorted[low]! + (sorted[high]! - sorted[low]!) * (at - low);
}

/**
 * The calibration from the probes' best scores (one per probe). A probe that
 * matched nothing (NaN: the model gave it the zero vector, as a model with no
 * token for any of its characters does) says nothing about the noise and is
 * left out; undefined when no probe matched anything.
 */
export function floorFrom(
  topScores: readonly number[],
  context: { model: RelevanceCalibration['model']; rows: number },
): RelevanceCalibration | undefined {
  const sorted = topScores.filter((score) => Number.isFinite(score)).sort((a, b) => a - b);
  if (sorted.length === 0) return undefined;
  const mean = sorted.reduce((sum, score) => sum + score, 0) / sorted.length;
  const variance = sorted.reduce((sum, score) => sum + (score - mean) ** 2, 0) / sorted.length;
  const std = Math.sqrt(variance);
  const nullMax = sorted[sorted.length - 1]!;
  const margin = CALIBRATION_MARGIN + CALIBRATION_SPREAD_FACTOR * std;
  return {
    calibration_version: CALIBRATION_VERSION,
    model: { ...context.model },
    rows: context.rows,
    probes: sorted.length,
    null_max: nullMax,
    null_p99: quantile(sorted, 0.99),
    null_p50: quantile(sorted, 0.5),
    null_mean: mean,
    null_std: std,
    margin,
    min_cosine: nullMax + margin,
  };
}

/**
 * Measures the floor of `embedder` (the query side: e5's `query: ` prefix
 * included) on the blocks of `index`. Undefined when the index has fewer than
 * CALIBRATION_MIN_ROWS blocks: with a handful of blocks the best nonsense
 * score is luck, and no floor beats a wrong one.
 */
export async function calibrateRelevance(
  index: VectorIndex,
  embedder: Embedder,
  options: { signal?: AbortSignal; probes?: readonly string[] } = {},
): Promise<RelevanceCalibration | undefined> {
  index.assertCompatible(embedder.info);
  const rows = index.size;
  if (rows < CALIBRATION_MIN_ROWS) return undefined;
  const probes = options.probes ?? nonsenseProbes();
  const vectors = await embedder.embed([...probes], options.signal ? { signal: options.signal } : {});
  // Every block, not a sample: the floor must sit above the best any nonsense reaches.
  const tops = vectors.map((vector) => index.search(vector, 1)[0]?.score ?? Number.NaN);
  return floorFrom(tops, { model: embedder.info, rows });
}

/**
 * An index build's last step: measures the floor into `index` when the model
 * has none of its own, so the first search does not wait for the probes.
 */
export async function calibrateIndex(
  index: VectorIndex,
  embedder: Embedder,
  options: { signal?: AbortSignal } = {},
): Promise<void> {
  if (embedder.relevance_floor) return;
  index.relevanceCalibration = await calibrateRelevance(index, embedder, options);
}

/** Whether a stored calibration still holds for `index` (same model and probes, about the same size). */
export function calibrationHolds(calibration: RelevanceCalibration, index: VectorIndex): boolean {
  if (calibration.calibration_version !== CALIBRATION_VERSION) return false;
  if (!sameEmbeddingModel(calibration.model, index.info)) return false;
  const rows = index.size;
  return (
    rows < calibration.rows * CALIBRATION_REGROW_FACTOR && rows * CALIBRATION_REGROW_FACTOR > calibration.rows
  );
}

/** Reads a stored calibration; undefined when it is missing or not one. */
export function parseCalibration(value: unknown): RelevanceCalibration | undefined {
  const parsed = relevanceCalibrationSchema.safeParse(value);
  return parsed.success ? parsed.data : undefined;
}

/** A calibration stored with `index`, when it is one and still holds for it. */
export function storedCalibration(value: unknown, index: VectorIndex): RelevanceCalibration | undefined {
  const calibration = parseCalibration(value);
  return calibration && calibrationHolds(calibration, index) ? calibration : undefined;
}

const pending = new WeakMap<VectorIndex, Promise<RelevanceCalibration | undefined>>();

/**
 * The floor a vector or hybrid search applies: the model's own when it has a
 * measured one (it wins), else the index's calibration, measured now when the
 * index has none that holds. Concurrent searches share one measurement; a
 * failed one is not kept, so the next search measures again.
 */
export async function relevanceFloorInUse(
  index: VectorIndex,
  embedder: Embedder,
  options: { signal?: AbortSignal } = {},
): Promise<RelevanceFloorInUse> {
  if (embedder.relevance_floor) {
    return { source: 'model', floor: { ...embedder.relevance_floor }, calibration: null };
  }
  let calibration = index.relevanceCalibration;
  if (!calibration || !calibrationHolds(calibration, index)) {
    let measuring = pending.get(index);
    if (!measuring) {
      // Not tied to one search's signal: an aborted search must not void the measurement others wait for.
      measuring = calibrateRelevance(index, embedder).finally(() => pending.delete(index));
      pending.set(index, measuring);
    }
    calibration = await measuring;
    if (calibration) index.relevanceCalibration = calibration;
    options.signal?.throwIfAborted();
  }
  if (!calibration) return { source: 'none', floor: null, calibration: null };
  return { source: 'calibrated', floor: { min_cosine: calibration.min_cosine }, calibration };
}
