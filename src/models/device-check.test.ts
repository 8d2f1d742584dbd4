import { describe, expect, it } from 'vitest';
import {
  browserDeviceProbe,
  checkDevice,
  checkWebGpu,
  memoizedProbe,
  type DeviceProbe,
  type GpuAdapterLike,
} from './device-check';
import { WEBLLM_CATALOG, findCatalogEntry } from './model-catalog';

const GIB = 2 ** 30;
const MIB = 2 ** 20;

function adapter(
  options: { f16?: boolean; binding?: number; vendor?: string; architecture?: string } = {},
): GpuAdapterLike {
  const features = new Set(options.f16 === false ? [] : ['shader-f16']);
  return {
    features,
    limits: { maxBufferSize: 4 * GIB, maxStorageBufferBindingSize: options.binding ?? 2 * GIB },
    info: { vendor: options.vendor ?? 'apple', architecture: options.architecture ?? 'metal-3' },
  };
}

function probe(
  gpuAdapter: GpuAdapterLike | null | 'throws' | undefined,
  storage?: { quota?: number; usage?: number } | 'throws',
  deviceMemoryGB?: number,
): DeviceProbe {
  return {
    ...(gpuAdapter !== undefined && {
      gpu: {
        requestAdapter: async () => {
          if (gpuAdapter === 'throws') throw new Error('adapter request failed');
          return gpuAdapter;
        },
      },
    }),
    ...(storage !== undefined && {
      storage: {
        estimate: async () => {
          if (storage === 'throws') throw new Error('no estimate');
          return storage;
        },
      },
    }),
    ...(deviceMemoryGB !== undefined && { deviceMemoryGB }),
  };
}

const qwenF16 = findCatalogEntry('Qwen2.5-1.5B-Instruct-q4f16_1-MLC')!;
const qwenF32 = findCatalogEntry('Qwen2.5-1.5B-Instruct-q4f32_1-MLC')!;
const hermes = findCatalogEntry('Hermes-3-Llama-3.1-8B-q4f32_1-MLC')!;
const plenty = { quota: 100 * GIB, usage: GIB };

describe('device check', () => {
  it('passes on a capable GPU with room to spare', async () => {
    const result = await checkDevice(probe(adapter(), plenty), qwenF16);
    expect(result).toMatchObject({
      ok: true,
      adapter: { shaderF16: true, label: 'apple / metal-3', fallback: false },
    });
    expect(result.ok && result.freeStorageBytes).toBe(99 * GIB);
  });

  it('says plainly when the browser has no WebGPU', async () => {
    const result = await checkDevice(probe(undefined, plenty), qwenF32);
    expect(result).toMatchObject({ ok: false, reason: 'no_webgpu', refusal: { code: 'no_webgpu' } });
    expect(!result.ok && result.message).toMatch(/does not offer WebGPU.*Chrome or Edge/);
  });

  it.each([null, 'throws'] as const)('reports no adapter when requestAdapter gives %s', async (answer) => {
    const result = await checkDevice(probe(answer, plenty), qwenF32);
    expect(result).toMatchObject({ ok: false, reason: 'no_adapter' });
    expect(!result.ok && result.message).toMatch(/no GPU is available/);
  });

  it('refuses a float16 model without shader-f16 and names the q4f32 twin (SwiftShader)', async () => {
    const swiftshader = adapter({ f16: false, binding: GIB, vendor: 'google', architecture: 'swiftshader' });
    const result = await checkDevice(probe(swiftshader, plenty), qwenF16);
    expect(result).toMatchObject({ ok: false, reason: 'no_shader_f16', adapter: { fallback: true } });
    expect(!result.ok && result.message).toContain('shader-f16');
    expect(!result.ok && result.message).toContain('Qwen2.5-1.5B-Instruct-q4f32_1-MLC');
    // The same facts as a code and parameters, for the UI to say in the reader's language.
    expect(!result.ok && result.refusal).toEqual({
      code: 'no_shader_f16',
      params: {
        model: qwenF16.displayName,
        feature: 'shader-f16',
        gpu: 'google / swiftshader',
        twin: 'Qwen2.5-1.5B-Instruct-q4f32_1-MLC',
      },
    });
    // …and the q4f32 model runs there.
    expect(await checkDevice(probe(swiftshader, plenty), qwenF32)).toMatchObject({ ok: true });
  });

  it('refuses a model needing bigger GPU buffers than the adapter allows', async () => {
    const model = { ...qwenF32, bufferSizeRequiredBytes: 256 * MIB };
    const result = await checkDevice(probe(adapter({ binding: 128 * MIB }), plenty), model);
    expect(result).toMatchObject({ ok: false, reason: 'insufficient_memory' });
    expect(!result.ok && result.message).toMatch(/256 MB.*128 MB/);
    expect(!result.ok && result.refusal).toEqual({
      code: 'buffer_too_small',
      params: { model: qwenF32.displayName, needed: '256 MB', allowed: '128 MB' },
    });
  });

  it('allows only low-resource models on a phone-class GPU', async () => {
    const phone = probe(adapter({ binding: 256 * MIB }), plenty);
    expect(await checkDevice(phone, hermes)).toMatchObject({
      ok: false,
      reason: 'insufficient_memory',
      refusal: { code: 'phone_class_gpu', params: { allowed: '256 MB' } },
    });
    expect(await checkDevice(phone, qwenF32)).toMatchObject({ ok: true }); // low_resource_required
  });

  it('uses navigator.deviceMemory only below its 8 GB cap', async () => {
    const small = await checkDevice(probe(adapter(), plenty, 4), hermes);
    expect(small).toMatchObject({ ok: false, reason: 'insufficient_memory' });
    expect(!small.ok && small.message).toMatch(/4 GB in total/);
    expect(!small.ok && small.refusal).toMatchObject({ code: 'device_memory', params: { total: '4 GB' } });
    expect(await checkDevice(probe(adapter(), plenty, 8), hermes)).toMatchObject({ ok: true });
    expect(await checkDevice(probe(adapter(), plenty, 4), qwenF32)).toMatchObject({ ok: true });
  });

  it('refuses a download that does not fit the storage quota', async () => {
    const result = await checkDevice(probe(adapter(), { quota: 1 * GIB, usage: 900 * MIB }), qwenF32);
    expect(result).toMatchObject({
      ok: false,
      reason: 'insufficient_storage',
      refusal: { code: 'insufficient_storage', params: { free: '124 MB' } },
    });
    expect(!result.ok && result.message).toMatch(
      /needs about .* of browser storage, but only 124 MB is free/,
    );
  });

  it('skips the storage check for a downloaded model or an unknown quota', async () => {
    const tiny = { quota: 10 * MIB, usage: 0 };
    expect(await checkDevice(probe(adapter(), tiny), qwenF32, { downloaded: true })).toMatchObject({
      ok: true,
    });
    expect(await checkDevice(probe(adapter()), qwenF32)).toMatchObject({ ok: true });
    expect(await checkDevice(probe(adapter(), 'throws'), qwenF32)).toMatchObject({ ok: true });
    expect(await checkDevice(probe(adapter(), {}), qwenF32)).toMatchObject({ ok: true });
  });

  it('checks WebGPU alone for models outside the catalog', async () => {
    expect(await checkWebGpu(probe(adapter()))).toMatchObject({ ok: true });
    expect(await checkWebGpu({})).toMatchObject({ ok: false, reason: 'no_webgpu' });
  });

  it('reads navigator when there is one', () => {
    expect(browserDeviceProbe(undefined)).toEqual({});
    const gpu = { requestAdapter: async () => null };
    const nav = { gpu, storage: { estimate: async () => ({}) }, deviceMemory: 4 } as unknown as Navigator;
    expect(browserDeviceProbe(nav)).toMatchObject({ gpu, deviceMemoryGB: 4 });
  });

  it('asks the browser once when a whole catalog is checked', async () => {
    let adapters = 0;
    let estimates = 0;
    const probe = memoizedProbe({
      gpu: {
        requestAdapter: async () => {
          adapters++;
          return {
            features: new Set<string>(),
            limits: { maxBufferSize: 2 ** 30, maxStorageBufferBindingSize: 2 ** 30 },
          };
        },
      },
      storage: {
        estimate: async () => {
          estimates++;
          return { quota: 2 ** 40, usage: 0 };
        },
      },
    });
    for (const entry of WEBLLM_CATALOG) await checkDevice(probe, entry);
    expect([adapters, estimates]).toEqual([1, 1]);
    expect(memoizedProbe({})).toEqual({});
  });
});
