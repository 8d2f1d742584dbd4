import { zipSync, strToU8 } from 'fflate';
import { addScriptProvider, expectBrokenSearchThenRecovery, pickScriptModel } from './harness/agent-steps';
import { textStream, toolCallStream, toolMessages } from './harness/openai-script-server';
import { installPluginZip } from './harness/plugin-steps';
import { expect, openApp, test } from './fixtures';
import type { Page } from '@playwright/test';

/** One streamed function call whose arguments are sent exactly as given (valid JSON or not). */
function rawToolCallStream(name: string, args: string): string {
  const chunk = (delta: Record<string, unknown>, finish: string | null) =>
    `data: ${JSON.stringify({ id: 'x', object: 'chat.completion.chunk', model: 'script-model', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
  const open = { index: 0, id: 'call_bad', type: 'function', function: { name, arguments: '' } };
  return (
    chunk({ role: 'assistant', content: null, tool_calls: [open] }, null) +
    chunk({ tool_calls: [{ index: 0, function: { arguments: args } }] }, null) +
    chunk({}, 'tool_calls') +
    'data: [DONE]\n\n'
  );
}

/** The timeline's rows in order, each as its event and, for a tool call, the tool's name. */
async function timelineRows(page: Page): Promise<string[]> {
  return page
    .getByTestId('agent-timeline')
    .locator('[data-testid="agent-event"]')
    .evaluateAll((rows) =>
      rows.map((row) => {
        const event = row.getAttribute('data-event') ?? '';
        const name = event === 'ToolCall' ? (row.querySelector('strong')?.textContent ?? '') : '';
        return name ? `${event} ${name.trim()}` : event;
      }),
    );
}

async function runAgent(page: Page, prompt: string): Promise<void> {
  await page.getByTestId('agent-input').fill(prompt);
  await page.getByTestId('agent-run').click();
}

test('a tool call whose arguments are not JSON goes back to the model as a tool error, and the run recovers', async ({
  page,
  scriptServer,
}) => {
  const server = await scriptServer({
    reply: (body) => {
      const results = toolMessages(body);
      if (results.length === 0) return rawToolCallStream('notes__search', '{"query": "Alpha",,');
      if (results.length === 1) return toolCallStream('notes__search', { query: 'Alpha' });
      return textStream('Nothing about Alpha yet.');
    },
  });
  await openApp(page);
  await addScriptProvider(page, server.url);
  await pickScriptModel(page);
  await runAgent(page, 'Find my Alpha notes');

  await expectBrokenSearchThenRecovery(page, '{"query": "Alpha",,');

  // The model was told what was wrong, with the parser's reason, so that it could retry.
  const told = toolMessages(server.bodies[1]!).at(-1)?.content ?? '';
  expect(told).toContain('The arguments of notes.search were not valid JSON');
  expect(told).toContain('You sent: {"query": "Alpha",,');
});

test('the permission question and its answer come before the tool call they let run, and the prompt says the folder', async ({
  page,
  scriptServer,
}) => {
  const server = await scriptServer({
    reply: (body) =>
      toolMessages(body).length === 0
        ? toolCallStream('notes__create', {
            title: 'Alpha summary',
            body: 'Alpha is on track.',
            folder: 'Projects/Alpha',
          })
        : textStream('Created the summary.'),
  });
  await openApp(page);
  await addScriptProvider(page, server.url);
  await pickScriptModel(page);
  await runAgent(page, 'Write an Alpha summary into Projects/Alpha');

  const permission = page.getByTestId('agent-permission');
  await expect(permission.getByTestId('permission-diff')).toContainText('+++ b/Projects/Alpha/Alpha summary');
  await expect(permission.getByTestId('permission-summary')).toHaveText(
    'Create the note “Alpha summary” in the folder “Projects/Alpha”.',
  );
  // While the question waits, it shows above the call it holds.
  await expect
    .poll(() => timelineRows(page))
    .toEqual(['RunStarted', 'ModelCallStarted', 'PermissionRequired', 'ToolCall Tool Create notes']);
  await permission.getByTestId('permission-allow-once').click();

  await expect(page.getByTestId('agent-run-item').first()).toHaveAttribute('data-status', 'completed');
  expect(await timelineRows(page)).toEqual([
    'RunStarted',
    'ModelCallStarted',
    'PermissionRequired',
    'PermissionResolved',
    'ToolCall Tool Create notes',
    'ModelCallStarted',
    'RunCompleted',
  ]);
});

/** A plugin whose tools fail: one throws, one answers with more than the transport carries. */
function faultyPluginZip(): Buffer {
  const manifest = [
    'id: faulty-tools',
    'name: Faulty Tools',
    'version: 0.1.0',
    'description: Tools that fail.',
    'backend:',
    '  type: mcp',
    '  transport: worker',
    '  entry: server.js',
    'contributes:',
    '  tools: [faulty-tools.boom, faulty-tools.huge]',
    '',
  ].join('\n');
  const server = `export default function createServer({ Server, ListToolsRequestSchema, CallToolRequestSchema }) {
  const server = new Server({ name: 'faulty-tools', version: '0.1.0' }, { capabilities: { tools: {} } });
  const inputSchema = { type: 'object', properties: {} };
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: [
      { name: 'boom', description: 'Throws.', inputSchema },
      { name: 'huge', description: 'Answers with 3 MB.', inputSchema },
    ],
  }));
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    if (request.params.name === 'boom') throw new Error('kaboom');
    return { content: [{ type: 'text', text: 'x'.repeat(3 * 1024 * 1024) }] };
  });
  return server;
}
`;
  return Buffer.from(zipSync({ plugin: { 'plugin.yaml': strToU8(manifest), 'server.js': strToU8(server) } }));
}

test('a failing plugin tool shows its error code, and a result too large for the transport says why and what to do', async ({
  page,
  scriptServer,
}) => {
  const server = await scriptServer({
    reply: (body) => {
      const results = toolMessages(body);
      if (results.length === 0) return toolCallStream('faulty-tools__boom', {});
      if (results.length === 1) return toolCallStream('faulty-tools__huge', {});
      return textStream('Both plugin tools failed.');
    },
  });
  await openApp(page);
  const plugin = await installPluginZip(page, 'faulty-tools', faultyPluginZip());
  await expect(plugin).toHaveAttribute('data-state', 'installed');
  await plugin.getByTestId('plugin-enable').click();
  await expect(plugin).toHaveAttribute('data-state', 'enabled');
  await page.keyboard.press('Escape');
  await addScriptProvider(page, server.url);
  await pickScriptModel(page);
  await runAgent(page, 'Use the faulty tools');

  const permission = page.getByTestId('agent-permission');
  const calls = page
    .getByTestId('agent-timeline')
    .locator('[data-testid="agent-event"][data-event="ToolCall"]');
  await permission.getByTestId('permission-allow-once').click();
  const boom = calls.first();
  await expect(boom.locator('[data-status]')).toHaveAttribute('data-status', 'error');
  await expect(calls).toHaveCount(2);
  await permission.getByTestId('permission-allow-once').click();

  await expect(page.getByTestId('agent-run-item').first()).toHaveAttribute('data-status', 'completed');
  await expect(calls).toHaveCount(2);
  await expect(boom).toContainText('kaboom');
  await expect(boom.getByTestId('agent-error-code')).toHaveText('MCP_TOOL_CALL_FAILED');
  const huge = calls.nth(1);
  await expect(huge.getByTestId('agent-tool-result')).toContainText('a message is larger than 2097152 bytes');
  await expect(huge.getByTestId('agent-error-code')).toHaveText('PLUGIN_HOST_UNHEALTHY');
  await expect(huge.getByTestId('agent-tool-error')).toContainText(
    'Restart the plugin in Settings → Plugins',
  );

  // The model reads the same cause, code and next step.
  const told = toolMessages(server.bodies[2]!).at(-1)?.content ?? '';
  expect(told).toContain('a message is larger than 2097152 bytes');
  expect(told).toContain('PLUGIN_HOST_UNHEALTHY');
  expect(told).toContain('Restart the plugin in Settings → Plugins');
});

test('a model that never stops calling tools ends at the step limit, said as such, with its last calls marked not run', async ({
  page,
  scriptServer,
}) => {
  const server = await scriptServer({ reply: () => toolCallStream('notes__search', { query: 'Alpha' }) });
  await openApp(page);
  await addScriptProvider(page, server.url);
  await pickScriptModel(page);
  await runAgent(page, 'Search forever');

  await expect(page.getByTestId('agent-run-item').first()).toHaveAttribute('data-status', 'failed');
  const failed = page.getByTestId('agent-timeline').locator('[data-event="RunFailed"]');
  await expect(failed.getByTestId('agent-run-headline')).toHaveText('Step limit reached (10 steps)');
  await expect(failed.getByTestId('agent-run-reason')).toHaveText('max_iterations');
  await expect(failed.getByTestId('agent-run-error-detail')).toContainText(
    'Ask again with a narrower request',
  );
  const calls = page
    .getByTestId('agent-timeline')
    .locator('[data-testid="agent-event"][data-event="ToolCall"]');
  await expect(calls).toHaveCount(10);
  await expect(calls.last().locator('[data-status]')).toHaveAttribute('data-status', 'step_limit');
  await expect(calls.last().locator('[data-status]')).toContainText('not run (step limit reached)');
  expect(server.bodies).toHaveLength(10);
});

test('a cancelled run says so once', async ({ page, scriptServer }) => {
  const server = await scriptServer({ reply: () => new Promise<string>(() => undefined) });
  await openApp(page);
  await addScriptProvider(page, server.url);
  await pickScriptModel(page);
  await runAgent(page, 'Write a long essay');
  await expect(page.getByTestId('agent-run-phase')).toContainText('script-model');
  await page.getByTestId('agent-cancel').click();

  await expect(page.getByTestId('agent-run-item').first()).toHaveAttribute('data-status', 'cancelled');
  const timeline = page.getByTestId('agent-timeline');
  await expect(timeline.locator('[data-event="RunCancelled"]')).toHaveText('Run cancelled');
  await expect(timeline).not.toContainText('The job was cancelled.');
  await expect(timeline).not.toContainText('The request was cancelled.');
});

test('a provider error says its body once, as the detail of the run’s failure, with its code', async ({
  page,
  scriptServer,
}) => {
  const server = await scriptServer();
  await openApp(page);
  await addScriptProvider(page, server.url);
  await pickScriptModel(page);
  // Registered after the fixture's pass-through, so it answers first.
  await page.route(`${server.url}/v1/chat/completions`, (route) =>
    route.fulfill({
      status: 500,
      headers: { 'Access-Control-Allow-Origin': '*' },
      contentType: 'application/json',
      body: JSON.stringify({ error: { message: 'upstream exploded', type: 'server_error' } }),
    }),
  );
  await runAgent(page, 'Search Alpha then fail');

  await expect(page.getByTestId('agent-run-item').first()).toHaveAttribute('data-status', 'failed');
  const timeline = page.getByTestId('agent-timeline');
  const failed = timeline.locator('[data-event="RunFailed"]');
  await expect(failed.getByTestId('agent-run-error')).toContainText('The AI provider is not available.');
  await expect(failed.getByTestId('agent-error-code')).toHaveText('PROVIDER_UNAVAILABLE');
  await expect(failed.getByTestId('agent-run-error-detail')).toContainText('upstream exploded');
  const text = (await timeline.textContent()) ?? '';
  expect(text.split('upstream exploded')).toHaveLength(2);
});
