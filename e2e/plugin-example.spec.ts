import { readFileSync } from 'node:fs';
import { strFromU8, unzipSync } from 'fflate';
import { addScriptProvider } from './harness/agent-steps';
import { textStream, toolCallStream, toolMessages } from './harness/openai-script-server';
import { openPluginSettings, pluginItem } from './harness/plugin-steps';
import { expect, openApp, test } from './fixtures';

// Someone who wants to write a plugin starts from the example the app hands out: it installs as
// it is and works, and its files say how a plugin is made.

test.use({ locale: 'zh-CN' });

test('the example plugin downloads from Settings → Plugins, installs as it is, and the agent counts words with it', async ({
  page,
  scriptServer,
}) => {
  const server = await scriptServer({
    // The model asks for the tool, then answers with what the tool said.
    reply: (body) => {
      const results = toolMessages(body);
      return results.length > 0
        ? textStream(`统计结果：${results[0]?.content ?? ''}`)
        : toolCallStream('example-word-count__count', { text: '进程调度 and round-robin threads' });
    },
  });
  await openApp(page);
  const section = await openPluginSettings(page);
  await expect(section.getByTestId('plugins-empty')).toContainText('下载示例插件看看');

  const download = page.waitForEvent('download');
  await section.getByRole('button', { name: '下载示例插件' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toBe('notesagent-example-plugin.zip');
  const path = await file.path();
  const entries = unzipSync(new Uint8Array(readFileSync(path)));
  const manifest = strFromU8(entries['example-word-count/plugin.yaml']!);
  expect(manifest).toContain('一个示例插件');
  expect(strFromU8(entries['example-word-count/server.js']!)).toContain('CallToolRequestSchema');

  await section.getByTestId('plugin-install-input').setInputFiles(path);
  const plugin = pluginItem(section, 'example-word-count');
  await expect(plugin).toHaveAttribute('data-state', 'installed');
  await plugin.getByTestId('plugin-enable').click();
  await expect(plugin).toHaveAttribute('data-state', 'enabled');
  await page.keyboard.press('Escape');

  await addScriptProvider(page, server.url);
  await page.getByTestId('nav-agent').click();
  await page.getByTestId('agent-model').selectOption({ label: 'Script · script-model' });
  await page.getByTestId('agent-input').fill('数一数这段话有几个词');
  await page.getByTestId('agent-run').click();
  const permission = page.getByTestId('agent-permission');
  await expect(permission).toBeFocused();
  await permission.getByTestId('permission-allow-once').click();
  await expect(page.getByTestId('agent-run-item').first()).toHaveAttribute('data-status', 'completed');
  // 4 Chinese characters, "and", "round-robin" and "threads": the plugin's own count.
  await expect(page.getByTestId('agent-tool-result').first()).toContainText('7 words');
  await expect(page.getByTestId('agent-timeline').locator('[data-event="RunCompleted"]')).toContainText(
    '统计结果：7 words',
  );
});
