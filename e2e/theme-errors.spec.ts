import { zipSync } from 'fflate';
import type { Page } from '@playwright/test';
import { expect, openApp, test } from './fixtures';

/**
 * A refused theme package says where and why, as a refused plugin does: a
 * syntax error in theme.yaml by its line and column, a preview image theme.yaml
 * names but the package lacks by its path, in English and in Chinese.
 */

const encoder = new TextEncoder();

const MANIFEST = [
  'theme_id: paper',
  'name: Paper',
  'version: 1.0.0',
  'author: E2E',
  'min_app_version: 0.1.0',
  'is_dark: false',
  'css_entry: theme.css',
];

function themeZip(manifest: string[], extra: Record<string, Uint8Array> = {}) {
  const files = {
    'theme.yaml': encoder.encode(manifest.join('\n')),
    'theme.css': encoder.encode(':root { --color-bg: #fdf6e3; }'),
    ...extra,
  };
  return { name: 'paper.zip', mimeType: 'application/zip', buffer: Buffer.from(zipSync({ paper: files })) };
}

async function openThemes(page: Page) {
  await openApp(page, '/#/settings/general');
  const settings = page.getByTestId('theme-settings');
  await expect(settings.getByTestId('theme-row').first()).toBeVisible();
  return settings;
}

// `name: [unclosed` on line 2: the list never closes; the refusal names the end of that line, not the next one.
const BROKEN = ['theme_id: paper', 'name: [unclosed', ...MANIFEST.slice(2)];

test('a syntax error in theme.yaml is refused with its line and column; a missing preview by its path', async ({
  page,
}) => {
  const settings = await openThemes(page);
  await settings.getByTestId('theme-import-zip').setInputFiles(themeZip(BROKEN));
  const refusal = settings.getByTestId('theme-refusal');
  await expect(refusal).toHaveAttribute('data-code', 'THEME_MANIFEST_INVALID');
  await expect(refusal).toContainText(/theme\.yaml could not be parsed: syntax error at line 2, column 16\./);
  await expect(settings.getByTestId('theme-inspection')).toHaveCount(0);

  await settings
    .getByTestId('theme-import-zip')
    .setInputFiles(themeZip([...MANIFEST, 'preview: images/preview.png']));
  await expect(refusal).toContainText(
    'theme.yaml names “images/preview.png” as its preview, but the package has no such file. Add the file, or fix the path in theme.yaml.',
  );
  // The sentence names the field: no second list of it below.
  await expect(refusal.getByTestId('theme-refusal-fields')).toHaveCount(0);
});

test.describe('in Chinese', () => {
  test.use({ locale: 'zh-CN' });

  test('the same refusals say where and why in Chinese', async ({ page }) => {
    const settings = await openThemes(page);
    await settings.getByTestId('theme-import-zip').setInputFiles(themeZip(BROKEN));
    const refusal = settings.getByTestId('theme-refusal');
    await expect(refusal).toContainText(/无法解析 theme\.yaml：第 2 行第 16 列有语法错误。/);

    await settings
      .getByTestId('theme-import-zip')
      .setInputFiles(themeZip([...MANIFEST, 'preview: images/preview.png']));
    await expect(refusal).toContainText(
      'theme.yaml 把“images/preview.png”指定为 preview，但包内没有这个文件。请添加该文件，或修正 theme.yaml 中的路径。',
    );
  });
});
