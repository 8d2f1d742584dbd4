import type { BrowserContext, Page } from '@playwright/test';
import { expect, openApp, test } from './fixtures';

// A Chinese-speaking user's providers outside Settings: a provider left with its preset's name is
// named in Chinese in every picker and link, and a refused key says what to fix and where.

test.use({ locale: 'zh-CN' });

/** A provider address this spec answers itself: every request is refused as a bad key (401). */
const PROVIDER = 'http://badkey.notes-agent.test/v1';

async function refuseEveryKey(context: BrowserContext): Promise<void> {
  const cors = {
    'access-control-allow-origin': '*',
    'access-control-allow-headers': 'authorization, content-type, accept',
  };
  await context.route(`${PROVIDER}/**`, (route) =>
    route.request().method() === 'OPTIONS'
      ? route.fulfill({ status: 204, headers: cors })
      : route.fulfill({
          status: 401,
          headers: { ...cors, 'content-type': 'application/json' },
          body: JSON.stringify({
            error: { message: 'Incorrect API key provided', type: 'invalid_request_error' },
          }),
        }),
  );
}

/** Adds an OpenAI-compatible provider, its name left as the preset gives it. */
async function addUnnamedProvider(page: Page, baseUrl: string, model: string): Promise<void> {
  await page.getByTestId('open-settings').click();
  await page.getByTestId('settings-nav-providers').click();
  await page.getByTestId('provider-add').click();
  await page.getByTestId('provider-preset').selectOption('custom');
  await expect(page.getByTestId('provider-name')).toHaveValue('OpenAI 兼容接口');
  await page.getByTestId('provider-base-url').fill(baseUrl);
  await page.getByTestId('provider-model').fill(model);
  await page.getByTestId('provider-api-key').fill('sk-wrong-key');
  await page.getByTestId('provider-save').click();
  await expect(page.locator('[data-testid="provider-item"][data-provider-id="custom"]')).toBeVisible();
  await page.keyboard.press('Escape');
}

test('a provider keeping its preset name is named in Chinese in Chat, the Agent and Benchmarks', async ({
  page,
  scriptServer,
}) => {
  const server = await scriptServer();
  await openApp(page);
  await addUnnamedProvider(page, `${server.url}/v1`, 'script-model');

  await page.getByTestId('nav-chat').click();
  const chatPicker = page.getByTestId('chat-model');
  await expect(chatPicker.locator('option', { hasText: 'script-model' })).toHaveText(
    'OpenAI 兼容接口 · script-model',
  );
  // The built-in demo is named once, in Chinese, not "Mock (scripted demo)（模拟）".
  await expect(chatPicker.locator('optgroup[label="模拟（脚本演示）"] option')).toHaveText([
    '模拟（脚本演示） · mock-1',
  ]);
  await expect(chatPicker).not.toContainText('Mock (scripted demo)');

  await page.getByTestId('nav-agent').click();
  await expect(page.getByTestId('agent-model').locator('option', { hasText: 'script-model' })).toHaveText(
    'OpenAI 兼容接口 · script-model',
  );

  await page.getByTestId('nav-benchmarks').click();
  await expect(page.getByTestId('benchmarks-view')).toHaveAttribute('data-ready', 'true');
  await expect(
    page.getByTestId('benchmarks-view').locator('option', { hasText: 'script-model' }).first(),
  ).toHaveText('OpenAI 兼容接口 · script-model');
});

test('a refused API key says which address refused it, what to check, and opens the provider', async ({
  page,
  context,
}) => {
  await refuseEveryKey(context);
  await openApp(page);
  await addUnnamedProvider(page, PROVIDER, 'some-model');

  await page.getByTestId('nav-chat').click();
  await page.getByTestId('chat-model').selectOption({ label: 'OpenAI 兼容接口 · some-model' });
  await page.getByTestId('chat-input').fill('你好');
  await page.getByTestId('chat-input').press('Enter');
  const answer = page.locator('[data-testid="chat-message"][data-role="assistant"]').last();
  await expect(answer).toHaveAttribute('data-status', 'failed');
  const help = answer.getByTestId('provider-error-help');
  await expect(help).toHaveAttribute('data-kind', 'providers.keyRefused');
  await expect(help).toContainText(`${PROVIDER} 不接受这个 API 密钥。`);
  await expect(help).toContainText('请从服务商的控制台重新复制粘贴');
  await expect(help.getByTestId('provider-error-settings')).toHaveText(
    '在 设置 → AI 服务 中打开 OpenAI 兼容接口',
  );
  await help.getByTestId('provider-error-settings').click();
  await expect(page.getByTestId('settings-page-providers')).toBeVisible();
  await expect(page.locator('[data-testid="provider-item"][data-provider-id="custom"]')).toBeVisible();
  await page.keyboard.press('Escape');

  // The agent's failed run gives the same way out.
  await page.getByTestId('nav-agent').click();
  await page.getByTestId('agent-model').selectOption({ label: 'OpenAI 兼容接口 · some-model' });
  await page.getByTestId('agent-input').fill('列出我的笔记');
  await page.getByTestId('agent-run').click();
  await expect(page.getByTestId('agent-run-error')).toHaveAttribute('data-code', 'PROVIDER_AUTH_FAILED');
  const runHelp = page.getByTestId('agent-timeline').getByTestId('provider-error-help');
  await expect(runHelp).toContainText(`${PROVIDER} 不接受这个 API 密钥。`);
  await runHelp.getByTestId('provider-error-settings').click();
  await expect(page.getByTestId('settings-page-providers')).toBeVisible();
});
