import { describe, expect, it } from 'vitest';
import { AppError } from '../../contracts/errors';
import type { AsrLoadProgress } from '../asr-engine';
import type { AsrProfile } from '../asr-models';
import { TransformersAsrEngine } from './transformers-asr-engine';
import type {
  AsrPipeline,
  AsrPipelineCallOptions,
  AsrPipelineLoadOptions,
  TransformersAsrLibrary,
  TransformersEnvLike,
} from './transformers-library';

/**
 * What the Node run on the tiny model cannot reach: the WebGPU path and its
 * WASM fallback, the environment flags, an aborted load, English-only models
 * and error wording. The library double follows transformers.js' shapes:
 * `pipeline(task, model, { device, dtype, progress_callback })` resolving to a
 * callable pipeline with `model.generation_config`, `processor` and `dispose`,
 * whose output is `{ text, chunks: [{ text, timestamp: [start, end | null] }] }`.
 */

const PROFILE: AsrProfile = {
  profile_id: 'default',
  model_id: 'onnx-community/whisper-tiny',
  dtype: { webgpu: 'fp32', wasm: 'q8' },
};

interface Double {
  library: TransformersAsrLibrary;
  env: TransformersEnvLike;
  loads: Array<{ model: string } & Omit<AsrPipelineLoadOptions, 'progress_callback'>>;
  calls: AsrPipelineCallOptions[];
  disposed: string[];
}

function libraryDouble(
  behaviour: {
    failOn?: (options: AsrPipelineLoadOptions) => Error | undefined;
    loadGate?: Promise<void>;
    multilingual?: boolean;
    failCall?: Error;
  } = {},
): Double {
  const env: TransformersEnvLike = {
    localModelPath: '/models/',
    allowLocalModels: false,
    allowRemoteModels: true,
    remoteHost: 'https://huggingface.co/',
    useBrowserCache: true,
    cacheDir: null,
    backends: { onnx: { wasm: {} } },
  };
  const double: Double = {
    library: { env, pipeline: async () => undefined as never },
    env,
    loads: [],
    calls: [],
    disposed: [],
  };
  double.library.pipeline = async (_task, model, options) => {
    const { progress_callback, ...rest } = options;
    double.loads.push({ model, ...rest });
    for (const file of ['config.json', 'onnx/encoder_model.onnx']) {
      progress_callback({ status: 'initiate', name: model, file });
      progress_callback({ status: 'progress', name: model, file, progress: 50, loaded: 5, total: 10 });
      progress_callback({ status: 'progress_total', name: model, progress: 25, loaded: 5, total: 20 });
      progress_callback({ status: 'done', name: model, file });
    }
    await behaviour.loadGate;
    const failure = behaviour.failOn?.(options);
    if (failure) throw failure;
    progress_callback({ status: 'ready' });
    const pipeline = async (audio: Float32Array, call: AsrPipelineCallOptions) => {
      double.calls.push({ ...call, logits_processor: [] });
      if (behaviour.failCall) throw behaviour.failCall;
      const seconds = audio.length / 16_000;
      return call.return_timestamps === 'word'
        ? {
            text: ' Hi there',
            chunks: [
              { text: ' Hi', timestamp: [0.1, 0.4] as [number, number] },
              { text: ' there', timestamp: [0.4, 0.9] as [number, number] },
            ],
          }
        : {
            text: ' Hi there',
            chunks: [{ text: ' Hi there', timestamp: [0, seconds > 1 ? null : 0.9] as [number, null] }],
          };
    };
    return Object.assign(pipeline, {
      model: {
        generation_config:
          behaviour.multilingual === false ? { is_multilingual: false } : { is_multilingual: true },
        generate: async () => {
          throw new Error('not used');
        },
      },
      processor: async () => ({ input_features: null }),
      dispose: async () => {
        double.disposed.push(model);
      },
    }) satisfies AsrPipeline;
  };
  return double;
}

const open = () => new AbortController().signal;
const samples = (seconds: number) => new Float32Array(seconds * 16_000).fill(0.01);

describe('TransformersAsrEngine wiring (library double)', () => {
  it('configures the environment, picks WebGPU with its dtype, and passes progress on per file', async () => {
    const double = libraryDouble();
    const asr = new TransformersAsrEngine({
      loadLibrary: async () => double.library,
      hasWebGpu: async () => true,
      environment: {
        localModelPath: '/models/',
        allowRemoteModels: false,
        remoteHost: 'https://mirror.example/',
        wasmPaths: '/ort/',
        useBrowserCache: true,
      },
    });
    const progress: AsrLoadProgress[] = [];
    await asr.load(PROFILE, { signal: open(), onProgress: (update) => progress.push(update) });

    expect(double.env).toMatchObject({
      localModelPath: '/models/',
      allowLocalModels: true,
      allowRemoteModels: false,
      remoteHost: 'https://mirror.example/',
      useBrowserCache: true,
      backends: { onnx: { wasm: { wasmPaths: '/ort/' } } },
    });
    expect(double.loads).toEqual([{ model: 'onnx-community/whisper-tiny', device: 'webgpu', dtype: 'fp32' }]);
    expect(progress.map((update) => update.status)).toEqual([
      'initiate',
      'progress',
      'done',
      'initiate',
      'progress',
      'done',
      'ready',
    ]);
    expect(progress[1]).toEqual({
      status: 'progress',
      file: 'config.json',
      progress: 50,
      loaded: 5,
      total: 10,
    });
    expect(asr.loaded).toMatchObject({ device: 'webgpu', dtype: 'fp32' });
  });

  it('falls back from a WebGPU that fails to the CPU/WASM back end with its own dtype', async () => {
    const double = libraryDouble({
      failOn: (options) =>
        options.device === 'webgpu' ? new Error('no available backend: webgpu') : undefined,
    });
    const asr = new TransformersAsrEngine({
      loadLibrary: async () => double.library,
      hasWebGpu: async () => true,
    });
    await asr.load(PROFILE, { signal: open() });
    // In Node the non-GPU back end is onnxruntime-node's CPU; in a browser it is WASM.
    expect(double.loads.map((load) => [load.device, load.dtype])).toEqual([
      ['webgpu', 'fp32'],
      ['cpu', 'q8'],
    ]);
    expect(asr.loaded).toMatchObject({ device: 'cpu', dtype: 'q8' });
    // The fallback sticks: the next load (the worker loads before every window) does not retry WebGPU.
    await asr.load(PROFILE, { signal: open() });
    expect(double.loads).toHaveLength(2);
  });

  it('calls the pipeline with timestamps, language and task; word timestamps take a second pass', async () => {
    const double = libraryDouble();
    const asr = new TransformersAsrEngine({ loadLibrary: async () => double.library, device: 'wasm' });
    await asr.load(PROFILE, { signal: open() });
    const result = await asr.transcribeWindow(samples(30), {
      language: 'ZH',
      wordTimestamps: true,
      signal: open(),
    });

    expect(
      double.calls.map(({ return_timestamps, language, task }) => ({ return_timestamps, language, task })),
    ).toEqual([
      { return_timestamps: true, language: 'zh', task: 'transcribe' },
      { return_timestamps: 'word', language: 'zh', task: 'transcribe' },
    ]);
    expect(result).toEqual({
      language: 'zh',
      chunks: [{ text: ' Hi there', timestamp: [0, null] }],
      words: [
        { text: ' Hi', timestamp: [0.1, 0.4] },
        { text: ' there', timestamp: [0.4, 0.9] },
      ],
    });
  });

  it('passes neither language nor task to an English-only model, and reports English', async () => {
    const double = libraryDouble({ multilingual: false });
    const asr = new TransformersAsrEngine({ loadLibrary: async () => double.library, device: 'wasm' });
    await asr.load(PROFILE, { signal: open() });
    const result = await asr.transcribeWindow(samples(1), {
      language: null,
      wordTimestamps: false,
      signal: open(),
    });
    expect(double.calls[0]).toEqual({ return_timestamps: true, logits_processor: [] });
    expect(result.language).toBe('en');
  });

  it('an aborted load rejects at once; the download goes on and the next load of the profile reuses it', async () => {
    let release = () => undefined as void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const double = libraryDouble({ loadGate: gate });
    const asr = new TransformersAsrEngine({ loadLibrary: async () => double.library, device: 'wasm' });
    const controller = new AbortController();
    const progress: AsrLoadProgress[] = [];
    const first = asr.load(PROFILE, {
      signal: controller.signal,
      onProgress: (update) => progress.push(update),
    });
    await new Promise((resolve) => setTimeout(resolve, 0));
    controller.abort();
    await expect(first).rejects.toMatchObject({ name: 'AbortError' });
    const seen = progress.length;

    release();
    await asr.load(PROFILE, { signal: open() });
    expect(double.loads).toHaveLength(1);
    expect(progress).toHaveLength(seen); // nothing reported to the aborted caller afterwards
    expect(asr.loaded?.model_id).toBe(PROFILE.model_id);
  });

  it('switching profiles frees the previous model', async () => {
    const double = libraryDouble();
    const asr = new TransformersAsrEngine({ loadLibrary: async () => double.library, device: 'wasm' });
    await asr.load(PROFILE, { signal: open() });
    await asr.load(
      { ...PROFILE, profile_id: 'base', model_id: 'onnx-community/whisper-base' },
      { signal: open() },
    );
    expect(double.disposed).toEqual(['onnx-community/whisper-tiny']);
    await asr.dispose();
    expect(double.disposed).toEqual(['onnx-community/whisper-tiny', 'onnx-community/whisper-base']);
  });

  it('maps failures to contract codes with human messages and none of the library text', async () => {
    const missing = libraryDouble({
      failOn: () =>
        Object.assign(new Error('file was not found locally at "/secret/models/x"'), {
          name: 'ModelFileNotFoundError',
        }),
    });
    const offline = new TransformersAsrEngine({ loadLibrary: async () => missing.library, device: 'wasm' });
    const notThere = (await offline
      .load(PROFILE, { signal: open() })
      .catch((error: unknown) => error)) as AppError;
    expect(notThere).toBeInstanceOf(AppError);
    expect(notThere.code).toBe('TRANSCRIPTION_MODEL_UNAVAILABLE');
    expect(notThere.message).toBe(
      'The speech recognition model "onnx-community/whisper-tiny" is not available: its files are not on this device and could not be downloaded.',
    );
    expect(JSON.stringify(notThere.toEnvelope())).not.toContain('secret');

    const noRuntime = new TransformersAsrEngine({
      loadLibrary: async () => {
        throw new TypeError('Failed to fetch dynamically imported module');
      },
    });
    await expect(noRuntime.load(PROFILE, { signal: open() })).rejects.toMatchObject({
      code: 'TRANSCRIPTION_MODEL_UNAVAILABLE',
      message: 'The speech recognition runtime (transformers.js) could not be loaded.',
    });

    const broken = libraryDouble({ failCall: new Error('ORT: bad_alloc at 0xdeadbeef') });
    const asr = new TransformersAsrEngine({ loadLibrary: async () => broken.library, device: 'wasm' });
    await asr.load(PROFILE, { signal: open() });
    const failed = (await asr
      .transcribeWindow(samples(2), { language: 'en', wordTimestamps: false, signal: open() })
      .catch((error: unknown) => error)) as AppError;
    expect(failed).toMatchObject({ code: 'TRANSCRIPTION_FAILED' });
    expect(failed.message).toBe('Speech recognition failed on this part of the audio (WebAssembly).');
    expect(JSON.stringify(failed.toEnvelope())).not.toContain('bad_alloc');
  });
});
