import { describe, expect, it } from 'vitest';
import { deviceRefusalText, joinSentences } from './device-refusal-text';
import { localItem } from './__fixtures__/model-picker';

const f32 = localItem('M-q4f32', { display_name: 'M (q4f32)' });

describe('deviceRefusalText', () => {
  it('is empty for a model this device can run', () => {
    expect(deviceRefusalText(localItem('M'), [])).toEqual([]);
  });

  it('names the model, the feature, the GPU and the twin by key and parameters', () => {
    const f16 = localItem('M-q4f16', {
      display_name: 'M (q4f16)',
      runnable: false,
      unavailable_reason: 'no_shader_f16',
      unavailable_message: 'English words',
      f32_alternative: 'M-q4f32',
      unavailable_refusal: {
        code: 'no_shader_f16',
        params: { model: 'M (q4f16)', feature: 'shader-f16', gpu: 'google / swiftshader', twin: 'M-q4f32' },
      },
    });
    expect(deviceRefusalText(f16, [f16, f32])).toEqual([
      {
        key: 'chat.deviceRefusal.no_shader_f16',
        params: { model: 'M (q4f16)', feature: 'shader-f16', gpu: 'google / swiftshader', twin: 'M (q4f32)' },
      },
      { key: 'chat.deviceRefusal.useTwin', params: expect.objectContaining({ twin: 'M (q4f32)' }) },
    ]);
  });

  it('leaves the GPU out when the browser does not name it, and the twin when there is none', () => {
    const f16 = localItem('M-q4f16', {
      runnable: false,
      unavailable_reason: 'no_shader_f16',
      unavailable_refusal: {
        code: 'no_shader_f16',
        params: { model: 'M', feature: 'shader-f16', gpu: '', twin: '' },
      },
    });
    expect(deviceRefusalText(f16, [f16]).map((sentence) => sentence.key)).toEqual([
      'chat.deviceRefusal.no_shader_f16NoGpu',
    ]);
  });

  it('falls back to the reason when the worker sends no refusal code', () => {
    const old = localItem('M', { runnable: false, unavailable_reason: 'insufficient_storage' });
    expect(deviceRefusalText(old, [old])).toEqual([
      { key: 'local.reason.insufficient_storage', params: { twin: '' } },
    ]);
  });
});

describe('joinSentences', () => {
  it('joins Chinese sentences without a space, others with one', () => {
    expect(joinSentences(['这块 GPU 不支持。', '请改用 Qwen。'])).toBe('这块 GPU 不支持。请改用 Qwen。');
    expect(joinSentences(['It does not.', 'Choose Qwen.'])).toBe('It does not. Choose Qwen.');
  });
});
