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

test('without a WebGPU adapter, local models are listed last and disabled, with the plain reason', async ({
  page,
}) => {
  await openApp(page);
  await page.getByTestId('nav-chat').click();
  const picker = page.getByTestId('chat-model');
  await expect(picker.locator('optgroup').last()).toHaveAttribute('label', 'In-browser models (unavailable)');
  await expect(picker.locator(`option[value="webllm|${F32}"]`)).toBeDisabled();
  await expect(page.getByTestId('chat-local-unavailable')).toContainText('no GPU is available to it');
  // The mock still answers.
  await expect(picker).toHaveValue('mock|mock-1');

  await page.getByTestId('open-settings').click();
  const section = page.getByTestId('local-models-settings');
  await expect(section.getByTestId('local-models-unavailable')).toContainText('no GPU is available to it');
  const model = section.locator(`[data-testid="local-model"][data-model="${F32}"]`);
  await expect(model.getByTestId('local-model-refusal')).toContainText('no GPU is available to it');
  await expect(model.getByTestId('local-model-start')).toHaveCount(0);
});
