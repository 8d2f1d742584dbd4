import type { ModelInfoDto, ProviderDto } from '../../contracts/provider-config';
import type { LocalModelDto, LocalModelsDto } from '../../contracts/local-models';
import {
  buildModelGroups,
  localModelOf,
  optionValue,
  type ModelGroup,
  type ModelOption,
  type ModelOptionLabels,
} from '../chat/model-options';
import { deviceRefusalText } from '../chat/device-refusal-text';
import type { MessageRef } from '../local-models/local-model-text';

/** The demo: the built-in scripted agent (no model, no network). */
export const DEMO_PROVIDER = 'mock';
export const DEMO_MODEL = 'mock-1';

export interface AgentModelLabels extends ModelOptionLabels {
  demoGroup: string;
  demo: string;
}

/**
 * The Agent view's picker, what can run now first: every configured provider's
 * models, the in-browser models downloaded and runnable here, the scripted demo
 * (named as such, never as a model); then, last and under a label that says why,
 * the in-browser models not downloaded yet and those this device cannot run.
 * Two dozen of those used to come first and push the demo out of the list's
 * first screen. Without WebGPU the in-browser group stays whole, last and
 * disabled (the chat's rule). The chat's own picker keeps its order.
 */
export function agentModelGroups(
  providers: readonly ProviderDto[],
  models: Readonly<Record<string, readonly ModelInfoDto[] | undefined>>,
  local: LocalModelsDto | null,
  labels: AgentModelLabels,
): ModelGroup[] {
  const real = providers.filter(
    (provider) => provider.preset !== 'mock' && provider.provider_id !== DEMO_PROVIDER,
  );
  const demo: ModelGroup = {
    label: labels.demoGroup,
    local: false,
    options: [
      {
        value: optionValue(DEMO_PROVIDER, DEMO_MODEL),
        provider_id: DEMO_PROVIDER,
        model: DEMO_MODEL,
        label: labels.demo,
        disabled: false,
        title: null,
        local: null,
      },
    ],
  };
  const groups = buildModelGroups(real, models, local, labels);
  const remote = groups.filter((group) => !group.local);
  const inBrowser = groups.filter((group) => group.local);
  if (!local?.webgpu.available) return [...remote, demo, ...inBrowser];
  const options = inBrowser.flatMap((group) => group.options);
  const ready = options.filter((option) => option.local?.runnable && option.local.cached);
  const notDownloaded = options.filter((option) => option.local?.runnable && !option.local.cached);
  const cannotRun = options.filter((option) => !option.local?.runnable);
  const group = (label: string, members: ModelOption[]): ModelGroup[] =>
    members.length === 0 ? [] : [{ label, local: true, options: members }];
  return [
    ...remote,
    ...group(labels.localGroup, ready),
    demo,
    ...group(`${labels.localGroup} — ${labels.notDownloaded}`, notDownloaded),
    ...group(`${labels.localGroup} — ${labels.cannotRun}`, cannotRun),
  ];
}

/**
 * What a run uses when the user has not picked: the first configured
 * provider, else an in-browser model that is downloaded and runs here, else
 * the demo.
 */
export function defaultAgentChoice(
  providers: readonly ProviderDto[],
  local: LocalModelsDto | null,
): { provider_id: string; model: string } {
  const remote = providers.find(
    (provider) => provider.preset !== 'mock' && provider.provider_id !== DEMO_PROVIDER,
  );
  if (remote) return { provider_id: remote.provider_id, model: remote.default_model };
  const ready = local?.webgpu.available
    ? local.items.find((item) => item.cached && item.runnable)
    : undefined;
  if (ready) return { provider_id: 'webllm', model: ready.model };
  return { provider_id: DEMO_PROVIDER, model: DEMO_MODEL };
}

/** Why the picked model cannot run on this device, and the model to offer instead. */
export interface AgentModelRefusal {
  /** Sentences to look up in the reader's language and join (`joinSentences`). */
  sentences: MessageRef[];
  /** Its q4f32 twin, when this device can run that one. */
  twin: LocalModelDto | null;
}

/**
 * The picked in-browser model's refusal when this device cannot run it (the picker labels
 * it so, and leaves it pickable to read why), in the chat's words; null when it can run
 * or is not an in-browser model. A run on it cannot start.
 */
export function agentModelRefusal(
  choice: { provider_id: string; model: string } | null,
  local: LocalModelsDto | null,
): AgentModelRefusal | null {
  const item = localModelOf(choice, local);
  if (!item || item.runnable || !local) return null;
  const sentences = deviceRefusalText(item, local.items);
  const twin = item.f32_alternative
    ? (local.items.find((entry) => entry.model === item.f32_alternative && entry.runnable) ?? null)
    : null;
  return { sentences: sentences.length > 0 ? sentences : [{ key: 'agent.model.cannotRun' }], twin };
}
