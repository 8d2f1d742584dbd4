import { featureMessages } from '../i18n/feature-messages';
import type { Message } from '../i18n/translate';

/**
 * The model-loading line of a pending answer, kept apart until it is merged
 * into `i18n/en.ts` and `i18n/zh-cn.ts` (then `loadingText` becomes `t`).
 */
export const loadingEn = {
  'chat.loadingModel': 'Loading {model} into the GPU… {percent} %',
} as const satisfies Record<string, Message>;

export type LoadingMessageKey = keyof typeof loadingEn;

export const loadingZhCN: Record<LoadingMessageKey, Message> = {
  'chat.loadingModel': '正在将 {model} 加载到 GPU… {percent} %',
};

export const loadingText = featureMessages(loadingEn, loadingZhCN);

/** A web-llm model id as people say it: `Qwen2.5-1.5B-Instruct-q4f32_1-MLC` → `Qwen2.5-1.5B`. */
export function shortModelName(modelId: string): string {
  const short = modelId
    .replace(/-MLC(-\d+k)?$/, '')
    .replace(/-q\d\w*$/, '')
    .replace(/-(Instruct|Chat|it)$/i, '');
  return short || modelId;
}

/** The whole line for a loading model, percent floored so it never shows 100 % before it is done. */
export function loadingLine(loading: { model: string; progress: number }): string {
  const percent = Math.min(100, Math.max(0, Math.floor(loading.progress * 100)));
  return loadingText('chat.loadingModel', { model: shortModelName(loading.model), percent });
}
