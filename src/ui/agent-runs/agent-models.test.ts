import { describe, expect, it } from 'vitest';
import { local, localItem, pickerLabels, provider } from '../chat/__fixtures__/model-picker';
import { agentModelGroups, agentModelRefusal, defaultAgentChoice } from './agent-models';

const labels = {
  ...pickerLabels,
  demoGroup: 'Demo',
  demo: 'Demo (scripted, offline)',
};

describe('the Agent view model picker', () => {
  const providers = [provider('mock', 'mock-1', 'mock'), provider('custom', 'gpt-x')];

  it('puts local models first with WebGPU, then the providers, and the demo last under its own name', () => {
    const groups = agentModelGroups(providers, {}, local(true, [localItem('qwen')]), labels);
    expect(groups.map((group) => group.label)).toEqual(['In-browser', 'CUSTOM', 'Demo']);
    expect(groups.at(-1)!.options).toMatchObject([
      { provider_id: 'mock', model: 'mock-1', label: 'Demo (scripted, offline)' },
    ]);
    // The mock provider is not offered as a model.
    expect(groups.flatMap((group) => group.options).filter((o) => o.provider_id === 'mock')).toHaveLength(1);
  });

  it('defaults to a configured provider, then a ready local model, then the demo', () => {
    expect(defaultAgentChoice(providers, null)).toEqual({ provider_id: 'custom', model: 'gpt-x' });
    const onlyMock = [providers[0]!];
    expect(
      defaultAgentChoice(onlyMock, local(true, [localItem('a'), localItem('b', { cached: true })])),
    ).toEqual({ provider_id: 'webllm', model: 'b' });
    expect(defaultAgentChoice(onlyMock, local(false, [localItem('b', { cached: true })]))).toEqual({
      provider_id: 'mock',
      model: 'mock-1',
    });
  });
});

describe('a picked in-browser model this device cannot run', () => {
  const f16 = localItem('Qwen-q4f16', {
    display_name: 'Qwen (q4f16)',
    runnable: false,
    unavailable_reason: 'no_shader_f16',
    f32_alternative: 'Qwen-q4f32',
    unavailable_refusal: {
      code: 'no_shader_f16',
      params: { model: 'Qwen (q4f16)', feature: 'shader-f16', gpu: 'SwiftShader', twin: '' },
    },
  });
  const f32 = localItem('Qwen-q4f32', { display_name: 'Qwen (q4f32)', f32_alternative: null });
  const pick = (model: string) => ({ provider_id: 'webllm', model });

  it('says why in the chat’s words and offers the twin this device can run', () => {
    const refusal = agentModelRefusal(pick('Qwen-q4f16'), local(true, [f16, f32]));
    expect(refusal?.sentences).toEqual([
      {
        key: 'chat.deviceRefusal.no_shader_f16',
        params: expect.objectContaining({ gpu: 'SwiftShader', twin: 'Qwen (q4f32)' }),
      },
      { key: 'chat.deviceRefusal.useTwin', params: expect.objectContaining({ twin: 'Qwen (q4f32)' }) },
    ]);
    expect(refusal?.twin).toBe(f32);
  });

  it('offers no twin that cannot run here either', () => {
    const stuck = { ...f32, runnable: false, unavailable_reason: 'insufficient_memory' as const };
    expect(agentModelRefusal(pick('Qwen-q4f16'), local(true, [f16, stuck]))?.twin).toBeNull();
  });

  it('still refuses when the device gave no reason', () => {
    const silent = localItem('odd', { runnable: false });
    expect(agentModelRefusal(pick('odd'), local(true, [silent]))?.sentences).toEqual([
      { key: 'agent.model.cannotRun' },
    ]);
  });

  it('is null for a model that runs here, a remote model, or before the list is read', () => {
    expect(agentModelRefusal(pick('Qwen-q4f32'), local(true, [f16, f32]))).toBeNull();
    expect(agentModelRefusal({ provider_id: 'custom', model: 'Qwen-q4f16' }, local(true, [f16]))).toBeNull();
    expect(agentModelRefusal(pick('Qwen-q4f16'), null)).toBeNull();
  });
});
