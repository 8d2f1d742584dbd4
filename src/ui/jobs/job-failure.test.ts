import { describe, expect, it } from 'vitest';
import { I18nState, localeLoaders } from '../i18n/i18n.svelte';
import { jobFailureText } from './job-failure';

const download = {
  code: 'EMBEDDING_MODEL_UNAVAILABLE',
  message: 'The embedding model "Xenova/bge-small-zh-v1.5" could not be downloaded: HTTP 404.',
};

describe('a failed model download in the jobs panel', () => {
  it('says first, in Chinese, what its code means; the core English is the details', async () => {
    const i18n = new I18nState(localeLoaders);
    await i18n.setLocale('zh-CN');
    expect(jobFailureText(download, (code, fallback) => i18n.errorText(code, fallback))).toEqual({
      text: '没有可用的嵌入模型。',
      detail: download.message,
    });
  });

  it('in English too the code’s wording comes first, the message naming the model after it', () => {
    const i18n = new I18nState(localeLoaders);
    expect(jobFailureText(download, (code, fallback) => i18n.errorText(code, fallback))).toEqual({
      text: 'No embedding model is available.',
      detail: download.message,
    });
  });

  it('a code without wording of its own shows the core message once, with no details', async () => {
    const i18n = new I18nState(localeLoaders);
    await i18n.setLocale('zh-CN');
    const unknown = { code: 'SOMETHING_NEW', message: 'The model host answered 500.' };
    expect(jobFailureText(unknown, (code, fallback) => i18n.errorText(code, fallback))).toEqual({
      text: 'The model host answered 500.',
      detail: null,
    });
  });
});
