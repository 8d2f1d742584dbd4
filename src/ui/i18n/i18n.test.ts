import { describe, expect, it, vi } from 'vitest';
import { I18nState, localeLoaders, type LocaleLoaders, type LocaleTables } from './i18n.svelte';
import { zhCN, zhCNErrors } from './zh-cn';

const chinese: LocaleTables = { messages: zhCN, errors: zhCNErrors };

/** Loaders whose Chinese table arrives when the test says so, or fails. */
function heldLoaders() {
  const pending: { resolve: (tables: LocaleTables) => void; reject: (error: Error) => void }[] = [];
  const zh = vi.fn(() => new Promise<LocaleTables>((resolve, reject) => pending.push({ resolve, reject })));
  const loaders: LocaleLoaders = { en: localeLoaders.en, 'zh-CN': zh };
  return { loaders, zh, pending };
}

describe('I18nState', () => {
  it('speaks English from the start, without loading any table', () => {
    const { loaders, zh } = heldLoaders();
    const i18n = new I18nState(loaders);
    expect(i18n.locale).toBe('en');
    expect(i18n.t('sidebar.newNote')).toBe('New note');
    expect(zh).not.toHaveBeenCalled();
  });

  it('switches to Chinese once its table has loaded, and does not load it twice', async () => {
    const { loaders, zh, pending } = heldLoaders();
    const i18n = new I18nState(loaders);
    const switching = i18n.setLocale('zh-CN');
    // Until the table is here, the page stays in one language.
    expect(i18n.locale).toBe('en');
    expect(i18n.t('sidebar.newNote')).toBe('New note');
    pending[0]!.resolve(chinese);
    await switching;
    expect(i18n.locale).toBe('zh-CN');
    expect(i18n.t('sidebar.newNote')).toBe('新建笔记');
    expect(i18n.t('sidebar.noteCount', { count: 3 })).toBe('3 篇笔记');

    await i18n.setLocale('en');
    expect(i18n.t('sidebar.newNote')).toBe('New note');
    // Back to Chinese at once: the table is kept.
    void i18n.setLocale('zh-CN');
    expect(i18n.locale).toBe('zh-CN');
    expect(zh).toHaveBeenCalledTimes(1);
  });

  it('keeps the last choice when an earlier table arrives after it', async () => {
    const { loaders, pending } = heldLoaders();
    const i18n = new I18nState(loaders);
    const toChinese = i18n.setLocale('zh-CN');
    await i18n.setLocale('en');
    pending[0]!.resolve(chinese);
    await toChinese;
    expect(i18n.locale).toBe('en');
    expect(i18n.t('sidebar.newNote')).toBe('New note');
  });

  it('stays in the current language when a table cannot load, and tries again next time', async () => {
    const { loaders, zh, pending } = heldLoaders();
    const i18n = new I18nState(loaders);
    const failing = i18n.setLocale('zh-CN');
    pending[0]!.reject(new Error('offline'));
    await expect(failing).rejects.toThrow('offline');
    expect(i18n.locale).toBe('en');

    const retry = i18n.setLocale('zh-CN');
    pending[1]!.resolve(chinese);
    await retry;
    expect(i18n.locale).toBe('zh-CN');
    expect(zh).toHaveBeenCalledTimes(2);
  });

  it('gives error texts in the current language, else the fallback message, else a generic line', async () => {
    const i18n = new I18nState({ en: localeLoaders.en, 'zh-CN': () => Promise.resolve(chinese) });
    const code = 'NOTE_NOT_FOUND';
    const english = i18n.errorText(code, 'core message');
    expect(english).not.toBe('core message');
    await i18n.setLocale('zh-CN');
    expect(i18n.errorText(code, 'core message')).toBe(zhCNErrors[code]);
    expect(i18n.errorText('NO_SUCH_CODE', 'core message')).toBe('core message');
    expect(i18n.errorText('NO_SUCH_CODE', ' ')).toBe(zhCN['errors.generic']);
  });

  it("loads the Chinese table through the app's own loader", async () => {
    const tables = await localeLoaders['zh-CN']();
    expect(tables.messages).toBe(zhCN);
    expect(tables.errors).toBe(zhCNErrors);
  });
});
