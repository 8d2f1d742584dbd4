import { join } from 'node:path';
import { addScriptProvider } from './harness/agent-steps';
import { textStream, toolCallStream, toolMessages } from './harness/openai-script-server';
import { installPluginPackage, openPluginSettings, pluginItem, samplePackage } from './harness/plugin-steps';
import { expect, openApp, test } from './fixtures';
import type { Locator, Page } from '@playwright/test';

/** Installs a sample package from `e2e/plugins/<folder>` that needs no grant, settings or secret. */
async function installSample(page: Page, folder: string): Promise<Locator> {
  const plugin = await installPluginPackage(page, folder);
  await expect(plugin).toHaveAttribute('data-state', 'installed');
  return plugin;
}

test.describe('in Chinese', () => {
  test.use({ locale: 'zh-CN' });

  test('while a plugin tool waits for approval, the run names it by its title and its plugin', async ({
    page,
    scriptServer,
  }) => {
    const server = await scriptServer({
      reply: (body) =>
        toolMessages(body).length > 0
          ? textStream('共 3 个词。')
          : toolCallStream('word-counter__count', { text: '进程 调度 算法' }),
    });
    await openApp(page);
    const plugin = await installSample(page, 'word-counter');
    await plugin.getByTestId('plugin-enable').click();
    await expect(plugin).toHaveAttribute('data-state', 'enabled');
    await page.keyboard.press('Escape');
    await addScriptProvider(page, server.url);
    await page.getByTestId('nav-agent').click();
    await page.getByTestId('agent-model').selectOption({ label: 'Script · script-model' });

    await page.getByTestId('agent-input').fill('数一数“进程 调度 算法”有几个词');
    await page.getByTestId('agent-run').click();
    const permission = page.getByTestId('agent-permission');
    await expect(permission).toBeFocused();
    // The phase line speaks the user's words too (the prompt keeps only the permission id as a detail).
    await expect(page.getByTestId('agent-run-phase')).toHaveText(
      '正在等待你批准运行 插件“Word Counter”的“Count words”。',
    );
    await permission.getByTestId('permission-allow-once').click();
    await expect(page.getByTestId('agent-run-item').first()).toHaveAttribute('data-status', 'completed');
  });

  test('a plugin whose tool declares an invalid input schema says in Chinese which tool, what is wrong and what to do', async ({
    page,
  }) => {
    await openApp(page);
    const plugin = await installSample(page, 'bad-schema');
    await plugin.getByTestId('plugin-enable').click();
    await expect(plugin).toHaveAttribute('data-state', 'error');
    const error = plugin.getByTestId('plugin-error');
    await expect(error).toHaveAttribute('data-code', 'MCP_TOOL_SCHEMA_INVALID');
    await expect(error).toHaveText('插件提供的工具与其清单不符或无法使用，因此它的工具都没有添加。');
    await expect(plugin.getByTestId('plugin-error-problem')).toHaveText(
      '工具“lookup”描述输入参数所用的结构不是有效的 JSON Schema。',
    );
    await expect(plugin.getByTestId('plugin-error-next')).toHaveText(
      '只有插件作者发布修正后的版本才能解决：下方详情写明了出错的工具及原因。',
    );
    // A restart lists the same broken tool: the same words, and nothing was published.
    await plugin.getByTestId('plugin-restart').click();
    await expect(plugin.getByTestId('plugin-error-problem')).toHaveText(
      '工具“lookup”描述输入参数所用的结构不是有效的 JSON Schema。',
    );
    await expect(plugin).toHaveAttribute('data-state', 'error');

    // The stored plugin keeps what was wrong: after a reload the page still says which tool and why.
    await page.reload();
    const again = pluginItem(await openPluginSettings(page), 'bad-schema');
    await expect(again).toHaveAttribute('data-state', 'error');
    await expect(again.getByTestId('plugin-error-problem')).toHaveText(
      '工具“lookup”描述输入参数所用的结构不是有效的 JSON Schema。',
    );
  });

  test('enabling before the settings and secret are filled says in Chinese which fields, by their labels', async ({
    page,
  }) => {
    await openApp(page);
    const plugin = await installPluginPackage(page);
    await plugin.getByTestId('plugin-grant').click();
    await expect(plugin).toHaveAttribute('data-state', 'installed');
    const toasts = page.getByTestId('toast');

    await plugin.getByTestId('plugin-enable').click();
    await expect(toasts.filter({ hasText: '必填设置' })).toHaveText(
      '请先填写插件“Sample Greeter”的必填设置：Greeting。',
    );
    // An empty secret is refused by name, and nothing of the core's English reaches the screen.
    await plugin.getByTestId('plugin-secret-save').click();
    await expect(toasts.filter({ hasText: '密钥“API key”' })).toHaveText(
      '请先输入密钥“API key”：不能为空，也不能超过 16 KiB。',
    );
    await plugin.locator('#plugin-sample-greeter-greeting').fill('你好');
    await plugin.getByTestId('plugin-settings-save').click();
    await expect(toasts.filter({ hasText: '设置已保存' })).toBeVisible();
    await plugin.getByTestId('plugin-enable').click();
    await expect(toasts.filter({ hasText: '必填密钥' })).toHaveText(
      '请先保存插件“Sample Greeter”的必填密钥：API key。',
    );
    await expect(plugin).toHaveAttribute('data-state', 'installed');
    await expect(toasts.filter({ hasText: /Set the required|must be non-empty/ })).toHaveCount(0);
  });

  test('installing a plugin a second time says which one is in the way and how to replace it', async ({
    page,
  }) => {
    await openApp(page);
    const plugin = await installSample(page, 'word-counter');
    const section = page.getByTestId('plugin-settings');
    await section.getByTestId('plugin-install-input').setInputFiles({
      name: 'word-counter-copy.zip',
      mimeType: 'application/zip',
      buffer: samplePackage(join(process.cwd(), 'e2e/plugins/word-counter')),
    });
    const refusal = section.getByTestId('plugin-refusal');
    await expect(refusal).toHaveAttribute('data-code', 'PLUGIN_ALREADY_INSTALLED');
    await expect(refusal.locator('p').first()).toHaveText('已安装相同 ID 的插件。');
    await expect(refusal.getByTestId('plugin-refusal-next')).toHaveText(
      '已安装“Word Counter” 1.0.0。如要改为安装这个包，请先卸载它：它的设置和密钥会一并删除。',
    );
    // The installed one is left as it was.
    await expect(plugin).toHaveAttribute('data-state', 'installed');
  });
});
