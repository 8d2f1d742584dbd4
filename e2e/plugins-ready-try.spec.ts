import { installPluginZip, workerPluginZip } from './harness/plugin-steps';
import { expect, openApp, test } from './fixtures';

/** A worker plugin with one tool, `fails`, that runs and throws `message`. */
function throwingPlugin(id: string, message: string): Buffer {
  return workerPluginZip({
    id,
    contributes: ['fails'],
    tools: "[{ name: 'fails', description: 'Fails.', inputSchema: { type: 'object', properties: {} } }]",
    call: `throw new Error(${JSON.stringify(message)});`,
  });
}

test('Try on a tool that ran and threw says it ran and reported that error, not that it did not run', async ({
  page,
}) => {
  await openApp(page);
  const plugin = await installPluginZip(
    page,
    'thrower',
    throwingPlugin('thrower', 'the index is not built yet'),
  );
  await expect(plugin).toHaveAttribute('data-state', 'installed');
  await plugin.getByTestId('plugin-enable').click();
  await expect(plugin).toHaveAttribute('data-state', 'enabled');
  await plugin.getByTestId('plugin-tool-try').click();
  await expect(plugin.getByTestId('plugin-tool-failed')).toHaveText(
    'The tool ran and reported an error: the index is not built yet',
  );
});
