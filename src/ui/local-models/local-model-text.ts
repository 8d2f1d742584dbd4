import type {
  LocalModelDto,
  LocalModelsDto,
  LocalModelUnavailableReason,
} from '../../contracts/local-models';
import type { MessageKey } from '../i18n';

/** A message to look up: the key and its parameters (kept pure so it is testable without a locale). */
export interface MessageRef {
  key: MessageKey;
  params?: Record<string, string | number>;
}

const FAMILY_KEYS: Record<string, MessageKey> = {
  'qwen2.5': 'local.describe.qwen25',
  qwen3: 'local.describe.qwen3',
  'llama-3.2': 'local.describe.llama',
  'hermes-3': 'local.describe.hermes',
  'gemma-2': 'local.describe.gemma',
  'phi-3.5': 'local.describe.phi',
  smollm2: 'local.describe.smollm',
};

/**
 * A model's description in the reader's language, as sentences to join: the catalog's note is
 * English, so the text comes from the family. [] for a family this table does not know yet
 * (the caller shows the catalog's note).
 */
export function modelDescription(item: Pick<LocalModelDto, 'family' | 'parameters_billions'>): MessageRef[] {
  const key = FAMILY_KEYS[item.family];
  if (!key) return [];
  const tiny = item.family.startsWith('qwen') && item.parameters_billions < 1;
  return tiny ? [{ key }, { key: 'local.describe.tiny' }] : [{ key }];
}

const REASON_KEYS: Record<LocalModelUnavailableReason, MessageKey> = {
  no_webgpu: 'local.reason.no_webgpu',
  no_adapter: 'local.reason.no_adapter',
  no_shader_f16: 'local.reason.no_shader_f16',
  insufficient_memory: 'local.reason.insufficient_memory',
  insufficient_storage: 'local.reason.insufficient_storage',
};

/** Reasons that hold for the whole device: said once, in the notice, not beside each model. */
const DEVICE_WIDE: ReadonlySet<LocalModelUnavailableReason> = new Set(['no_webgpu', 'no_adapter']);

export function isDeviceWide(reason: LocalModelUnavailableReason | null): boolean {
  return reason !== null && DEVICE_WIDE.has(reason);
}

export function reasonText(reason: LocalModelUnavailableReason): MessageRef {
  return { key: REASON_KEYS[reason] };
}

/**
 * The device-wide notice, or null when local models can run here. The list's WebGPU check
 * has no code of its own, so the models' shared reason names it.
 */
export function deviceNotice(data: LocalModelsDto | null, unavailable: string | null): MessageRef | null {
  if (unavailable !== null) return { key: 'local.notice.workerUnavailable' };
  if (!data || data.webgpu.available) return null;
  const reason = data.items.find((item) => isDeviceWide(item.unavailable_reason))?.unavailable_reason;
  return { key: reason === 'no_adapter' ? 'local.notice.no_adapter' : 'local.notice.no_webgpu' };
}

/**
 * The name a refusal gives the model to use instead: as the list shows it ("SmolLM2 360M
 * Instruct (q4f32)"), not its id; the id only when the catalog does not hold the twin.
 */
export function twinName(
  item: Pick<LocalModelDto, 'f32_alternative'>,
  items: readonly Pick<LocalModelDto, 'model' | 'display_name'>[],
): string {
  const twin = item.f32_alternative;
  if (!twin) return '';
  return items.find((candidate) => candidate.model === twin)?.display_name ?? twin;
}
