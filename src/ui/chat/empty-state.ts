import type { ModelInfoDto, ProviderDto } from '../../contracts/provider-config';
import type { LocalModelsDto } from '../../contracts/local-models';
import type { MessageKey } from '../i18n';
import { LOCAL_PROVIDER } from './model-options';

export interface EmptyStateText {
  key: Extract<MessageKey, `chat.empty${string}`>;
  params?: Record<string, string>;
}

/**
 * What the empty thread says: who will answer the first message. The mock is
 * named only when it is the model picked; a real provider is named with the
 * note that the messages go to it, a model in the browser with the note that
 * they stay here.
 */
export function emptyStateOf(
  choice: { provider_id: string; model: string } | null,
  providers: readonly ProviderDto[],
  models: Readonly<Record<string, readonly ModelInfoDto[] | undefined>>,
  local: LocalModelsDto | null,
): EmptyStateText {
  if (!choice) return { key: 'chat.emptyNoModel' };
  if (choice.provider_id === LOCAL_PROVIDER) {
    const item = local?.items.find((entry) => entry.model === choice.model);
    return { key: 'chat.emptyLocal', params: { model: item?.display_name ?? choice.model } };
  }
  const provider = providers.find((entry) => entry.provider_id === choice.provider_id);
  if (provider?.type === 'mock') {
    const others = providers.some((entry) => entry.type !== 'mock' && entry.provider_id !== LOCAL_PROVIDER);
    return { key: others ? 'chat.emptyMockPick' : 'chat.empty' };
  }
  const info = models[choice.provider_id]?.find((entry) => entry.model === choice.model);
  return {
    key: 'chat.emptyRemote',
    params: {
      model: info?.display_name || choice.model,
      provider: provider?.display_name ?? choice.provider_id,
    },
  };
}
