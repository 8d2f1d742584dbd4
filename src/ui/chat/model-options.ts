import type { ModelInfoDto, ProviderDto } from '../../contracts/provider-config';
import type { LocalModelDto, LocalModelsDto } from '../../contracts/local-models';

export const LOCAL_PROVIDER = 'webllm';
// Provider ids are slugs, so the first "|" ends the provider; a model name may contain anything.
const SEPARATOR = '|';

export interface ModelOption {
  /** `provider_id` and `model`, joined: the `<option>` value. */
  value: string;
  provider_id: string;
  model: string;
  label: string;
  disabled: boolean;
  /** Why it cannot be picked, or what picking it means (a download). */
  title: string | null;
  /** Set for in-browser models. */
  local: LocalModelDto | null;
}

export interface ModelGroup {
  label: string;
  local: boolean;
  options: ModelOption[];
}

export interface ModelOptionLabels {
  providerName: (provider: ProviderDto) => string;
  localGroup: string;
  localGroupUnavailable: string;
  notDownloaded: string;
  cannotRun: string;
}

export function optionValue(providerId: string, model: string): string {
  return `${providerId}${SEPARATOR}${model}`;
}

export function parseOptionValue(value: string): { provider_id: string; model: string } {
  const at = value.indexOf(SEPARATOR);
  return at < 0
    ? { provider_id: value, model: '' }
    : { provider_id: value.slice(0, at), model: value.slice(at + SEPARATOR.length) };
}

/** A display name that already starts with the model's id (Ollama's `qwen2.5:7b (7.6B)`) is not followed by the id again. */
function modelLabel(info: ModelInfoDto | undefined, model: string): string {
  const name = info?.display_name;
  if (!name || name === model) return model;
  return name.startsWith(`${model} `) ? name : `${name} (${model})`;
}

function localGroup(local: LocalModelsDto, labels: ModelOptionLabels): ModelGroup {
  const available = local.webgpu.available;
  return {
    label: available ? labels.localGroup : labels.localGroupUnavailable,
    local: true,
    options: local.items.map((item) => {
      const note = !item.runnable ? labels.cannotRun : item.cached ? null : labels.notDownloaded;
      return {
        value: optionValue(LOCAL_PROVIDER, item.model),
        provider_id: LOCAL_PROVIDER,
        model: item.model,
        label: note ? `${item.display_name} — ${note}` : item.display_name,
        // Without WebGPU nothing can be picked; a model this GPU cannot run can
        // be picked to read why (and switch to its q4f32 twin).
        disabled: !available,
        title: available ? item.unavailable_message : local.webgpu.message,
        local: item,
      };
    }),
  };
}

/**
 * The chat's model picker: every model each enabled provider reports (its
 * default when the list is unknown), and the in-browser models — first when
 * WebGPU is present, last and disabled (with the reason) when it is not.
 */
export function buildModelGroups(
  providers: readonly ProviderDto[],
  models: Readonly<Record<string, readonly ModelInfoDto[] | undefined>>,
  local: LocalModelsDto | null,
  labels: ModelOptionLabels,
): ModelGroup[] {
  const remote = providers
    .filter((provider) => provider.provider_id !== LOCAL_PROVIDER)
    .map((provider): ModelGroup => {
      const listed = models[provider.provider_id] ?? [];
      // A provider may list a model twice (aliases, several tags): it is offered once.
      const names = [...new Set(listed.map((info) => info.model))];
      if (!names.includes(provider.default_model)) names.unshift(provider.default_model);
      return {
        label: labels.providerName(provider),
        local: false,
        options: names.map((model) => ({
          value: optionValue(provider.provider_id, model),
          provider_id: provider.provider_id,
          model,
          // The mock's model names are English prose from the core; its provider's name already
          // says what it is, in the UI's language, so its id is enough.
          label: `${labels.providerName(provider)} · ${
            provider.type === 'mock'
              ? model
              : modelLabel(
                  listed.find((info) => info.model === model),
                  model,
                )
          }`,
          disabled: false,
          title: null,
          local: null,
        })),
      };
    });
  if (!local || local.items.length === 0) return remote;
  const group = localGroup(local, labels);
  return local.webgpu.available ? [group, ...remote] : [...remote, group];
}

/**
 * The picked model when no group offers it (any more), with its option value: a picker shows it
 * on its own, first, so a conversation or run keeps showing, and can keep, the model it has.
 * Null when a group offers it or nothing is picked.
 */
export function unlistedChoice(
  groups: readonly ModelGroup[],
  choice: { provider_id: string; model: string } | null,
): { value: string; provider_id: string; model: string } | null {
  if (!choice) return null;
  const value = optionValue(choice.provider_id, choice.model);
  const listed = groups.some((group) => group.options.some((option) => option.value === value));
  return listed ? null : { value, provider_id: choice.provider_id, model: choice.model };
}

/** The in-browser model `choice` names, as the list has it; null for another provider's or an unlisted one. */
export function localModelOf(
  choice: { provider_id: string; model: string } | null,
  local: LocalModelsDto | null,
): LocalModelDto | null {
  if (!choice || choice.provider_id !== LOCAL_PROVIDER) return null;
  return local?.items.find((item) => item.model === choice.model) ?? null;
}

/** The capabilities of the picked model, for the thinking toggle. */
export function capabilitiesOf(
  choice: { provider_id: string; model: string } | null,
  models: Readonly<Record<string, readonly ModelInfoDto[] | undefined>>,
  local: LocalModelsDto | null,
): { thinking: boolean; effort: boolean } {
  if (!choice) return { thinking: false, effort: false };
  if (choice.provider_id === LOCAL_PROVIDER) {
    const item = local?.items.find((entry) => entry.model === choice.model);
    return { thinking: item?.thinking ?? false, effort: false };
  }
  const info = models[choice.provider_id]?.find((entry) => entry.model === choice.model);
  const thinking = info?.capabilities.includes('reasoning') ?? false;
  return { thinking, effort: thinking };
}
