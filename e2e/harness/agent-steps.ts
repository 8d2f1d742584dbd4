import { expect, type Page } from '@playwright/test';

/**
 * Adds a custom OpenAI-compatible provider (default name "Script") for `serverUrl`
 * (see `openai-script-server.ts`) in Settings, then closes Settings. `apiKey: null`
 * saves it without a key.
 */
export async function addScriptProvider(
  page: Page,
  serverUrl: string,
  { name = 'Script', apiKey = 'sk-e2e-agent' }: { name?: string; apiKey?: string | null } = {},
): Promise<void> {
  await page.getByTestId('open-settings').click();
  await page.getByTestId('settings-nav-providers').click();
  await page.getByTestId('provider-add').click();
  await page.getByTestId('provider-preset').selectOption('custom');
  await page.getByTestId('provider-name').fill(name);
  await page.getByTestId('provider-base-url').fill(`${serverUrl}/v1`);
  await page.getByTestId('provider-model').fill('script-model');
  if (apiKey !== null) await page.getByTestId('provider-api-key').fill(apiKey);
  await page.getByTestId('provider-save').click();
  await expect(page.locator('[data-testid="provider-item"][data-provider-id="custom"]')).toBeVisible();
  await page.keyboard.press('Escape');
}

/** Opens the Agent view, picks the scripted provider's model and opens the tool list. */
export async function pickScriptModel(page: Page): Promise<void> {
  await page.getByTestId('nav-agent').click();
  const picker = page.getByTestId('agent-model');
  await expect(picker.locator('option').last()).toHaveText('Demo (scripted, offline)');
  await picker.selectOption({ label: 'Script · script-model' });
  await page.getByTestId('agent-capabilities').locator('summary').click();
}
