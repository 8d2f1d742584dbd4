import { describe, expect, it } from 'vitest';
import type { ProviderDto } from '../../contracts/provider-config';
import type { LocalModelDto, LocalModelsDto } from '../../contracts/local-models';
import { agentModelGroups, defaultAgentChoice } from './agent-models';

const provider = (id: string, preset: ProviderDto['preset'], defaultModel: string): ProviderDto => ({
  provider_id: id,
  type: preset === 'mock' ? 'mock' : 'openai-compatible',
  preset,
  display_name: id.toUpperCase(),
  base_url: 'http://x',
  default_model: defaultModel,
  enabled: true,
  has_api_key: false,
  fallback: null,
  created_at: '2026-01-01T00:00:00Z',
  updated_at: '2026-01-01T00:00:00Z',
});
const localItem = (model: string, fields: Partial<LocalModelDto> = {}): LocalModelDto =>
  ({
    model,
    display_name: model,
    cached: false,
    runnable: true,
    unavailable_reason: null,
    unavailable_message: null,
    thinking: false,
    ...fields,
  }) as LocalModelDto;
const local = (available: boolean, items: LocalModelDto[]): LocalModelsDto => ({
  webgpu: { available, message: available ? null : 'No WebGPU here.', adapter: null },
  items,
});
const labels = {
  providerName: (p: ProviderDto) => p.display_name,
  localGroup: 'In-browser',
  localGroupUnavailable: 'In-browser (unavailable)',
  notDownloaded: 'not downloaded',
  cannotRun: 'cannot run here',
  demoGroup: 'Demo',
  demo: 'Demo (scripted, offline)',
};

describe('the Agent view model picker', () => {
  const providers = [provider('mock', 'mock', 'mock-1'), provider('custom', 'custom', 'gpt-x')];

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
