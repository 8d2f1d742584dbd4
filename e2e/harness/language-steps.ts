import { expect, type Page } from '@playwright/test';
import { closeSettings } from './close-settings';

/** Switches the app's language in Settings → General and closes Settings again. */
export async function switchLanguage(page: Page, locale: 'zh-CN' | 'en'): Promise<void> {
  await page.getByTestId('open-settings').click();
  await page.getByTestId('settings-nav-general').click();
  await page.getByTestId('locale-select').selectOption(locale);
  await expect(page.locator('html')).toHaveAttribute('lang', locale);
  await closeSettings(page);
  await expect(page.getByTestId('locale-select')).toBeHidden();
}
