import type { Page } from '@playwright/test';
import { expect, openApp, test, waitForServiceWorker } from './fixtures';
import { askChat, openChat } from './harness/chat-steps';
import { addDeepSeek } from './harness/deepseek-provider';
import { textStream } from './harness/openai-script-server';
// @ts-expect-error plain ESM helper shared with playwright.config.ts
import { CHROMIUM_ARGS, findSystemChromium } from '../scripts/system-chromium.mjs';

/**
 * Offline (on the subway) a remote provider cannot answer. The chat must say the device is
 * offline, in the reader's language, instead of sending her to Settings to fix a server,
 * CORS or a URL that are fine; back online the same question works.
 */

const executablePath: string | undefined = findSystemChromium();

test.use({
  // The app's code must still load with the network off.
  serviceWorkers: 'allow',
  // A provider on this machine (a local Ollama) needs no network, so its failure is never
  // "offline": the fake DeepSeek gets a name of its own, which the browser resolves to it.
  launchOptions: {
    ...(executablePath && { executablePath }),
    args: [...(CHROMIUM_ARGS as string[]), '--host-resolver-rules=MAP deepseek.test 127.0.0.1'],
  },
});

const answers = (page: Page) => page.locator('[data-testid="chat-message"][data-role="assistant"]');

async function askOffline(page: Page, question: string): Promise<void> {
  await page.getByTestId('chat-input').fill(question);
  await page.getByTestId('chat-input').press('Enter');
  await expect(answers(page)).toHaveCount(1);
  await expect(answers(page).first()).toHaveAttribute('data-status', 'failed');
}

test('offline, the chat says so instead of blaming the server; back online the same question works', async ({
  page,
  context,
  scriptServer,
}) => {
  const server = await scriptServer({ reply: () => textStream('Today you wrote about the subway.') });
  await openApp(page);
  await waitForServiceWorker(page);
  await addDeepSeek(page, server.url);
  await page.keyboard.press('Escape');
  await openChat(page, 'DeepSeek · script-model');

  await context.setOffline(true);
  const question = 'Summarise my notes from today';
  await askOffline(page, question);
  const failed = answers(page).first();
  await expect(failed.getByTestId('chat-error')).toHaveText("You're offline.");
  await expect(failed.getByTestId('provider-offline-help')).toHaveText(
    'DeepSeek needs a connection; local models and your notes work offline.',
  );
  await expect(failed).not.toContainText(/CORS|server|base URL|not available/i);
  expect(server.bodies).toHaveLength(0);

  await context.setOffline(false);
  await askChat(page, question, 2);
  await expect(answers(page).nth(1)).toContainText('Today you wrote about the subway.');
});

test('offline, an agent run on DeepSeek fails as offline, not as an unreachable server', async ({
  page,
  context,
  scriptServer,
}) => {
  const server = await scriptServer({ reply: () => textStream('Done.') });
  await openApp(page);
  await waitForServiceWorker(page);
  await addDeepSeek(page, server.url);
  await page.keyboard.press('Escape');
  await page.getByTestId('nav-agent').click();
  const picker = page.getByTestId('agent-model');
  await expect(picker.locator('option', { hasText: 'script-model' })).toBeAttached();
  await picker.selectOption({ label: 'DeepSeek · script-model' });

  await context.setOffline(true);
  await page.getByTestId('agent-input').fill('Tidy up my notes');
  await page.getByTestId('agent-run').click();
  await expect(page.getByTestId('agent-run-item').first()).toHaveAttribute('data-status', 'failed');
  const timeline = page.getByTestId('agent-timeline');
  await expect(timeline.getByTestId('agent-run-error')).toHaveText("You're offline.");
  await expect(timeline.getByTestId('provider-offline-help')).toHaveText(
    'DeepSeek needs a connection; local models and your notes work offline.',
  );
  await expect(timeline).not.toContainText(/CORS|base URL|not running/i);
});

test.describe('in Chinese', () => {
  test.use({ locale: 'zh-CN' });

  test('offline, the chat says 你现在离线 and names no server, CORS or URL cause', async ({
    page,
    context,
    scriptServer,
  }) => {
    const server = await scriptServer({ reply: () => textStream('今天你写了地铁随记。') });
    await openApp(page);
    await waitForServiceWorker(page);
    await addDeepSeek(page, server.url);
    await page.keyboard.press('Escape');
    await openChat(page, 'DeepSeek · script-model');

    await context.setOffline(true);
    const question = '总结一下我今天的笔记';
    await askOffline(page, question);
    const failed = answers(page).first();
    await expect(failed.getByTestId('chat-error')).toHaveText('你现在离线。');
    await expect(failed.getByTestId('provider-offline-help')).toHaveText(
      'DeepSeek 需要网络连接；本地模型和笔记在离线时照常可用。',
    );
    await expect(failed).not.toContainText(/CORS|服务器|接口地址|暂不可用/);

    await context.setOffline(false);
    await askChat(page, question, 2);
    await expect(answers(page).nth(1)).toContainText('今天你写了地铁随记。');
  });
});
