// @ts-expect-error plain ESM helper shared with playwright.config.ts
import { CHROMIUM_ARGS, findSystemChromium } from '../scripts/system-chromium.mjs';
import { expect, openApp, test } from './fixtures';

// A (fake) microphone exists but the permission is not granted: headless
// Chromium answers the prompt with "deny", as a user who clicks Block would.
test.use({
  launchOptions: {
    executablePath: findSystemChromium(),
    args: [...CHROMIUM_ARGS, '--use-fake-device-for-media-stream'],
  },
});

test('recording with the microphone permission refused says how to allow it', async ({ page }) => {
  await openApp(page);
  await page.getByTestId('nav-transcription').click();
  await page.getByTestId('recorder-start').click();
  await expect(page.getByTestId('recorder-error')).toHaveText(
    'Microphone access was refused. Allow the microphone for this site in the browser’s settings, then try again.',
  );
  await expect(page.getByTestId('recorder-elapsed')).toHaveCount(0);
});
