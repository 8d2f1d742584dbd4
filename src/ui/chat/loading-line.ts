import { t } from '../i18n';

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
  return t('chat.loadingModel', { model: shortModelName(loading.model), percent });
}
