export { detectLocale } from './detect-locale';
export type { MessageKey } from './en';
export { errorText, i18n, t } from './i18n.svelte';
export type { MessageParams } from './translate';
