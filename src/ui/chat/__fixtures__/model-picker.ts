import type { ProviderDto } from '../../../contracts/provider-config';
import type { LocalModelDto, LocalModelsDto } from '../../../contracts/local-models';

/** A configured provider as the settings list it; the mock preset is the mock type. */
export const provider = (
  id: string,
  defaultModel: string,
  preset: ProviderDto['preset'] = 'custom',
): ProviderDto => ({
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

/** An in-browser model, runnable and not downloaded unless `fields` say otherwise. */
export const localItem = (model: string, fields: Partial<LocalModelDto> = {}): LocalModelDto =>
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

/** The in-browser model list, on a device with or without WebGPU. */
export const local = (available: boolean, items: LocalModelDto[]): LocalModelsDto => ({
  webgpu: { available, message: available ? null : 'No WebGPU here.', adapter: null },
  items,
});

/** The picker's group and option labels, in plain English. */
export const pickerLabels = {
  providerName: (p: ProviderDto) => p.display_name,
  localGroup: 'In-browser',
  localGroupUnavailable: 'In-browser (unavailable)',
  notDownloaded: 'not downloaded',
  cannotRun: 'cannot run here',
};
