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

  it('lists the providers first and the demo under its own name, never the mock as a model', () => {
    const groups = agentModelGroups(providers, {}, null, labels);
    expect(groups.map((group) => group.label)).toEqual(['CUSTOM', 'Demo']);
    expect(groups.at(-1)!.options).toMatchObject([
      { provider_id: 'mock', model: 'mock-1', label: 'Demo (scripted, offline)' },
    ]);
    expect(groups.flatMap((group) => group.options).filter((o) => o.provider_id === 'mock')).toHaveLength(1);
  });

  it('offers what can run now before the in-browser models that are not downloaded or cannot run here', () => {
    const items = [
      ...Array.from({ length: 12 }, (_, index) => localItem(`later-${index}`)),
      localItem('ready', { cached: true }),
      ...Array.from({ length: 12 }, (_, index) =>
        localItem(`stuck-${index}`, { runnable: false, unavailable_reason: 'insufficient_memory' }),
      ),
      localItem('stuck-cached', { cached: true, runnable: false, unavailable_reason: 'no_shader_f16' }),
    ];
    const groups = agentModelGroups(providers, {}, local(true, items), labels);
    expect(groups.map((group) => group.label)).toEqual([
      'CUSTOM',
      'In-browser',
      'Demo',
      'In-browser — not downloaded',
      'In-browser — cannot run here',
    ]);
    const options = groups.flatMap((group) => group.options.map((option) => option.model));
    expect(options.slice(0, 3)).toEqual(['gpt-x', 'ready', 'mock-1']);
    expect(groups[3]!.options.map((option) => option.model)).toEqual(
      items.slice(0, 12).map((item) => item.model),
    );
    expect(groups[4]!.options.map((option) => option.model)).toEqual([
      ...items.slice(13, 25).map((item) => item.model),
      'stuck-cached',
    ]);
    // Every model stays pickable (one that cannot run, to read why), and none twice.
    expect(new Set(options).size).toBe(items.length + 2);
    expect(groups.flatMap((group) => group.options).every((option) => !option.disabled)).toBe(true);
  });

  it('leaves out empty groups, and without WebGPU lists the in-browser models last and disabled', () => {
    const ready = agentModelGroups(
      [providers[0]!],
      {},
      local(true, [localItem('a', { cached: true })]),
      labels,
    );
    expect(ready.map((group) => group.label)).toEqual(['In-browser', 'Demo']);
    const noGpu = agentModelGroups(providers, {}, local(false, [localItem('a', { cached: true })]), labels);
    expect(noGpu.map((group) => group.label)).toEqual(['CUSTOM', 'Demo', 'In-browser (unavailable)']);
    expect(noGpu.at(-1)!.options.every((option) => option.disabled)).toBe(true);
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
