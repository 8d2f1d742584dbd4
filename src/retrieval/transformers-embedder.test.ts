import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../contracts';
import type { EmbeddingModelSource } from './embedding-models';
import {
  localOnlySource,
  tinyModelSpec,
  TINY_MODEL_ID,
  writeTinyEmbeddingModel,
} from './__fixtures__/tiny-model';
import type { ModelLoadProgress } from '../models/transformers';
import { HostedEmbedder, TransformersEmbedderHost } from './embedder-host';
import { toEmbeddingModelError } from './model-load-errors';
import {
  defaultEnvironment,
  TransformersEmbedder,
  type EmbedderEnvironment,
  type TransformersEmbedderConfig,
} from './transformers-embedder';
import { VectorIndex } from './vector-index';

/**
 * The real loading code (transformers.js, onnxruntime-node) on a tiny model the
 * test writes itself, with remote models disabled unless a test serves the
 * files from a local HTTP server.
 */

let root: string;
let modelsA: string;
let modelsB: string;
let config: TransformersEmbedderConfig;

const cosine = (a: Float32Array, b: Float32Array): number =>
  a.reduce((sum, value, i) => sum + value * (b[i] ?? 0), 0);
const norm = (a: Float32Array): number => Math.sqrt(cosine(a, a));

async function errorOf(work: Promise<unknown>): Promise<unknown> {
  try {
    await work;
  } catch (error) {
    return error;
  }
  throw new Error('expected a rejection');
}

/** Counts pipeline() calls and the devices they asked for, around the real module. */
function countingEnvironment(): EmbedderEnvironment & { loads: Array<string | undefined> } {
  const loads: Array<string | undefined> = [];
  return {
    loads,
    hasWebGpu: defaultEnvironment.hasWebGpu,
    isNode: defaultEnvironment.isNode,
    async importTransformers() {
      const transformers = await defaultEnvironment.importTransformers();
      const pipeline = ((...args: Parameters<typeof transformers.pipeline>) => {
        loads.push(args[2]?.device as string | undefined);
        return transformers.pipeline(...args);
      }) as typeof transformers.pipeline;
      return { ...transformers, pipeline };
    },
  };
}

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'notes-agent-embed-'));
  modelsA = join(root, 'a');
  modelsB = join(root, 'b');
  await writeTinyEmbeddingModel(modelsA, TINY_MODEL_ID);
  // Same id and size, other weights: what a re-exported or retrained model looks like.
  await writeTinyEmbeddingModel(modelsB, TINY_MODEL_ID, { seed: 'tiny-v2' });
  config = { model: tinyModelSpec(), source: localOnlySource(modelsA), batch_size: 4 };
});

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('TransformersEmbedder on the generated tiny model', () => {
  let embedder: TransformersEmbedder;

  beforeAll(async () => {
    const started = performance.now();
    embedder = await TransformersEmbedder.load(config);
    const loadMs = performance.now() - started;
    const texts = Array.from(
      { length: 64 },
      (_, i) => `note ${i}: lock ordering breaks circular wait 死锁 ${i}`,
    );
    await embedder.embed(texts);
    const inferenceStarted = performance.now();
    await embedder.embed(texts);
    const inferenceMs = performance.now() - inferenceStarted;
    // eslint-disable-next-line no-console -- timings are part of this test's report
    console.log(
      `tiny model: load ${loadMs.toFixed(0)} ms (first, includes importing transformers.js; ` +
        `embedder.load_ms ${embedder.loaded.load_ms}), 64 texts in ${inferenceMs.toFixed(1)} ms ` +
        `(${((inferenceMs / 64) * 1000).toFixed(0)} µs/text) on ${embedder.loaded.device}`,
    );
  });

  afterAll(async () => {
    await embedder.dispose();
  });

  it('reports the model it is, with a version derived from the loaded files', () => {
    expect(embedder.info).toMatchObject({ model_id: TINY_MODEL_ID, dimension: 32, normalization: 'l2' });
    expect(embedder.info.model_version).toMatch(/^main\.fp32\.[0-9a-f]{16}$/);
    expect(embedder.loaded).toMatchObject({ device: 'cpu', dtype: 'fp32' });
  });

  it('gives one L2-normalised vector of the declared dimension per text, in order', async () => {
    const texts = ['Deadlock needs four conditions', '机器学习模型的训练', 'mixed 中文 and English', ''];
    const vectors = await embedder.embed(texts);
    expect(vectors).toHaveLength(texts.length);
    for (const vector of vectors.slice(0, 3)) {
      expect(vector).toBeInstanceOf(Float32Array);
      expect(vector).toHaveLength(32);
      expect(norm(vector)).toBeCloseTo(1, 5);
    }
    // Only special tokens: a zero vector (similar to nothing), never NaN.
    expect([...(vectors[3] ?? [])].every((value) => value === 0)).toBe(true);
    const [again] = await embedder.embed([texts[1] ?? '']);
    expect([...(again ?? [])]).toEqual([...(vectors[1] ?? [])]);
  });

  it('scores similar texts above unrelated ones, in English and in Chinese', async () => {
    const [en, enNear, enFar, zh, zhNear, zhFar] = await embedder.embed([
      'the scheduler picks the next task to run',
      'which task does the scheduler run next',
      'bread recipe with rice and water',
      '机器学习模型需要大量数据训练',
      '训练机器学习的模型需要数据',
      '今天天气很好，我们去公园散步',
    ]);
    if (!en || !enNear || !enFar || !zh || !zhNear || !zhFar) throw new Error('missing vectors');
    expect(cosine(en, enNear)).toBeGreaterThan(cosine(en, enFar) + 0.2);
    expect(cosine(zh, zhNear)).toBeGreaterThan(cosine(zh, zhFar) + 0.2);
    // Word pieces share trigrams: an inflected word stays close.
    const [word, inflected, other] = await embedder.embed(['schedule', 'scheduler', 'coffee']);
    if (!word || !inflected || !other) throw new Error('missing vectors');
    expect(cosine(word, inflected)).toBeGreaterThan(cosine(word, other));
  });

  it('embeds in batches of batch_size and checks the signal between them', async () => {
    const texts = Array.from({ length: 10 }, (_, i) => `text number ${i} about 数据`);
    const batched = await embedder.embed(texts);
    const oneByOne = await Promise.all(texts.map(async (text) => (await embedder.embed([text]))[0]));
    batched.forEach((vector, i) => {
      const single = oneByOne[i];
      if (!single) throw new Error('missing vector');
      expect(cosine(vector, single)).toBeCloseTo(1, 5);
    });

    // Abort once two batches (of 4) have run: the third never starts.
    const controller = new AbortController();
    const signal = controller.signal;
    let checks = 0;
    const check = signal.throwIfAborted.bind(signal);
    signal.throwIfAborted = () => {
      checks += 1;
      if (checks === 4) controller.abort();
      check();
    };
    const error = await errorOf(embedder.embed(texts, { signal }));
    expect(error).toMatchObject({ name: 'AbortError' });
    // One check on entry, then one before each batch: the abort came before batch 3.
    expect(checks).toBe(4);
  });

  it('applies the query prefix only to queries (forQueries, or input: query)', async () => {
    const prefixed = await TransformersEmbedder.load({
      ...config,
      model: tinyModelSpec({ query_prefix: 'query: ', passage_prefix: 'passage: ' }),
    });
    try {
      const text = 'lock ordering';
      const [passage] = await prefixed.embed([text]);
      const [query] = await prefixed.forQueries().embed([text]);
      const [queryInput] = await prefixed.embed([text], { input: 'query' });
      const [plainQuery] = await embedder.embed(['query: lock ordering']);
      if (!passage || !query || !queryInput || !plainQuery) throw new Error('missing vectors');
      expect([...query]).toEqual([...queryInput]);
      expect([...query]).toEqual([...plainQuery]);
      expect(cosine(query, passage)).toBeLessThan(0.999);
      // The prefixes are part of how vectors are made, so of the version.
      expect(prefixed.info.model_version).not.toBe(embedder.info.model_version);
      expect(prefixed.forQueries().info).toEqual(prefixed.info);
    } finally {
      await prefixed.dispose();
    }
  });
});

describe('loading', () => {
  it('reports download and load progress through the callback, ending with ready', async () => {
    const events: ModelLoadProgress[] = [];
    const embedder = await TransformersEmbedder.load(config, { onProgress: (event) => events.push(event) });
    await embedder.dispose();
    expect(events.length).toBeGreaterThan(2);
    expect(events.map((event) => event.file)).toContain('onnx/model.onnx');
    expect(events.some((event) => event.phase === 'download')).toBe(true);
    expect(events.some((event) => event.phase === 'initialize')).toBe(true);
    const last = events.at(-1);
    expect(last).toMatchObject({ phase: 'ready', file: null, percent: 100 });
    expect(last?.total).toBeGreaterThan(100_000);
    for (const event of events) {
      if (event.total !== null) expect(event.loaded).toBeLessThanOrEqual(event.total);
      if (event.percent !== null) expect(event.percent).toBeGreaterThanOrEqual(0);
    }
    expect(events.filter((event) => event.phase === 'ready')).toHaveLength(1);
  });

  it('fails with EMBEDDING_MODEL_UNAVAILABLE when the model folder is missing and remote models are off', async () => {
    const error = await errorOf(
      TransformersEmbedder.load({ ...config, source: localOnlySource(join(root, 'nowhere')) }),
    );
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({
      code: 'EMBEDDING_MODEL_UNAVAILABLE',
      details: { model_id: TINY_MODEL_ID, reason: 'missing_files' },
    });
    expect((error as AppError).message).toMatch(/not available/);
  });

  it('fails with EMBEDDING_MODEL_UNAVAILABLE, not a TypeError, when the model host is unreachable', async () => {
    const offline: EmbeddingModelSource = {
      allow_local_models: false,
      allow_remote_models: true,
      // Port 9 (discard) is closed: a refused connection, like being offline.
      remote_host: 'http://127.0.0.1:9/',
      use_cache: false,
    };
    const error = await errorOf(TransformersEmbedder.load({ ...config, source: offline }));
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({ code: 'EMBEDDING_MODEL_UNAVAILABLE', details: { reason: 'network' } });
  });

  it('classifies failures without leaking raw errors', () => {
    const reasonOf = (error: unknown): unknown =>
      (toEmbeddingModelError(error, 'm') as AppError).details.reason;
    expect(reasonOf(new TypeError('Failed to fetch'))).toBe('network');
    expect(reasonOf(new TypeError('fetch failed'))).toBe('network');
    expect(reasonOf(Object.assign(new Error('x'), { name: 'ModelFileNotFoundError' }))).toBe('missing_files');
    expect(reasonOf(new TypeError("Cannot read properties of undefined (reading 'dims')"))).toBe(
      'load_failed',
    );
    const abort = new DOMException('aborted', 'AbortError');
    expect(toEmbeddingModelError(abort, 'm')).toBe(abort);
  });

  it('downloads from a self-hosted model host (remote_host + remote_path_template)', async () => {
    const requests: string[] = [];
    const server: Server = createServer((request, response) => {
      const url = request.url ?? '';
      requests.push(url);
      const prefix = `/mirror/${TINY_MODEL_ID}/v1/`;
      if (!url.startsWith(prefix)) {
        response.writeHead(404).end();
        return;
      }
      readFile(join(modelsA, TINY_MODEL_ID, url.slice(prefix.length))).then(
        (body) => response.writeHead(200, { 'content-length': body.byteLength }).end(body),
        () => response.writeHead(404).end(),
      );
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const hosted = await TransformersEmbedder.load({
        ...config,
        model: tinyModelSpec({ revision: 'v1' }),
        source: {
          allow_local_models: false,
          allow_remote_models: true,
          remote_host: `http://127.0.0.1:${port}/`,
          remote_path_template: 'mirror/{model}/{revision}/',
          // Node reads ONNX files from disk, so downloads go through the file cache.
          use_cache: true,
          cache_dir: join(root, 'cache'),
        },
      });
      const local = await TransformersEmbedder.load(config);
      const [fromHost] = await hosted.embed(['self-hosted weights']);
      const [fromDisk] = await local.embed(['self-hosted weights']);
      expect([...(fromHost ?? [])]).toEqual([...(fromDisk ?? [])]);
      expect(requests).toContain(`/mirror/${TINY_MODEL_ID}/v1/onnx/model.onnx`);
      expect(hosted.info.model_version.startsWith('v1.fp32.')).toBe(true);
      await Promise.all([hosted.dispose(), local.dispose()]);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('rejects a model whose vectors do not have the declared dimension', async () => {
    const error = await errorOf(
      TransformersEmbedder.load({ ...config, model: tinyModelSpec({ dimension: 64 }) }),
    );
    expect(error).toMatchObject({
      code: 'EMBEDDING_DIMENSION_MISMATCH',
      details: { expected: 64, found: 32 },
    });
  });

  it('rejects with an AbortError when the load is aborted', async () => {
    const controller = new AbortController();
    const loading = TransformersEmbedder.load(config, { signal: controller.signal });
    controller.abort();
    expect(await errorOf(loading)).toMatchObject({ name: 'AbortError' });
    const already = await errorOf(TransformersEmbedder.load(config, { signal: AbortSignal.abort() }));
    expect(already).toMatchObject({ name: 'AbortError' });
  });

  it('picks WebGPU when an adapter exists, falls back to WASM when it fails, uses the default (CPU) in Node', async () => {
    const attempts: Array<string | undefined> = [];
    const real = await defaultEnvironment.importTransformers();
    const browserLike: EmbedderEnvironment = {
      hasWebGpu: async () => true,
      isNode: () => false,
      async importTransformers() {
        const pipeline = ((...args: Parameters<typeof real.pipeline>) => {
          const device = args[2]?.device as string | undefined;
          attempts.push(device);
          // onnxruntime-node has no WebGPU here; stand in for a browser whose adapter fails.
          if (device === 'webgpu') return Promise.reject(new Error('no available backend found'));
          return real.pipeline(args[0], args[1], { ...args[2], device: undefined });
        }) as typeof real.pipeline;
        return { ...real, pipeline };
      },
    };
    const embedder = await TransformersEmbedder.load(config, {}, browserLike);
    expect(attempts).toEqual(['webgpu', 'wasm']);
    expect(embedder.loaded.device).toBe('wasm');
    await embedder.dispose();

    const node = countingEnvironment();
    const inNode = await TransformersEmbedder.load(config, {}, node);
    expect(node.loads).toEqual([undefined]);
    expect(inNode.loaded.device).toBe('cpu');
    await inNode.dispose();
  });
});

describe('model identity', () => {
  it('changes info when the model changes, so the vector index refuses the other model (INDEX_MODEL_MISMATCH)', async () => {
    const first = await TransformersEmbedder.load(config);
    const retrained = await TransformersEmbedder.load({ ...config, source: localOnlySource(modelsB) });
    const again = await TransformersEmbedder.load(config);
    try {
      expect(again.info).toEqual(first.info);
      expect(retrained.info.model_id).toBe(first.info.model_id);
      expect(retrained.info.model_version).not.toBe(first.info.model_version);
      const [a] = await first.embed(['lock ordering']);
      const [b] = await retrained.embed(['lock ordering']);
      expect(cosine(a ?? new Float32Array(), b ?? new Float32Array())).toBeLessThan(0.9);

      const index = new VectorIndex(first.info);
      index.upsert(
        [{ block_id: 'b1', note_id: 'n1' }],
        await first.embed(['lock ordering breaks circular wait']),
        first.info,
      );
      expect(await index.query(again, 'lock ordering', 1)).toMatchObject([{ block_id: 'b1' }]);
      const mismatch = await errorOf(index.query(retrained, 'lock ordering', 1));
      expect(mismatch).toMatchObject({
        code: 'INDEX_MODEL_MISMATCH',
        details: { differences: ['model_version'] },
      });
      expect(() =>
        index.upsert([{ block_id: 'b2', note_id: 'n1' }], [new Float32Array(32)], retrained.info),
      ).toThrowError(expect.objectContaining({ code: 'INDEX_MODEL_MISMATCH' }) as Error);
    } finally {
      await Promise.all([first.dispose(), retrained.dispose(), again.dispose()]);
    }
  });
});

describe('TransformersEmbedderHost and HostedEmbedder (the worker and its proxy, in one thread)', () => {
  it('loads once, reloads when a request names another model, and gives the in-thread vectors', async () => {
    const environment = countingEnvironment();
    const host = new TransformersEmbedderHost(environment);
    const progress: ModelLoadProgress[] = [];
    const embedder = await HostedEmbedder.load(host, config, { onProgress: (event) => progress.push(event) });
    expect(progress.at(-1)).toMatchObject({ phase: 'ready' });
    const direct = await TransformersEmbedder.load(config);
    const texts = Array.from({ length: 9 }, (_, i) => `hosted text ${i} 数据`);
    const hosted = await embedder.embed(texts);
    const inThread = await direct.embed(texts);
    expect(hosted.map((vector) => [...vector])).toEqual(inThread.map((vector) => [...vector]));
    expect(embedder.info).toEqual(direct.info);
    expect(environment.loads).toHaveLength(1);

    // Another model: the host swaps; the first embedder's next call swaps back.
    const other = await HostedEmbedder.load(host, { ...config, source: localOnlySource(modelsB) });
    expect(other.info.model_version).not.toBe(embedder.info.model_version);
    expect(environment.loads).toHaveLength(2);
    await embedder.embed(['back to the first model']);
    expect(environment.loads).toHaveLength(3);

    // Aborts between batches on the caller's side.
    const controller = new AbortController();
    controller.abort();
    expect(await errorOf(embedder.embed(texts, { signal: controller.signal }))).toMatchObject({
      name: 'AbortError',
    });
    await host.unload();
    await direct.dispose();
  });

  it('passes load failures through as AppError and tries again on the next request', async () => {
    const host = new TransformersEmbedderHost();
    const missing = { ...config, source: localOnlySource(join(root, 'nowhere')) };
    expect(await errorOf(HostedEmbedder.load(host, missing))).toMatchObject({
      code: 'EMBEDDING_MODEL_UNAVAILABLE',
    });
    const embedder = await HostedEmbedder.load(host, config);
    expect(await embedder.embed(['works now'])).toHaveLength(1);
    await host.unload();
  });
});
