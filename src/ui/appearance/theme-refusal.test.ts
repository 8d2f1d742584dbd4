import { afterEach, describe, expect, it } from 'vitest';
import { i18n } from '../i18n';
import { refusalNamesFields, themeRefusalText } from './theme-refusal';

const refusal = (details: Record<string, unknown>, code = 'THEME_MANIFEST_INVALID') => ({
  code,
  message: 'English for the console',
  details,
});

describe('themeRefusalText', () => {
  afterEach(() => i18n.reset());

  it('says where theme.yaml has a syntax error, in both languages, as plugins do', async () => {
    const syntax = refusal({ reason: 'manifest_yaml', file: 'theme.yaml', line: 2, column: 7 });
    expect(themeRefusalText(syntax)).toBe(
      'theme.yaml could not be parsed: syntax error at line 2, column 7.',
    );
    await i18n.setLocale('zh-CN');
    expect(themeRefusalText(syntax)).toBe('无法解析 theme.yaml：第 2 行第 7 列有语法错误。');
  });

  it('says why a built-in theme id is refused, not only which field', async () => {
    const reserved = refusal({
      reason: 'reserved_theme_id',
      theme_id: 'light',
      fields: [{ path: 'theme_id', message: 'reserved for a built-in theme' }],
    });
    expect(themeRefusalText(reserved)).toBe(
      'theme.yaml: theme_id “light” is reserved for a built-in theme; choose another id.',
    );
    expect(refusalNamesFields(reserved)).toBe(true);
    await i18n.setLocale('zh-CN');
    expect(themeRefusalText(reserved)).toBe('theme.yaml：theme_id“light”已被内置主题占用，请换一个 ID。');
  });

  it('names the file theme.yaml points at that the package lacks', async () => {
    const missing = refusal({
      reason: 'file_missing',
      file: 'theme.yaml',
      field: 'preview',
      path: 'preview.png',
      fields: [{ path: 'preview', message: 'file not found in the package' }],
    });
    expect(themeRefusalText(missing)).toContain('“preview.png”');
    expect(themeRefusalText(missing)).toContain('the package has no such file');
    expect(refusalNamesFields(missing)).toBe(true);
    await i18n.setLocale('zh-CN');
    expect(themeRefusalText(missing)).toContain('包内没有这个文件');
  });

  it('keeps the theme sentence and its field list for field problems', async () => {
    const fields = refusal({
      reason: 'manifest_invalid',
      file: 'theme.yaml',
      fields: [{ path: 'version', problem: 'required', message: 'Required' }],
    });
    expect(themeRefusalText(fields)).toBe('Its theme.yaml is missing or not valid.');
    expect(refusalNamesFields(fields)).toBe(false);
  });

  it('falls back to the code when the details say nothing more', async () => {
    expect(themeRefusalText(refusal({}, 'THEME_CSS_UNSAFE'))).toBe(
      'Its stylesheet contains something a theme may not use.',
    );
    expect(refusalNamesFields(refusal({ fields: [{ path: 'theme_id' }] }))).toBe(false);
  });
});
