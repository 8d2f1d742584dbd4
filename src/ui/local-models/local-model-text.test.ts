import { describe, expect, it } from 'vitest';
import type { LocalModelDto, LocalModelsDto } from '../../contracts/local-models';
import { deviceNotice, isDeviceWide, modelDescription, twinName } from './local-model-text';

function item(overrides: Partial<LocalModelDto>): LocalModelDto {
  return {
    model: 'm',
    display_name: 'M',
    family: 'qwen2.5',
    parameters_billions: 1.5,
    quantization: 'q4f32_1',
    download_size_bytes: 1,
    vram_bytes: 1,
    context_window: 4096,
    requires_shader_f16: false,
    f32_alternative: null,
    tool_calling: 'prompted',
    thinking: false,
    languages: { zh: 'good', en: 'good', note: 'English note' },
    cached: false,
    size_bytes: null,
    download_job_id: null,
    runnable: true,
    unavailable_reason: null,
    unavailable_message: null,
    ...overrides,
  };
}

describe('local model texts', () => {
  it('describes a model by its family, with the tiny caveat for the smallest ones', () => {
    expect(modelDescription(item({}))).toEqual([{ key: 'local.describe.qwen25' }]);
    expect(modelDescription(item({ family: 'qwen3', parameters_billions: 0.6 }))).toEqual([
      { key: 'local.describe.qwen3' },
      { key: 'local.describe.tiny' },
    ]);
    expect(modelDescription(item({ family: 'new-family' }))).toEqual([]);
  });

  it('names the device-wide reason once; a per-model reason is not device-wide', () => {
    const data = (reason: LocalModelDto['unavailable_reason']): LocalModelsDto => ({
      webgpu: { available: false, message: 'English text', adapter: null },
      items: [item({ runnable: false, unavailable_reason: reason })],
    });
    expect(deviceNotice(data('no_webgpu'), null)).toEqual({ key: 'local.notice.no_webgpu' });
    expect(deviceNotice(data('no_adapter'), null)).toEqual({ key: 'local.notice.no_adapter' });
    expect(deviceNotice(null, 'worker failed')).toEqual({ key: 'local.notice.workerUnavailable' });
    expect(
      deviceNotice({ webgpu: { available: true, message: null, adapter: 'GPU' }, items: [] }, null),
    ).toBeNull();
    expect(isDeviceWide('no_webgpu')).toBe(true);
    expect(isDeviceWide('insufficient_memory')).toBe(false);
    expect(isDeviceWide(null)).toBe(false);
  });
});

describe('twinName', () => {
  const catalog = [
    item({ model: 'SmolLM2-360M-Instruct-q4f32_1-MLC', display_name: 'SmolLM2 360M Instruct (q4f32)' }),
  ];

  it('names the twin as the list shows it', () => {
    expect(twinName(item({ f32_alternative: 'SmolLM2-360M-Instruct-q4f32_1-MLC' }), catalog)).toBe(
      'SmolLM2 360M Instruct (q4f32)',
    );
  });

  it('falls back to the id for a twin the catalog does not hold, and to nothing without one', () => {
    expect(twinName(item({ f32_alternative: 'Other-q4f32_1-MLC' }), catalog)).toBe('Other-q4f32_1-MLC');
    expect(twinName(item({ f32_alternative: null }), catalog)).toBe('');
  });
});
