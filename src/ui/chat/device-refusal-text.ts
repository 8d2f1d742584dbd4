import type { LocalModelDto, LocalModelRefusalDto } from '../../contracts/local-models';
import type { MessageKey } from '../i18n';
import { reasonText, twinName, type MessageRef } from '../local-models/local-model-text';

const REFUSAL_KEYS: Record<LocalModelRefusalDto['code'], MessageKey> = {
  no_webgpu: 'chat.deviceRefusal.no_webgpu',
  no_adapter: 'chat.deviceRefusal.no_adapter',
  no_shader_f16: 'chat.deviceRefusal.no_shader_f16',
  buffer_too_small: 'chat.deviceRefusal.buffer_too_small',
  phone_class_gpu: 'chat.deviceRefusal.phone_class_gpu',
  device_memory: 'chat.deviceRefusal.device_memory',
  insufficient_storage: 'chat.deviceRefusal.insufficient_storage',
};

/**
 * Why this device cannot run a local model, as sentences to look up in the reader's language
 * (the worker's `unavailable_message` is English). [] when it can run. A worker that sends
 * no refusal code gets the shorter text of its reason.
 */
export function deviceRefusalText(
  item: Pick<
    LocalModelDto,
    'runnable' | 'unavailable_reason' | 'unavailable_refusal' | 'f32_alternative' | 'display_name'
  >,
  items: readonly Pick<LocalModelDto, 'model' | 'display_name'>[],
): MessageRef[] {
  if (item.runnable || !item.unavailable_reason) return [];
  const twin = twinName(item, items);
  const refusal = item.unavailable_refusal;
  if (!refusal) return [{ key: reasonText(item.unavailable_reason).key, params: { twin } }];
  const params: Record<string, string> = {
    ...refusal.params,
    model: refusal.params['model'] || item.display_name,
    twin,
  };
  if (refusal.code !== 'no_shader_f16') return [{ key: REFUSAL_KEYS[refusal.code], params }];
  const sentences: MessageRef[] = [
    {
      key: params['gpu'] ? 'chat.deviceRefusal.no_shader_f16' : 'chat.deviceRefusal.no_shader_f16NoGpu',
      params,
    },
  ];
  if (twin) sentences.push({ key: 'chat.deviceRefusal.useTwin', params });
  return sentences;
}

/** Sentences in a row; Chinese ones follow each other without a space. */
export function joinSentences(sentences: readonly string[]): string {
  return sentences.join(' ').replace(/([。！？]) /g, '$1');
}
