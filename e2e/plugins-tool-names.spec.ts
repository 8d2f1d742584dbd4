import { installPluginZip } from './harness/plugin-steps';
import { workerPluginZip } from './harness/plugin-tools-steps';
import { switchLanguage } from './harness/language-steps';
import { expect, openApp, test } from './fixtures';
import { closeSettings } from './harness/close-settings';

const citePlugin = workerPluginZip({
  id: 'anna-tools',
  name: "Anna's tools",
  tools: [
    {
      name: 'cite',
      title: 'Cite a paper',
      description: 'Formats a citation for a DOI.',
      call: "return { content: [{ type: 'text', text: 'cited' }] };",
    },
  ],
});

test("the Agent view's tool list names a plugin's tool by its title, with its id beside it, in English and Chinese", async ({
  page,
}) => {
  await openApp(page);
  const plugin = await installPluginZip(page, 'anna-tools', citePlugin);
  await expect(plugin).toHaveAttribute('data-state', 'installed');
  await plugin.getByTestId('plugin-enable').click();
  await expect(plugin).toHaveAttribute('data-state', 'enabled');
  // Settings → Plugins gives the same title before the id.
  await expect(plugin.getByTestId('plugin-tool-title')).toHaveText('Cite a paper');
  await page.keyboard.press('Escape');

  await page.getByTestId('nav-agent').click();
  await page.getByTestId('agent-capabilities').locator('summary').click();
  const tool = page.locator('[data-testid="agent-tool"][data-tool="anna-tools.cite"]');
  await expect(tool.getByTestId('agent-tool-name')).toHaveText(
    "“Cite a paper” from the plugin “Anna's tools”",
  );
  await expect(tool.getByTestId('agent-tool-id')).toHaveText('anna-tools.cite');
  await expect(tool).toContainText('Formats a citation for a DOI.');
  // A built-in tool goes by what it does too.
  const search = page.locator('[data-testid="agent-tool"][data-tool="notes.search"]');
  await expect(search.getByTestId('agent-tool-name')).toHaveText('Search notes');

  await switchLanguage(page, 'zh-CN');
  await page.getByTestId('nav-agent').click();
  await expect(tool.getByTestId('agent-tool-name')).toHaveText("插件“Anna's tools”的“Cite a paper”");
  await expect(tool.getByTestId('agent-tool-id')).toHaveText('anna-tools.cite');
});

test('after a reload, Settings → Agent names the plugin tool it switches by its title, with its id beside it', async ({
  page,
}) => {
  await openApp(page);
  const plugin = await installPluginZip(page, 'anna-tools', citePlugin);
  await plugin.getByTestId('plugin-enable').click();
  await expect(plugin).toHaveAttribute('data-state', 'enabled');
  await closeSettings(page);

  await page.reload();
  await expect(page.getByTestId('note-list')).toBeVisible();
  // The plugin starts again in the background: its tool is listed once it is ready.
  await page.getByTestId('nav-agent').click();
  await page.getByTestId('agent-capabilities').locator('summary').click();
  await expect(page.locator('[data-testid="agent-tool"][data-tool="anna-tools.cite"]')).toBeVisible();
  await page.getByTestId('open-settings').click();
  await page.getByTestId('settings-nav-agent').click();
  const choice = page.locator('[data-testid="agent-tool-choice"][data-tool="anna-tools.cite"]');
  await expect(choice.getByTestId('agent-tool-choice-name')).toHaveText(
    "“Cite a paper” from the plugin “Anna's tools”",
  );
  await expect(choice.getByTestId('agent-tool-choice-id')).toHaveText('anna-tools.cite');
});
