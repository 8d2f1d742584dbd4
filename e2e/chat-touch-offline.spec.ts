import type { Locator, Page } from '@playwright/test';
import { createNote, expect, openApp, test, waitForServiceWorker } from './fixtures';
import { askNotes, openChat } from './harness/chat-steps';
import { addDeepSeek } from './harness/deepseek-provider';
import { holdCore, installCoreHold, releaseCore } from './harness/core-hold';
import { startHeldStreamServer } from './harness/held-stream-server';
import { reachableWireServers } from './harness/wire-server';
// @ts-expect-error plain ESM helper shared with playwright.config.ts
import { CHROMIUM_ARGS, findSystemChromium } from '../scripts/system-chromium.mjs';

/**
 * Chat on a slow start, on a touch tablet and on the subway: the model picker says it is
 * loading until it knows the choice (Send waits with it); the switches and an inline "[1]"
 * are fingertip targets; an answer cut off by going offline says the user is offline.
 */

const reach = reachableWireServers(test);

const executablePath: string | undefined = findSystemChromium();

test.use({
  // A provider on this machine needs no network, so its failure is never "offline": the held
  // server gets a name of its own for the offline tests, which the browser resolves to it.
  launchOptions: {
    ...(executablePath && { executablePath }),
    args: [...(CHROMIUM_ARGS as string[]), '--host-resolver-rules=MAP deepseek.test 127.0.0.1'],
  },
});

/** Opens the app with the core's answers held back from then on, once the notebook has started. */
async function openAppThenHoldCore(page: Page): Promise<void> {
  await installCoreHold(page);
  await openApp(page);
  // The start-up's own reads (the note list among them) have landed: only the Chat's are held.
  await expect(page.getByTestId('note-list')).not.toContainText(/Loading notes|正在打开笔记本/);
  await holdCore(page);
}

async function boxOf(locator: Locator): Promise<{ width: number; height: number }> {
  const box = await locator.boundingBox();
  expect(box, 'the element is laid out').not.toBeNull();
  return box!;
}

test('while the providers load, the picker says so and Send waits; then the saved choice shows', async ({
  page,
}) => {
  await openAppThenHoldCore(page);
  await page.getByTestId('nav-chat').click();
  const picker = page.getByTestId('chat-model');
  await expect(picker).toBeDisabled();
  await expect(picker).toHaveAttribute('aria-busy', 'true');
  await expect(picker.locator('option')).toHaveText(['Loading models…']);
  await page.getByTestId('chat-input').fill('Hello');
  await expect(page.getByTestId('chat-send')).toBeDisabled();
  // "No model is set up" would be untrue while the lists are being read.
  await expect(page.getByTestId('chat-empty')).toHaveCount(0);

  await releaseCore(page);
  await expect(picker).toBeEnabled();
  await expect(picker).toHaveAttribute('aria-busy', 'false');
  await expect(picker.locator('option:checked')).toContainText('mock');
  await expect(page.getByTestId('chat-send')).toBeEnabled();
  await expect(page.getByTestId('chat-empty')).toBeVisible();
});

test.describe('in Chinese, while loading', () => {
  test.use({ locale: 'zh-CN' });

  test('the picker says 正在加载模型…', async ({ page }) => {
    await openAppThenHoldCore(page);
    await page.getByTestId('nav-chat').click();
    await expect(page.getByTestId('chat-model').locator('option')).toHaveText(['正在加载模型…']);
    await releaseCore(page);
    await expect(page.getByTestId('chat-model')).toBeEnabled();
  });
});

test.describe('on a touch tablet', () => {
  test.use({ viewport: { width: 1180, height: 820 }, isMobile: true, hasTouch: true, locale: 'zh-CN' });

  test('the notes and memory switches and an inline [1] are fingertip targets', async ({ page }) => {
    await openApp(page);
    expect(await page.evaluate(() => matchMedia('(hover: none)').matches)).toBe(true);
    await createNote(page, '旅行计划', 'The quokkaberry festival takes place every March in Wellington.');
    const answer = await askNotes(page, 'When is the quokkaberry festival?');

    const useNotes = page.locator('label', { has: page.getByTestId('chat-use-notes') });
    const memory = page.locator('label', { has: page.getByTestId('chat-memory-toggle') });
    await expect(useNotes).toContainText('使用我的笔记');
    await expect(memory).toContainText('记忆');
    for (const label of [useNotes, memory]) {
      const box = await boxOf(label);
      expect(box.height).toBeGreaterThanOrEqual(44);
      expect(box.width).toBeGreaterThanOrEqual(44);
    }

    // A tap on the label's edge, off the box itself, still ticks it.
    const box = page.getByTestId('chat-use-notes');
    const before = await box.isChecked();
    const label = await boxOf(useNotes);
    await useNotes.tap({ position: { x: label.width - 4, y: 3 } });
    await expect(box).toBeChecked({ checked: !before });

    const citation = answer.getByTestId('chat-answer').locator('a[href^="#citation-"]').first();
    await expect(citation).toHaveText('[1]');
    const target = await boxOf(citation);
    expect(target.height).toBeGreaterThanOrEqual(44);
    expect(target.width).toBeGreaterThanOrEqual(44);
    await citation.tap();
    await expect(page.getByTestId('note-title')).toHaveValue('旅行计划');
  });
});

test('at a desk the switches keep their size', async ({ page }) => {
  await openApp(page);
  await page.getByTestId('nav-chat').click();
  const useNotes = page.locator('label', { has: page.getByTestId('chat-use-notes') });
  await expect(useNotes).toBeVisible();
  expect((await boxOf(useNotes)).height).toBeLessThan(32);
  expect((await boxOf(page.getByTestId('chat-use-notes'))).height).toBeLessThan(20);
});

async function goOffline(page: Page): Promise<void> {
  await page.context().setOffline(true);
  await expect.poll(() => page.evaluate(() => navigator.onLine)).toBe(false);
}

test.describe('offline', () => {
  // The app's code must still load with the network off.
  test.use({ serviceWorkers: 'allow' });

  test('an answer cut off by going offline says the user is offline, not that the stream broke', async ({
    page,
    context,
  }) => {
    const held = await startHeldStreamServer('The subway notes say');
    await reach(context, Promise.resolve(held));
    await openApp(page);
    await waitForServiceWorker(page);
    await addDeepSeek(page, held.url);
    await page.keyboard.press('Escape');
    await openChat(page, 'DeepSeek · script-model');
    await page.getByTestId('chat-input').fill('Summarise my notes from today');
    await page.getByTestId('chat-send').click();
    const answer = page.locator('[data-testid="chat-message"][data-role="assistant"]').last();
    await expect(answer.getByTestId('chat-answer')).toHaveText('The subway notes say');
    await expect(answer).toHaveAttribute('data-status', 'streaming');

    await goOffline(page);
    held.cut();
    await expect(answer).toHaveAttribute('data-status', 'failed');
    await expect(answer.getByTestId('chat-error')).toHaveText("You're offline.");
    await expect(answer.getByTestId('provider-offline-help')).toHaveText(
      'DeepSeek needs a connection; local models and your notes work offline.',
    );
    await expect(answer).not.toContainText(/interrupted/i);
    await expect(page.getByTestId('chat-retry')).toBeVisible();
  });

  test.describe('in Chinese', () => {
    test.use({ locale: 'zh-CN' });

    test('Test connection offline says 你现在离线 and names no server, CORS or URL cause', async ({
      page,
      context,
    }) => {
      const held = await startHeldStreamServer('不会用到');
      await reach(context, Promise.resolve(held));
      await openApp(page);
      await waitForServiceWorker(page);
      await addDeepSeek(page, held.url);
      await page
        .locator('[data-testid="provider-item"][data-provider-id="deepseek"]')
        .getByTestId('provider-edit')
        .click();

      await goOffline(page);
      await page.getByTestId('provider-test').click();
      const result = page.getByTestId('provider-test-result');
      await expect(result).toHaveAttribute('data-ok', 'false');
      await expect(result).toHaveText('测试失败：你现在离线。');
      await expect(page.getByTestId('provider-test-offline')).toHaveText(
        'DeepSeek 需要网络连接；本地模型和笔记在离线时照常可用。',
      );
      await expect(page.getByTestId('provider-test-help')).toHaveCount(0);
      await expect(page.getByTestId('provider-test-outcome')).not.toContainText(
        /CORS|服务器|接口地址|暂不可用/,
      );
      expect(held.requests).toHaveLength(0);
    });
  });
});
