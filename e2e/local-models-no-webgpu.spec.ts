import { expect, openApp, test } from './fixtures';

// Chromium without --enable-unsafe-webgpu: `navigator.gpu` exists but grants
// no adapter, in the page and in the workers where the local-model service
// checks the device (an init script could not reach those workers). A separate
// file: launch options force a new browser.
test.use({
  launchOptions: {
    executablePath: '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run'],
  },
});

const F32 = 'Qwen2.5-0.5B-Instruct-q4f32_1-MLC';

test('without a WebGPU adapter, local models are listed last and disabled; the device notice shows once, until dismissed', async ({
  page,
}) => {
  await openApp(page);
  await page.getByTestId('nav-chat').click();
  const picker = page.getByTestId('chat-model');
  await expect(picker.locator('optgroup').last()).toHaveAttribute('label', 'In-browser models (unavailable)');
  await expect(picker.locator(`option[value="webllm|${F32}"]`)).toBeDisabled();
  // The mock still answers.
  await expect(picker).toHaveValue('mock|mock-1');
  // The device-wide notice is not repeated in the chat.
  await expect(page.getByTestId('device-notice')).toHaveCount(0);

  await page.getByTestId('open-settings').click();
  await page.getByTestId('settings-nav-local-models').click();
  const section = page.getByTestId('local-models-settings');
  const model = section.locator(`[data-testid="local-model"][data-model="${F32}"]`);
  await expect(model).toBeVisible();
  // Once for the device, not once per model.
  await expect(page.getByTestId('device-notice')).toHaveCount(1);
  await expect(page.getByTestId('device-notice')).toContainText('no GPU is available to it');
  await expect(section.getByTestId('local-model-refusal')).toHaveCount(0);
  await expect(model.getByTestId('local-model-start')).toHaveCount(0);

  // Dismissed, it stays dismissed: on the next visit and after a reload.
  await page.getByTestId('device-notice-dismiss').click();
  await expect(page.getByTestId('device-notice')).toHaveCount(0);
  await page.reload();
  await expect(page.getByTestId('note-list')).toBeVisible();
  // The Settings page by its address: the reload reopens the page the address names once its
  // code loads, and a click on the gear would meet that dialog.
  await page.evaluate(() => {
    location.hash = '#/settings/local-models';
  });
  await expect(
    page.getByTestId('local-models-settings').locator('[data-testid="local-model"]').first(),
  ).toBeVisible();
  await expect(page.getByTestId('device-notice')).toHaveCount(0);
});
