import type { Page } from '@playwright/test';
import { addScriptProvider, pickScriptModel } from './harness/agent-steps';
import { startHeldLookupRun } from './harness/held-lookup-run';
import { startHeldAnswer, type HeldAnswer } from './harness/held-tool-plugin';
import { textStream, toolCallStream, toolMessages } from './harness/openai-script-server';
import { expect, openApp, test } from './fixtures';

/** An SSE body with the provider's token usage appended, as OpenAI sends it after the last choice. */
function withUsage(sse: string, input: number, output: number): string {
  const usage = {
    id: 'x',
    object: 'chat.completion.chunk',
    model: 'script-model',
    choices: [],
    usage: { prompt_tokens: input, completion_tokens: output, total_tokens: input + output },
  };
  return sse.replace('data: [DONE]\n\n', `data: ${JSON.stringify(usage)}\n\ndata: [DONE]\n\n`);
}

test('each run lists its steps, input/output tokens and duration from its trace, the same after a reload; the prompt asks what it will do first', async ({
  page,
  scriptServer,
}) => {
  const server = await scriptServer({
    reply: (body) =>
      toolMessages(body).length === 0
        ? withUsage(
            toolCallStream('notes__create', { title: 'Weekly plan', body: '# Weekly plan\n\n- Read\n' }),
            120,
            30,
          )
        : withUsage(textStream('Created the note.'), 200, 15),
  });
  await openApp(page);
  await addScriptProvider(page, server.url);
  await pickScriptModel(page);
  await page.getByTestId('agent-input').fill('Start a weekly plan');
  await page.getByTestId('agent-run').click();

  // A screen reader hears the action first, in words, not the tool's or the permission's id.
  const prompt = page.getByRole('alertdialog', {
    name: 'Allow the agent to create the note “Weekly plan”?',
    exact: true,
  });
  await expect(prompt).toBeFocused();
  await prompt.getByTestId('permission-allow-once').click();

  const run = page.getByTestId('agent-run-item').first();
  await expect(run).toHaveAttribute('data-status', 'completed');
  const totals = run.getByTestId('agent-run-totals');
  await expect(totals).toHaveText(/^2 steps · 320 in \/ 45 out tokens · \d+(\.\d)? (ms|s)$/);
  const shown = await totals.textContent();

  // Read back from the stored trace: nothing in the page counted or timed it.
  await page.reload();
  await page.getByTestId('nav-agent').click();
  await expect(page.getByTestId('agent-run-item').first().getByTestId('agent-run-totals')).toHaveText(shown!);
});

/** A run whose plugin tool call is allowed and now in flight, held by `held`. */
async function runUntilToolInFlight(page: Page, serverUrl: string, held: HeldAnswer): Promise<void> {
  await startHeldLookupRun(page, serverUrl);

  const call = page
    .getByTestId('agent-timeline')
    .locator('[data-testid="agent-event"][data-event="ToolCall"]');
  const status = call.locator('[data-status]');
  // Asked, not answered: the call waits on the user, it is not running yet.
  await expect(status).toHaveAttribute('data-status', 'awaiting_approval');
  await expect(status).toHaveText('waiting for your approval');
  await expect(call.getByTestId('agent-tool-running')).toHaveCount(0);
  const prompt = page.getByRole('alertdialog', {
    name: /^Allow the agent to use “Look up” from the plugin “Held Lookup” /,
  });
  await prompt.getByTestId('permission-allow-once').click();
  await held.arrived;

  await expect(status).toHaveAttribute('data-status', 'running');
  await expect(status).toHaveText('running…');
  await expect(call.getByTestId('agent-tool-running')).toBeVisible();
  await expect(call.locator('strong')).toHaveText('Tool “Look up” from the plugin “Held Lookup”');
  await expect(page.getByTestId('agent-run-phase')).toHaveText(
    'Running “Look up” from the plugin “Held Lookup”…',
  );
  await expect(page.getByTestId('agent-run-item').first()).toHaveAttribute('data-status', 'running');
  await expect(page.getByTestId('agent-cancel')).toBeEnabled();
}

test('a plugin tool in flight shows as running, with its name, until its result arrives; Cancel stays there', async ({
  page,
  context,
  scriptServer,
}) => {
  const held = await startHeldAnswer(context);
  try {
    const server = await scriptServer({
      reply: (body) => {
        const result = toolMessages(body).at(-1);
        return result
          ? textStream(`Looked up: ${result.content ?? ''}`)
          : toolCallStream('held-lookup__lookup', { url: held.url });
      },
    });
    await openApp(page);
    await runUntilToolInFlight(page, server.url, held);

    held.release('42 results');
    const call = page.getByTestId('agent-timeline').locator('[data-event="ToolCall"]');
    await expect(call.locator('[data-status]')).toHaveAttribute('data-status', 'ok');
    await expect(call.getByTestId('agent-tool-running')).toHaveCount(0);
    await expect(page.getByTestId('agent-run-item').first()).toHaveAttribute('data-status', 'completed');
    await expect(page.getByTestId('agent-timeline').locator('[data-event="RunCompleted"]')).toContainText(
      'Looked up: 42 results',
    );
    await expect(page.getByTestId('agent-cancel')).toHaveCount(0);
  } finally {
    await held.close();
  }
});

test('a run whose plugin tool never answers can be cancelled while the tool runs', async ({
  page,
  context,
  scriptServer,
}) => {
  const held = await startHeldAnswer(context);
  try {
    const server = await scriptServer({
      reply: () => toolCallStream('held-lookup__lookup', { url: held.url }),
    });
    await openApp(page);
    await runUntilToolInFlight(page, server.url, held);

    await page.getByTestId('agent-cancel').click();
    await expect(page.getByTestId('agent-run-item').first()).toHaveAttribute('data-status', 'cancelled');
    const call = page.getByTestId('agent-timeline').locator('[data-event="ToolCall"]');
    await expect(call.locator('[data-status]')).toHaveAttribute('data-status', 'cancelled');
    await expect(call.getByTestId('agent-tool-running')).toHaveCount(0);
    await expect(page.getByTestId('agent-run-phase')).toHaveText('');
  } finally {
    await held.close();
  }
});
