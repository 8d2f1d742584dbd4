import { zipSync } from 'fflate';
import type { Page } from '@playwright/test';
import { expect, openApp, test } from './fixtures';

/**
 * Themes as a Chinese-speaking user meets them: what the checker says about a package is in
 * Chinese, a refused manifest names the fields to fix, and the keyboard stays where the next
 * step is after installing, turning on or off, and cancelling.
 */

test.use({ locale: 'zh-CN' });

const encoder = new TextEncoder();
const PHONE = { width: 390, height: 844 };

function manifest(lines: Record<string, string>): Uint8Array {
  return encoder.encode(
    Object.entries(lines)
      .map(([key, value]) => `${key}: ${value}`)
      .join('\n'),
  );
}

const GOOD_MANIFEST = {
  theme_id: 'paper',
  name: 'Paper',
  version: '1.0.0',
  author: 'E2E',
  min_app_version: '0.1.0',
  is_dark: 'false',
  css_entry: 'theme.css',
};

function themeZip(files: Record<string, Uint8Array>): {
  name: string;
  mimeType: string;
  buffer: Buffer;
} {
  return { name: 'paper.zip', mimeType: 'application/zip', buffer: Buffer.from(zipSync({ paper: files })) };
}

async function openThemes(page: Page) {
  await page.getByTestId('open-settings').click();
  await page.getByTestId('settings-nav-general').click();
  const settings = page.getByTestId('theme-settings');
  await expect(settings.getByTestId('theme-row').first()).toBeVisible();
  return settings;
}

test.describe('desktop 1280×800', () => {
  test.use({ viewport: { width: 1280, height: 800 } });

  test('the checker speaks Chinese, and the keyboard follows install, on and off', async ({
    page,
    requestLog,
  }) => {
    await openApp(page);
    const settings = await openThemes(page);
    await settings.getByTestId('theme-import-zip').setInputFiles(
      themeZip({
        'theme.yaml': manifest(GOOD_MANIFEST),
        // An at-rule themes cannot use: left out, with a warning.
        'theme.css': encoder.encode(':root { --color-bg: #fdf6e3; }\n@viewport { width: device-width; }\n'),
      }),
    );
    const inspection = settings.getByTestId('theme-inspection');
    await expect(inspection.getByTestId('theme-compatibility')).toHaveText('适用于当前版本的应用。');
    await inspection.locator('details summary').click();
    await expect(inspection.locator('details li')).toHaveText('第 2 行：不支持 @viewport，已忽略。');

    // Installed, the preview goes; the keyboard lands on "使用" of the new row, the next step.
    await inspection.getByTestId('theme-install').focus();
    await page.keyboard.press('Enter');
    const row = settings.locator('[data-testid="theme-row"][data-theme-id="paper"]');
    await expect(row).toBeVisible();
    await expect(row.getByTestId('theme-enable')).toBeFocused();

    // Turned on with the keyboard: it stays on that row, now on "停止使用".
    await page.keyboard.press('Enter');
    await expect(row).toHaveAttribute('data-enabled', 'true');
    await expect(row.getByRole('button', { name: '停止使用' })).toBeFocused();

    // And off again: back to "使用", the light theme back on the page.
    await page.keyboard.press('Enter');
    await expect(row).toHaveAttribute('data-enabled', 'false');
    await expect(row.getByTestId('theme-enable')).toBeFocused();
    await expect(page.locator('html')).not.toHaveAttribute('data-theme-package', /.*/);
    expect(requestLog.foreign()).toEqual([]);
  });
});

test.describe('phone 390×844', () => {
  test.use({ viewport: PHONE, isMobile: true, hasTouch: true });

  test('a refused manifest names the fields to fix; cancelling a preview keeps the keyboard on import', async ({
    page,
  }) => {
    // Straight to Settings by its address: on a phone the gear sits in the drawer.
    await openApp(page, '/#/settings/general');
    const settings = page.getByTestId('theme-settings');
    await expect(settings.getByTestId('theme-row').first()).toBeVisible();
    const { version: _version, css_entry: _css, ...incomplete } = GOOD_MANIFEST;
    await settings
      .getByTestId('theme-import-zip')
      .setInputFiles(
        themeZip({ 'theme.yaml': manifest(incomplete), 'theme.css': encoder.encode(':root {}') }),
      );
    const refusal = settings.getByTestId('theme-refusal');
    await expect(refusal).toHaveAttribute('data-code', 'THEME_MANIFEST_INVALID');
    await expect(refusal.getByTestId('theme-refusal-fields')).toHaveText(
      '需要在 theme.yaml 中修正的字段：version、css_entry。',
    );
    await expect(refusal).toContainText('修正主题包后，用上面的按钮重新导入。');
    const fits = await refusal.evaluate((element) => element.scrollWidth <= element.clientWidth);
    expect(fits).toBe(true);

    // A good package now: previewed, then cancelled; the keyboard is back on the import button.
    await settings
      .getByTestId('theme-import-zip')
      .setInputFiles(
        themeZip({ 'theme.yaml': manifest(GOOD_MANIFEST), 'theme.css': encoder.encode(':root {}') }),
      );
    const inspection = settings.getByTestId('theme-inspection');
    await expect(inspection).toBeVisible();
    await expect(refusal).toHaveCount(0);
    await inspection.getByRole('button', { name: '取消' }).tap();
    await expect(inspection).toHaveCount(0);
    await expect(settings.getByTestId('theme-import-zip')).toBeFocused();
    const width = await page.evaluate(() => document.scrollingElement!.scrollWidth);
    expect(width).toBeLessThanOrEqual(PHONE.width);
  });
});
