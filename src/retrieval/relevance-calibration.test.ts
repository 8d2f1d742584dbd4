import { describe, expect, it } from 'vitest';
import { AppError } from '../contracts';
import type { Embedder, EmbeddingModelInfo, RelevanceFloor } from './embedder';
import { FullTextIndex } from './full-text-index';
import { hybridSearch, SEARCH_MODES } from './hybrid-search';
import {
  CALIBRATION_MARGIN,
  CALIBRATION_MIN_ROWS,
  CALIBRATION_PROBES,
  calibrateIndex,
  calibrateRelevance,
  calibrationHolds,
  floorFrom,
  nonsenseProbes,
  parseCalibration,
  relevanceFloorInUse,
} from './relevance-calibration';
import { DEFAULT_RETRIEVAL_PROFILE } from './retrieval-profile';
import { VectorIndex } from './vector-index';

const DIMENSION = 8;
const TOPICS = ['alpha', 'bravo', 'charlie', 'delta'] as const;

function unitVector(values: number[]): Float32Array {
  const norm = Math.hypot(...values);
  return Float32Array.from(values, (value) => value / norm);
}

/**
 * A model whose null distribution is known exactly: a text naming a topic
 * points along that topic's axis (cosine 1 with its blocks), "about <topic>"
 * leans on it (cosine 0.6), and anything else points mostly away, at cosine
 * `noise` from every topic axis. So every nonsense probe's best score is `noise`.
 */
class FakeEmbedder implements Embedder {
  readonly info: EmbeddingModelInfo;
  readonly relevance_floor?: RelevanceFloor;
  readonly texts: string[] = [];

  constructor(
    readonly noise: number,
    version = '1',
    floor?: RelevanceFloor,
  ) {
    this.info = { model_id: 'fake', model_version: version, dimension: DIMENSION, normalization: 'l2' };
    if (floor) this.relevance_floor = floor;
  }

  async embed(texts: string[]): Promise<Float32Array[]> {
    this.texts.push(...texts);
    return texts.map((text) => {
      const topic = TOPICS.findIndex((name) => text.split(/\s+/).includes(name));
      const values = new Array<number>(DIMENSION).fill(0);
      if (topic >= 0 && text.startsWith('about ')) {
        values[topic] = 0.6;
        values[DIMENSION - 2] = 0.8;
      } else if (topic >= 0) {
        values[topic] = 1;
      } else {
        // Cosine `noise` with each axis: noise on every topic axis, the rest on the last one.
        TOPICS.forEach((_, axis) => (values[axis] = this.noise));
        values[DIMENSION - 1] = Math.sqrt(1 - TOPICS.length * this.noise ** 2);
      }
      return unitVector(values);
    });
  }
}

/** `perTopic` blocks per topic: "alpha note 0", ... */
async function indexOf(embedder: FakeEmbedder, perTopic = 3) {
  const fullText = new FullTextIndex();
  const vectors = new VectorIndex(embedder.info);
  const documents = TOPICS.flatMap((topic) =>
    Array.from({ length: perTopic }, (_, n) => ({
      block_id: `${topic}-${n}`,
      note_id: topic,
      text: `${topic} note ${n}${topic === 'delta' && n === 0 ? ' zorblax' : ''}`,
    })),
  );
  documents.forEach((document) => fullText.add(document));
  vectors.upsert(documents, await embedder.embed(documents.map((document) => document.text)), embedder.info);
  embedder.texts.length = 0;
  return { fullText, vectors, embedder };
}

describe('nonsense probes', () => {
  it('are the same every time, 32 of them, in Latin letters and Han characters', () => {
    const probes = nonsenseProbes();
    expect(probes).toHaveLength(CALIBRATION_PROBES);
    expect(nonsenseProbes()).toEqual(probes);
    expect(nonsenseProbes(CALIBRATION_PROBES, 7)).not.toEqual(probes);
    expect(new Set(probes).size).toBe(probes.length);
    expect(probes.filter((probe) => /^[a-z ]+$/.test(probe)).length).toBeGreaterThanOrEqual(8);
    expect(probes.filter((probe) => /^[\u4e00-\u9fff]+$/u.test(probe)).length).toBeGreaterThanOrEqual(8);
    expect(probes.filter((probe) => /[a-z]/.test(probe) && /[\u4e00-\u9fff]/u.test(probe)).length).toBe(8);
  });
});

describe('floorFrom', () => {
  it('puts the floor the margin and half a standard deviation above the best probe (hand-computed)', () => {
    // mean 0.3, deviations ±0.1 → std 0.1; floor = 0.4 + 0.02 + 0.5 × 0.1. The probe that matched nothing is left out.
    const calibration = floorFrom([0.2, Number.NaN, 0.4], { model: new FakeEmbedder(0).info, rows: 10 });
    expect(calibration?.probes).toBe(2);
    expect(calibration?.null_max).toBe(0.4);
    expect(calibration?.null_p50).toBeCloseTo(0.3, 12);
    expect(calibration?.null_std).toBeCloseTo(0.1, 12);
    expect(calibration?.margin).toBeCloseTo(0.07, 12);
    expect(calibration?.min_cosine).toBeCloseTo(0.47, 12);
    expect(floorFrom([Number.NaN], { model: new FakeEmbedder(0).info, rows: 10 })).toBeUndefined();
  });
});

describe('calibrated relevance floor', () => {
  it('is measured from the known null distribution: nonsense drops, related queries stay', async () => {
    const inputs = await indexOf(new FakeEmbedder(0.3));
    const result = await hybridSearch({
      ...inputs,
      query: 'qzxv blorft',
      mode: 'vector',
      profile: DEFAULT_RETRIEVAL_PROFILE,
    });
    expect(result.hits).toEqual([]);
    expect(result.relevance_floor?.source).toBe('calibrated');
    const calibration = result.relevance_floor?.calibration;
    expect(calibration?.null_max).toBeCloseTo(0.3, 6);
    expect(calibration?.null_std).toBeCloseTo(0, 6);
    expect(calibration?.min_cosine).toBeCloseTo(0.3 + CALIBRATION_MARGIN, 6);
    expect(calibration?.rows).toBe(12);
    expect(result.relevance_floor?.floor).toEqual({ min_cosine: calibration?.min_cosine });

    for (const mode of SEARCH_MODES) {
      const nonsense = await hybridSearch({
        ...inputs,
        query: 'wibble glorp',
        mode,
        profile: DEFAULT_RETRIEVAL_PROFILE,
      });
      expect(nonsense.hits, mode).toEqual([]);
    }
    const exact = await hybridSearch({
      ...inputs,
      query: 'bravo',
      mode: 'vector',
      profile: DEFAULT_RETRIEVAL_PROFILE,
    });
    expect(exact.hits.map((hit) => hit.block_id).sort()).toEqual(['bravo-0', 'bravo-1', 'bravo-2']);
    // Cosine 0.6: well below an exact match, still above the nonsense.
    const related = await hybridSearch({
      ...inputs,
      query: 'about charlie',
      mode: 'hybrid',
      profile: DEFAULT_RETRIEVAL_PROFILE,
    });
    expect(related.hits.map((hit) => hit.note_id)).toEqual(['charlie', 'charlie', 'charlie']);
    // Measured once: the probes were embedded by the first search only.
    expect(inputs.embedder.texts.filter((text) => nonsenseProbes().includes(text))).toHaveLength(
      CALIBRATION_PROBES,
    );
  });

  it('leaves full-text hits alone: hybrid keeps a literal match the floor drops as a vector', async () => {
    const inputs = await indexOf(new FakeEmbedder(0.3));
    const result = await hybridSearch({
      ...inputs,
      query: 'zorblax',
      mode: 'hybrid',
      profile: DEFAULT_RETRIEVAL_PROFILE,
    });
    expect(result.hits.map((hit) => [hit.block_id, hit.fts_rank, hit.vector_rank])).toEqual([
      ['delta-0', 1, null],
    ]);
    const vector = await hybridSearch({
      ...inputs,
      query: 'zorblax',
      mode: 'vector',
      profile: DEFAULT_RETRIEVAL_PROFILE,
    });
    expect(vector.hits).toEqual([]);
    const fts = await hybridSearch({
      ...inputs,
      query: 'zorblax',
      mode: 'fts',
      profile: DEFAULT_RETRIEVAL_PROFILE,
    });
    expect(fts.relevance_floor).toBeUndefined();
  });

  it("lets a model's measured floor win, with no probes embedded", async () => {
    const inputs = await indexOf(new FakeEmbedder(0.3, '1', { min_cosine: 0.25 }));
    const result = await hybridSearch({
      ...inputs,
      query: 'wibble',
      mode: 'vector',
      profile: DEFAULT_RETRIEVAL_PROFILE,
    });
    expect(result.relevance_floor).toEqual({
      source: 'model',
      floor: { min_cosine: 0.25 },
      calibration: null,
    });
    // 0.3 clears the model's 0.25: every block passes, the profile's top 8 come back.
    expect(result.hits).toHaveLength(DEFAULT_RETRIEVAL_PROFILE.context_top_k);
    expect(inputs.embedder.texts).toEqual(['wibble']);
  });

  it('is measured again when the model changes, and a calibration of another model is refused', async () => {
    const first = await indexOf(new FakeEmbedder(0.3, '1'));
    const before = await relevanceFloorInUse(first.vectors, first.embedder);
    const second = await indexOf(new FakeEmbedder(0.5, '2'));
    expect(calibrationHolds(before.calibration!, second.vectors)).toBe(false);
    expect(() => (second.vectors.relevanceCalibration = before.calibration!)).toThrow(AppError);
    const after = await relevanceFloorInUse(second.vectors, second.embedder);
    expect(after.calibration?.model.model_version).toBe('2');
    expect(after.calibration?.min_cosine).toBeCloseTo(0.5 + CALIBRATION_MARGIN, 6);
    expect(second.vectors.relevanceCalibration).toEqual(after.calibration);
  });

  it('is measured again when the index doubles, and not for smaller changes', async () => {
    const inputs = await indexOf(new FakeEmbedder(0.3), 2);
    const first = (await relevanceFloorInUse(inputs.vectors, inputs.embedder)).calibration!;
    expect(first.rows).toBe(8);
    const grow = async (count: number) => {
      const documents = Array.from({ length: count }, (_, n) => ({
        block_id: `more-${inputs.vectors.size}-${n}`,
        note_id: 'more',
        text: `alpha more ${n}`,
      }));
      inputs.vectors.upsert(
        documents,
        await inputs.embedder.embed(documents.map((d) => d.text)),
        inputs.embedder.info,
      );
    };
    await grow(7);
    expect((await relevanceFloorInUse(inputs.vectors, inputs.embedder)).calibration).toBe(first);
    await grow(1);
    const second = (await relevanceFloorInUse(inputs.vectors, inputs.embedder)).calibration!;
    expect(second).not.toBe(first);
    expect(second.rows).toBe(16);
  });

  it('is stored with the index and read back without measuring again', async () => {
    const inputs = await indexOf(new FakeEmbedder(0.3));
    const measured = (await relevanceFloorInUse(inputs.vectors, inputs.embedder)).calibration!;
    const stored: unknown = JSON.parse(JSON.stringify({ relevance_calibration: measured }));
    const segments = ['alpha', 'bravo', 'charlie', 'delta'].map((note) => ({
      note_id: note,
      vectors: inputs.vectors.noteSegment(note)!,
    }));
    const reloaded = VectorIndex.fromSegments(inputs.embedder.info, segments);
    const restored = parseCalibration((stored as { relevance_calibration: unknown }).relevance_calibration);
    expect(restored).toEqual(measured);
    reloaded.relevanceCalibration = restored;
    const embedder = new FakeEmbedder(0.3);
    const result = await hybridSearch({
      fullText: inputs.fullText,
      vectors: reloaded,
      embedder,
      query: 'glorp',
      mode: 'vector',
      profile: DEFAULT_RETRIEVAL_PROFILE,
    });
    expect(result.hits).toEqual([]);
    expect(result.relevance_floor?.calibration).toEqual(measured);
    expect(embedder.texts).toEqual(['glorp']);
    expect(parseCalibration({ min_cosine: 'high' })).toBeUndefined();
    expect(parseCalibration(undefined)).toBeUndefined();
  });

  it('is measured into the index as a build ends, unless the model has a floor of its own', async () => {
    const own = await indexOf(new FakeEmbedder(0.3, '1', { min_cosine: 0.25 }));
    await calibrateIndex(own.vectors, own.embedder);
    expect(own.vectors.relevanceCalibration).toBeUndefined();
    expect(own.embedder.texts).toEqual([]);
    const none = await indexOf(new FakeEmbedder(0.3));
    await calibrateIndex(none.vectors, none.embedder);
    expect(none.vectors.relevanceCalibration?.min_cosine).toBeCloseTo(0.32, 6);
    const aborted = await indexOf(new FakeEmbedder(0.3));
    const controller = new AbortController();
    controller.abort();
    const slow: Embedder = {
      info: aborted.embedder.info,
      embed: (_texts, options) => Promise.reject(options?.signal?.reason as Error),
    };
    await expect(calibrateIndex(aborted.vectors, slow, { signal: controller.signal })).rejects.toThrow();
    expect(aborted.vectors.relevanceCalibration).toBeUndefined();
  });

  it('sets no floor on a notebook too small to measure, and embeds no probes for it', async () => {
    const embedder = new FakeEmbedder(0.3);
    const { vectors } = await indexOf(embedder, 1);
    expect(vectors.size).toBeLessThan(CALIBRATION_MIN_ROWS);
    expect(await relevanceFloorInUse(vectors, embedder)).toEqual({
      source: 'none',
      floor: null,
      calibration: null,
    });
    expect(await calibrateRelevance(vectors, embedder)).toBeUndefined();
    expect(embedder.texts).toEqual([]);
  });

  it('shares one measurement between concurrent searches, and measures again after a failure', async () => {
    const embedder = new FakeEmbedder(0.3);
    const inputs = await indexOf(embedder);
    const [a, b] = await Promise.all([
      relevanceFloorInUse(inputs.vectors, embedder),
      relevanceFloorInUse(inputs.vectors, embedder),
    ]);
    expect(a.calibration).toBe(b.calibration);
    expect(embedder.texts).toHaveLength(CALIBRATION_PROBES);

    const failing = await indexOf(new FakeEmbedder(0.3));
    const broken: Embedder = {
      info: failing.embedder.info,
      embed: () => Promise.reject(new Error('model crashed')),
    };
    await expect(relevanceFloorInUse(failing.vectors, broken)).rejects.toThrow('model crashed');
    expect(failing.vectors.relevanceCalibration).toBeUndefined();
    expect((await relevanceFloorInUse(failing.vectors, failing.embedder)).source).toBe('calibrated');
  });

  it('rejects an aborted search after measuring, and keeps the measurement', async () => {
    const inputs = await indexOf(new FakeEmbedder(0.3));
    const controller = new AbortController();
    const measuring = relevanceFloorInUse(inputs.vectors, inputs.embedder, { signal: controller.signal });
    controller.abort();
    await expect(measuring).rejects.toThrow();
    expect(inputs.vectors.relevanceCalibration?.min_cosine).toBeCloseTo(0.32, 6);
  });
});
