import { expect, type Page } from '@playwright/test';

/**
 * A local fake server's address under the name `deepseek.test`, which a spec's browser resolves
 * to this machine (`--host-resolver-rules=MAP deepseek.test 127.0.0.1`): a provider on this
 * machine needs no network, so its failure is never "offline", and DeepSeek's is.
 */
export const deepSeekAddress = (url: string) => url.replace('//127.0.0.1:', '//deepseek.test:');

/** Adds DeepSeek's preset pointed at the fake server; Settings stays open on the providers. */
export async function addDeepSeek(page: Page, serverUrl: string): Promise<void> {
  // Requests outside the app are cut off (fixtures.ts), the fake's own address aside.
  await page.context().route(`${deepSeekAddress(serverUrl)}/**`, (route) => route.continue());
  await page.getByTestId('open-settings').click();
  await page.getByTestId('settings-nav-providers').click();
  await page.getByTestId('provider-add').click();
  await page.getByTestId('provider-preset').selectOption('deepseek');
  await page.getByTestId('provider-base-url').fill(`${deepSeekAddress(serverUrl)}/v1`);
  await page.getByTestId('provider-model').fill('script-model');
  await page.getByTestId('provider-api-key').fill('sk-e2e-deepseek');
  await page.getByTestId('provider-save').click();
  await expect(page.locator('[data-testid="provider-item"][data-provider-id="deepseek"]')).toBeVisible();
}
