import { describe, expect, it } from 'vitest';
import { local, localItem, pickerLabels, provider } from '../chat/__fixtures__/model-picker';
import { agentModelGroups, defaultAgentChoice } from './agent-models';

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
