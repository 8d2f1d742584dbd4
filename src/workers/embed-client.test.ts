import * as Comlink from 'comlink';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../contracts';
import {
  localOnlySource,
  tinyModelSpec,
  TINY_CROSS_ENCODER_ID,
  TINY_MODEL_ID,
  writeTinyCrossEncoder,
  writeTinyEmbeddingModel,
} from '../retrieval/__fixtures__/tiny-model';
import type { ModelLoadProgress } from '../models/transformers';
import { TransformersEmbedder, type TransformersEmbedderConfig } from '../retrieval/transformers-embedder';
import { TransformersReranker, type TransformersRerankerConfig } from '../retrieval/transformers-reranker';
import { createEmbedWorkerClient, type EmbedWorkerClient } from './embed-client';
import { createEmbedWorkerApi } from './embed-worker-api';

/**
 * The embed worker's API and the page-side client, talking through Comlink
 * over a MessageChannel (Node has no module workers): the same serialisation
 * as a real worker: vectors transferred, progress through a Comlink proxy,
 * errors as AppError.
 */

let root: string;
let config: TransformersEmbedderConfig;
let client: EmbedWorkerClient;
/** One channel per started "worker"; port1 is the worker's side. */
const workers: MessageChannel[] = [];

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'notes-agent-embed-worker-'));
  await writeTinyEmbeddingModel(root, TINY_MODEL_ID);
  await writeTinyCrossEncoder(root);
  config = { model: tinyModelSpec(), source: localOnlySource(root), batch_size: 3 };
  client = createEmbedWorkerClient({
    createWorker: () => {
      const channel = new MessageChannel();
      workers.push(channel);
      Comlink.expose(createEmbedWorkerApi(), channel.port1);
      // A port has the Worker surface Comlink uses; terminate closes both ends.
      const terminate = (): void => {
        channel.port1.close();
        channel.port2.close();
      };
      return Object.assign(channel.port2, { terminate }) as unknown as Worker;
    },
  });
});

afterAll(async () => {
  client.terminate();
  for (const channel of workers) channel.port1.close();
  await rm(root, { recursive: true, force: true });
});

describe('embed worker client over Comlink', () => {
  it('loads with progress, and embeds exactly what the in-thread embedder gives', async () => {
    const progress: ModelLoadProgress[] = [];
    const embedder = await client.load(config, { onProgress: (event) => progress.push(event) });
    // Progress calls cross as messages; the ready event can land just after the load settles.
    await expect.poll(() => progress.at(-1)?.phase).toBe('ready');
    expect(progress.some((event) => event.file === 'onnx/model.onnx')).toBe(true);
    expect(workers).toHaveLength(1);

    const direct = await TransformersEmbedder.load(config);
    const texts = ['lock ordering breaks circular wait', '机器学习模型', 'mixed 中文 text', 'four', 'five'];
    const viaWorker = await embedder.embed(texts);
    const inThread = await direct.embed(texts);
    expect(embedder.info).toEqual(direct.info);
    expect(viaWorker.map((vector) => [...vector])).toEqual(inThread.map((vector) => [...vector]));
    expect(viaWorker[0]).toBeInstanceOf(Float32Array);
    const [query] = await embedder.forQueries().embed(['lock ordering']);
    expect(query).toHaveLength(32);
    await direct.dispose();
  });

  it('aborts between batches', async () => {
    const embedder = await client.load(config);
    const controller = new AbortController();
    const texts = Array.from({ length: 30 }, (_, i) => `text ${i}`);
    const embedding = embedder.embed(texts, { signal: controller.signal });
    controller.abort();
    await expect(embedding).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('delivers load failures as AppError with their code', async () => {
    const error = await client.load({ ...config, source: localOnlySource(join(root, 'nowhere')) }).then(
      () => undefined,
      (reason: unknown) => reason,
    );
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({
      code: 'EMBEDDING_MODEL_UNAVAILABLE',
      details: { reason: 'missing_files' },
    });
    // The worker is still usable.
    const embedder = await client.load(config);
    expect(await embedder.embed(['still works'])).toHaveLength(1);
  });

  it('starts a fresh worker after one dies, which reloads the model the request names', async () => {
    const embedder = await client.load(config);
    const [before] = await embedder.embed(['survives a worker restart']);
    const started = workers.length;
    // The browser killed the worker: the client sees an error event.
    workers.at(-1)?.port2.dispatchEvent(new Event('error'));
    const [after] = await embedder.embed(['survives a worker restart']);
    expect(workers).toHaveLength(started + 1);
    expect([...(after ?? [])]).toEqual([...(before ?? [])]);
  });

  it('hosts the cross-encoder beside the embedder: the same scores as in-thread, and it survives a restart', async () => {
    const rerankerConfig: TransformersRerankerConfig = {
      model: {
        model_id: TINY_CROSS_ENCODER_ID,
        label: 'Tiny cross-encoder (generated)',
        languages: ['en'],
        revision: 'main',
        max_tokens: 512,
        default_dtype: { webgpu: 'fp32', wasm: 'fp32' },
        approx_download_mb: { fp32: 0.4 },
      },
      source: localOnlySource(root),
    };
    const progress: ModelLoadProgress[] = [];
    const reranker = await client.loadReranker(rerankerConfig, {
      onProgress: (event) => progress.push(event),
    });
    await expect.poll(() => progress.at(-1)?.phase).toBe('ready');
    const embedder = await client.load(config);
    const direct = await TransformersReranker.load(rerankerConfig);
    const texts = ['lock ordering breaks circular wait', 'green tea', '机器学习模型'];
    const expected = await direct.score('circular wait', texts);
    expect(await reranker.score('circular wait', texts)).toEqual(expected);
    expect(reranker.info).toEqual(direct.info);
    expect(reranker.loaded).toMatchObject({ dtype: 'fp32', device: 'cpu' });
    // Both models stay loaded: the embedder still answers.
    expect(await embedder.embed(['still here'])).toHaveLength(1);
    expect(await reranker.score('anything', [])).toEqual([]);

    // A restored reranker (a later session) loads on its first score, in a fresh worker.
    workers.at(-1)?.port2.dispatchEvent(new Event('error'));
    const restored = client.restoreReranker(rerankerConfig, reranker.loaded);
    expect(await restored.score('circular wait', texts)).toEqual(expected);
    await direct.dispose();
  });
});
