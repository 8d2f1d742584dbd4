import type { Page } from '@playwright/test';
import {
  offeredTools,
  startAnthropicToolWire,
  startOllamaToolWire,
  toolResultsSent,
  type ToolWireOptions,
} from './harness/tool-wire-doubles';
import { reachableWireServers } from './harness/wire-server';
import { expectBrokenSearchThenRecovery } from './harness/agent-steps';
import { expect, openApp, test } from './fixtures';

// A model on Anthropic's or Ollama's own wire sends tool-call arguments that are not JSON:
// the user sees a tool error on that call in the timeline, and the run goes on to its answer.

const reach = reachableWireServers(test);

const BROKEN = '{"query": "Alpha",,';

/** Broken arguments first, then a good call, then the answer: what each request gets. */
const script: ToolWireOptions['reply'] = (request) => {
  const search = offeredTools(request).find((name) => name.includes('notes') && name.includes('search'));
  const sent = toolResultsSent(request).length;
  if (!search) return { text: 'No search tool was offered.' };
  if (sent === 0) return { tool: search, rawArguments: BROKEN };
  if (sent === 1) return { tool: search, rawArguments: '{"query": "Alpha"}' };
  return { text: 'Nothing about Alpha yet.' };
};

async function addProvider(
  page: Page,
  preset: 'anthropic' | 'ollama',
  fields: { baseUrl: string; model: string; apiKey?: string },
): Promise<void> {
  await page.getByTestId('open-settings').click();
  await page.getByTestId('settings-nav-providers').click();
  await page.getByTestId('provider-add').click();
  await page.getByTestId('provider-preset').selectOption(preset);
  await page.getByTestId('provider-base-url').fill(fields.baseUrl);
  await page.getByTestId('provider-model').fill(fields.model);
  if (fields.apiKey !== undefined) await page.getByTestId('provider-api-key').fill(fields.apiKey);
  await page.getByTestId('provider-save').click();
  await expect(page.locator(`[data-testid="provider-item"][data-provider-id="${preset}"]`)).toBeVisible();
  await page.keyboard.press('Escape');
}

/** Runs the agent on the one model whose option reads like `model` and checks what the user sees. */
async function runAndExpectToolError(page: Page, model: string): Promise<void> {
  await page.getByTestId('nav-agent').click();
  const picker = page.getByTestId('agent-model');
  const option = picker.locator('option', { hasText: model });
  await expect(option).toHaveCount(1);
  await picker.selectOption({ label: (await option.textContent())!.trim() });
  await page.getByTestId('agent-input').fill('Find my Alpha notes');
  await page.getByTestId('agent-run').click();

  await expectBrokenSearchThenRecovery(page, BROKEN);
}

test('Anthropic: a tool_use whose input JSON is broken shows as a tool error, and the run recovers', async ({
  page,
  context,
}) => {
  const anthropic = await reach(context, startAnthropicToolWire({ reply: script }));
  await openApp(page);
  await addProvider(page, 'anthropic', {
    baseUrl: anthropic.url,
    model: 'claude-sonnet-4-5',
    apiKey: 'sk-ant-e2e-wires',
  });
  await runAndExpectToolError(page, 'claude-sonnet-4-5');

  // The model was told, in its tool_result, what was wrong and what it sent.
  const chats = anthropic.requests.filter((request) => request.path === '/v1/messages');
  const told = toolResultsSent(chats[1]!).at(-1) ?? '';
  expect(told).toContain('The arguments of notes.search were not valid JSON');
  expect(told).toContain(`You sent: ${BROKEN}`);
});

test('Ollama: tool-call arguments that are not JSON show as a tool error, and the run recovers', async ({
  page,
  context,
}) => {
  const ollama = await reach(context, startOllamaToolWire({ reply: script }));
  await openApp(page);
  await addProvider(page, 'ollama', { baseUrl: ollama.url, model: 'qwen3:8b' });
  await runAndExpectToolError(page, 'qwen3:8b');

  const chats = ollama.requests.filter((request) => request.path === '/api/chat');
  const told = toolResultsSent(chats[1]!).at(-1) ?? '';
  expect(told).toContain('The arguments of notes.search were not valid JSON');
  expect(told).toContain(`You sent: ${BROKEN}`);
});
