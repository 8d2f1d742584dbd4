import { describe, expect, it } from 'vitest';
import { candidateDevices, loadOnFirstDevice, type TransformersDevice } from './devices';
import { configureEnvironment, type TransformersEnvLike } from './environment';

const browser = (gpu: boolean) => ({ hasWebGpu: async () => gpu, isNode: () => false });

describe('device choice', () => {
  it('tries WebGPU then WASM where an adapter exists, WASM alone where none does, the CPU in Node', async () => {
    expect(await candidateDevices('auto', browser(true))).toEqual(['webgpu', 'wasm']);
    expect(await candidateDevices('auto', browser(false))).toEqual(['wasm']);
    expect(await candidateDevices('auto', { hasWebGpu: async () => true, isNode: () => true })).toEqual([
      'cpu',
    ]);
    expect(await candidateDevices('wasm', browser(true))).toEqual(['wasm']);
    const throwing = { hasWebGpu: () => Promise.reject(new Error('probe failed')), isNode: () => false };
    expect(await candidateDevices('auto', throwing)).toEqual(['wasm']);
  });

  it('falls back from WebGPU only when the failure is the runtime', async () => {
    const tried: TransformersDevice[] = [];
    const attempt = async (device: TransformersDevice) => {
      tried.push(device);
      if (device === 'webgpu') throw new Error(tried.length === 1 ? 'runtime' : 'other');
      return device;
    };
    expect(await loadOnFirstDevice(['webgpu', 'wasm'], attempt, () => true)).toBe('wasm');
    expect(tried).toEqual(['webgpu', 'wasm']);

    tried.length = 0;
    await expect(loadOnFirstDevice(['webgpu', 'wasm'], attempt, () => false)).rejects.toThrow('runtime');
    expect(tried).toEqual(['webgpu']);
  });
});

describe('configureEnvironment', () => {
  it("sets a source's fields and puts the library's defaults back for the next source", () => {
    const env: TransformersEnvLike = {
      allowLocalModels: false,
      localModelPath: '/models/',
      allowRemoteModels: true,
      remoteHost: 'https://huggingface.co/',
      remotePathTemplate: '{model}/resolve/{revision}/',
      useBrowserCache: true,
      useFSCache: false,
      cacheDir: null,
      backends: { onnx: { wasm: { wasmPaths: undefined } } },
    };
    configureEnvironment(env, {
      allow_local_models: true,
      local_model_path: '/tiny/',
      allow_remote_models: false,
      remote_host: 'https://mirror.example/',
      wasm_paths: '/ort/',
      use_cache: false,
    });
    expect(env).toMatchObject({
      allowLocalModels: true,
      localModelPath: '/tiny/',
      allowRemoteModels: false,
      remoteHost: 'https://mirror.example/',
      useBrowserCache: false,
      backends: { onnx: { wasm: { wasmPaths: '/ort/' } } },
    });
    configureEnvironment(env, {});
    expect(env).toMatchObject({
      allowLocalModels: false,
      localModelPath: '/models/',
      allowRemoteModels: true,
      remoteHost: 'https://huggingface.co/',
      useBrowserCache: true,
      useFSCache: false,
      backends: { onnx: { wasm: { wasmPaths: undefined } } },
    });
  });
});
