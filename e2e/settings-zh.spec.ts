import type { BrowserContext, Page } from '@playwright/test';
import { dialogFitsTheWindow, expect, openApp, test } from './fixtures';

// Settings as a Chinese-speaking user meets them: every label in Chinese, provider errors that
// say what to fix, a model host that refuses a bad value at the field, model names in one language.

/** A provider address this spec answers itself (fulfilled in the page, not a real host). */
const PROVIDER = 'http://provider.notes-agent.test';

/**
 * Answers the provider addresses the tests type: `/badkey/…` refuses the key (401), any other
 * path has no model list (404). Both with CORS, as a real provider's error would come.
 * (A helper here rather than in e2e/harness, which this spec may not change.)
 */
async function routeProvider(context: BrowserContext): Promise<string[]> {
  const seen: string[] = [];
  const cors = {
    'access-control-allow-origin': '*',
    'access-control-allow-headers': 'authorization, content-type, accept',
  };
  await context.route(`${PROVIDER}/**`, async (route) => {
    const request = route.request();
    seen.push(request.url());
    if (request.method() === 'OPTIONS') return route.fulfill({ status: 204, headers: cors });
    const badKey = new URL(request.url()).pathname.startsWith('/badkey/');
    return route.fulfill({
      status: badKey ? 401 : 404,
      headers: { ...cors, 'content-type': 'application/json' },
      body: JSON.stringify({
        error: badKey
          ? { message: 'Authentication Fails, Your api key is invalid', type: 'authentication_error' }
          : { message: 'Not Found' },
      }),
    });
  });
  return seen;
}

/** Opens the app at a Settings page by its address (as a bookmark or an error's link would). */
async function openSettingsPage(page: Page, id: string): Promise<void> {
  await openApp(page, `/#/settings/${id}`);
  await expect(page.getByTestId(`settings-page-${id}`)).toBeVisible();
}

test.describe('in Chinese', () => {
  test.use({ locale: 'zh-CN' });

  test('the provider form speaks Chinese: preset names and the address label', async ({ page }) => {
    await openSettingsPage(page, 'providers');
    const section = page.getByTestId('provider-settings');
    // The provider every install starts with keeps its preset name: shown in Chinese.
    const mockName = section.locator('[data-provider-id="mock"] .provider-name');
    await expect(mockName).toContainText('模拟（脚本演示）');
    // Its name says it is the mock: no badge saying "模拟" again.
    await expect(mockName.getByTestId('provider-mock-badge')).toHaveCount(0);
    await expect(mockName).not.toContainText('模拟（脚本演示） 模拟');
    await section.getByTestId('provider-add').click();
    const presets = section.getByTestId('provider-preset').locator('option');
    await expect(presets).toHaveText([
      '模拟（脚本演示）',
      'DeepSeek',
      'Agnes AI',
      'OpenAI',
      'OpenAI 兼容接口',
      'Anthropic',
      'Ollama',
    ]);
    // A key is asked for as optional where the preset needs none (Ollama).
    await section.getByTestId('provider-preset').selectOption('ollama');
    const keyLabel = section.locator('label.field').filter({ has: page.getByTestId('provider-api-key') });
    await expect(keyLabel).toContainText('API 密钥（可选）');
    await section.getByTestId('provider-preset').selectOption('deepseek');
    await expect(keyLabel).toContainText('API 密钥');
    await expect(keyLabel).not.toContainText('可选');
    await section.getByTestId('provider-preset').selectOption('custom');
    await expect(section.getByTestId('provider-name')).toHaveValue('OpenAI 兼容接口');
    await expect(
      section.locator('label.field').filter({ has: page.getByTestId('provider-base-url') }),
    ).toContainText('接口地址');

    // Saved with its name untouched, the name keeps following the UI's language.
    await section.getByTestId('provider-cancel').click();
    await section.locator('[data-provider-id="mock"]').getByTestId('provider-edit').click();
    await expect(section.getByTestId('provider-name')).toHaveValue('模拟（脚本演示）');
    // The mock has no address field; its test and its save used to fail as invalid input.
    await section.getByTestId('provider-test').click();
    await expect(section.getByTestId('provider-test-result')).toHaveAttribute('data-ok', 'true');
    await section.getByTestId('provider-save').click();
    await expect(section.getByTestId('provider-add')).toBeVisible();
    await page.getByTestId('settings-nav-general').click();
    await page.getByTestId('locale-select').selectOption('en');
    await page.getByTestId('settings-nav-providers').click();
    await expect(section.locator('[data-provider-id="mock"] .provider-name')).toContainText(
      'Mock (scripted demo)',
    );
  });

  test('a provider test that fails says which field to fix and how', async ({
    page,
    context,
    scriptServer,
  }) => {
    const seen = await routeProvider(context);
    const server = await scriptServer();
    await openSettingsPage(page, 'providers');
    const section = page.getByTestId('provider-settings');
    await section.getByTestId('provider-add').click();
    await section.getByTestId('provider-preset').selectOption('deepseek');
    const url = section.getByTestId('provider-base-url');
    const result = section.getByTestId('provider-test-result');
    const advice = section.getByTestId('provider-test-advice');

    // An address without http(s):// is refused at the field, before anything is sent.
    await url.fill('api.deepseek.com');
    await expect(section.getByTestId('provider-base-url-error')).toHaveText(
      '请输入以 http:// 或 https:// 开头的地址，例如 https://api.deepseek.com/v1。',
    );
    await expect(url).toHaveAttribute('aria-invalid', 'true');
    await section.getByTestId('provider-test').click();
    await expect(url).toBeFocused();
    await expect(result).toHaveCount(0);

    // A refused key: say so, and what to check.
    await url.fill(`${PROVIDER}/badkey/v1`);
    await expect(section.getByTestId('provider-base-url-error')).toHaveCount(0);
    await section.getByTestId('provider-api-key').fill('sk-wrong');
    await section.getByTestId('provider-test').click();
    await expect(result).toHaveText('测试失败：DeepSeek 拒绝了这个 API 密钥。');
    await expect(advice).toContainText('请重新完整粘贴密钥');

    // No model list at the address: the address is wrong, not the model.
    await url.fill(`${PROVIDER}/wrong`);
    await section.getByTestId('provider-test').click();
    await expect(result).toHaveText(`测试失败：${PROVIDER}/wrong 返回“未找到”：该地址下没有模型列表。`);
    await expect(advice).toContainText('/v1');
    expect(seen.some((seenUrl) => seenUrl.startsWith(`${PROVIDER}/wrong`))).toBe(true);

    // The working server: connected; saved; the key never comes back into the page.
    await url.fill(`${server.url}/v1`);
    await section.getByTestId('provider-api-key').fill('sk-working-secret');
    await section.getByTestId('provider-test').click();
    await expect(result).toHaveAttribute('data-ok', 'true');
    await expect(advice).toHaveCount(0);
    await section.getByTestId('provider-save').click();
    await expect(section.getByTestId('provider-item')).toHaveCount(2);
    await page.reload();
    await expect(page.getByTestId('settings-page-providers')).toBeVisible();
    const saved = section.getByTestId('provider-item').filter({ hasText: 'DeepSeek' });
    await saved.getByTestId('provider-edit').click();
    await expect(section.getByTestId('provider-base-url')).toHaveValue(`${server.url}/v1`);
    await expect(section.getByTestId('provider-api-key')).toHaveValue('');
    await expect(section).toContainText('已保存密钥');
    expect(await page.content()).not.toContain('sk-working-secret');
  });

  test('a model host no download could use is refused at the field, and nothing is saved', async ({
    page,
  }) => {
    await openSettingsPage(page, 'local-models');
    const host = page.getByTestId('model-host');
    await expect(host).toHaveValue('');
    await host.fill('ftp://mirror.example/models');
    await page.getByTestId('model-host-save').click();
    await expect(page.getByTestId('model-host-error')).toHaveText(
      '下载源必须是 http:// 或 https:// 地址，或本应用上的路径（如 /models/）。 例如 https://hf-mirror.com/ 或 /models/。本次未保存任何更改。',
    );
    await expect(host).toHaveAttribute('aria-invalid', 'true');
    await expect(host).toBeFocused();
    // Typing again clears the complaint; a good value saves.
    await host.fill('https://hf-mirror.com');
    await expect(page.getByTestId('model-host-error')).toHaveCount(0);
    await page.getByTestId('model-host-save').click();
    await expect(page.getByTestId('model-host-saved')).toBeVisible();
    await page.reload();
    await expect(page.getByTestId('settings-page-local-models')).toBeVisible();
    await expect(page.getByTestId('model-host')).toHaveValue('https://hf-mirror.com/');
  });

  test('search models are named in one language, and the page says where they download from', async ({
    page,
  }) => {
    await openSettingsPage(page, 'search');
    const options = page.locator(
      '[data-testid="embedding-model"] option, [data-testid="reranker-model"] option',
    );
    await expect(options.first()).toBeAttached();
    const texts = await options.allTextContents();
    expect(texts.filter((text) => text.includes('English'))).toEqual([]);
    expect(texts).toContain('BGE small zh v1.5（以中文为主） · 512 维 · 约 25 MB');
    expect(texts).toContain('MS MARCO MiniLM-L6（仅英文） · 约 23 MB');
    // The host is not on this page: a link leads to it instead of "the host above".
    await expect(page.getByTestId('reranker-settings')).not.toContainText('上方');
    await page.getByTestId('search-model-host-link').click();
    await expect(page.getByTestId('settings-page-local-models')).toBeVisible();
    await expect(page.getByTestId('model-host')).toBeVisible();

    // Back in English, no Chinese is left in the model names.
    await page.getByTestId('settings-nav-general').click();
    await page.getByTestId('locale-select').selectOption('en');
    await page.getByTestId('settings-nav-search').click();
    await expect(page.getByTestId('embedding-model').locator('option').nth(3)).toHaveText(
      'BGE small zh v1.5 (mainly Chinese) · 512 dimensions · about 25 MB',
    );
    const english = await options.allTextContents();
    expect(english.filter((text) => /[\u4e00-\u9fff]/.test(text))).toEqual([]);
  });

  test('with only the keyboard, the provider form takes focus and gives it back', async ({ page }) => {
    await openSettingsPage(page, 'providers');
    const section = page.getByTestId('provider-settings');
    await section.getByTestId('provider-add').focus();
    await page.keyboard.press('Enter');
    // The Add button is gone: focus is in the form, not on the page's body.
    await expect(section.getByTestId('provider-preset')).toBeFocused();
    await section.getByTestId('provider-cancel').focus();
    await page.keyboard.press('Enter');
    await expect(section.getByTestId('provider-add')).toBeFocused();
    await section.locator('[data-provider-id="mock"]').getByTestId('provider-edit').focus();
    await page.keyboard.press('Enter');
    await expect(section.getByTestId('provider-name')).toBeFocused();
  });

  test('an autosave delay out of range says the range instead of snapping back silently', async ({
    page,
  }) => {
    await openSettingsPage(page, 'general');
    const delay = page.getByTestId('autosave-delay');
    const hint = page.getByTestId('autosave-delay-hint');
    await expect(hint).toHaveText('200 到 10000 毫秒：停止输入多久后保存笔记。');
    const stored = await delay.inputValue();
    await delay.fill('50');
    await delay.press('Tab');
    await expect(hint).toHaveText(`请输入 200 到 10000 之间的数字。延迟仍为 ${stored} 毫秒。`);
    await expect(delay).toHaveValue(stored);
    await expect(delay).toHaveAttribute('aria-invalid', 'true');
    await delay.fill('3000');
    await delay.press('Tab');
    await expect(hint).toHaveAttribute('data-refused', 'false');
    await page.reload();
    await expect(page.getByTestId('autosave-delay')).toHaveValue('3000');
  });

  test.describe('on a phone', () => {
    test.use({ viewport: { width: 390, height: 844 } });

    test('provider errors and their advice fit the screen', async ({ page, context }) => {
      await routeProvider(context);
      await openSettingsPage(page, 'providers');
      const section = page.getByTestId('provider-settings');
      await section.getByTestId('provider-add').click();
      await section.getByTestId('provider-preset').selectOption('deepseek');
      await section.getByTestId('provider-base-url').fill(`${PROVIDER}/a-rather-long-path/that-is-wrong/v1`);
      await section.getByTestId('provider-test').click();
      await expect(section.getByTestId('provider-test-advice')).toBeVisible();
      expect(await dialogFitsTheWindow(page)).toBe(true);
    });
  });
});
