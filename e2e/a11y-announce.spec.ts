import { heldReplies, textStream } from './harness/openai-script-server';
import { createNote, expect, openApp, test } from './fixtures';
import { addScriptProvider } from './harness/agent-steps';
import { askNotes, openChat } from './harness/chat-steps';

/**
 * What a screen reader gets: the thread is not read out piece by piece, one polite line
 * says when an answer, a run or a benchmark has ended, citations and per-message buttons
 * say what they are about, and each view names itself (title, heading, landmarks).
 */

/** The scripted model holds a request containing "hold" until the test lets it go. */
function holdingServer(answer: string) {
  let release: (() => void) | null = null;
  return {
    reply: (body: Record<string, unknown>) => {
      const messages = (body.messages ?? []) as Array<{ role: string; content: unknown }>;
      const asked = JSON.stringify(
        messages.filter((message) => message.role === 'user').at(-1)?.content ?? '',
      );
      if (!asked.includes('hold')) return textStream(answer);
      return new Promise<string>((resolve) => {
        release = () => resolve(textStream(answer));
      });
    },
    release: () => release?.(),
  };
}

test('a streamed answer is announced once, when it is complete; its buttons say which message', async ({
  page,
  scriptServer,
}) => {
  const holding = holdingServer('The **blue** whale sings at dawn.');
  const server = await scriptServer({ reply: holding.reply });
  await openApp(page);
  await addScriptProvider(page, server.url, { apiKey: null });
  await openChat(page);
  await expect(page).toHaveTitle('Chat — NotesAgent');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Chat');

  // The thread itself is no live region: neither it nor anything around it.
  const thread = page.getByTestId('chat-view').locator('.messages');
  expect(await thread.evaluate((element) => element.closest('[aria-live], [role="log"]') === null)).toBe(
    true,
  );

  const status = page.getByTestId('chat-announcement');
  await expect(status).toHaveAttribute('role', 'status');
  await page.getByTestId('chat-input').fill('Please hold: when does the whale sing?');
  await page.getByTestId('chat-input').press('Enter');
  const answer = page.locator('[data-testid="chat-message"][data-role="assistant"]');
  await expect(answer).toHaveAttribute('data-status', 'streaming');
  await expect(status).toHaveText('');

  holding.release();
  await expect(answer).toHaveAttribute('data-status', 'completed');
  await expect(status).toHaveText('Answer ready. The blue whale sings at dawn.');

  // Copy, Edit and Regenerate name the message they act on.
  const question = page.locator('[data-testid="chat-message"][data-role="user"]');
  await expect(question.getByTestId('chat-copy')).toHaveAccessibleDescription(
    'Your message: Please hold: when does the whale sing?',
  );
  await expect(question.getByTestId('chat-edit')).toHaveAccessibleDescription(/^Your message: Please hold/);
  await expect(answer.getByTestId('chat-regenerate')).toHaveAccessibleDescription(
    'Answer: The blue whale sings at dawn.',
  );
  const row = page.getByTestId('chat-conversation').first();
  const title = (await row.innerText()).trim();
  await expect(page.getByTestId('chat-rename').first()).toHaveAccessibleName(`Rename “${title}”`);

  // Reopened after a reload, the old conversation is shown at its answer, not read out again.
  await page.reload();
  await openChat(page);
  await page.getByTestId('chat-conversation').first().click();
  await expect(answer).toHaveAttribute('data-status', 'completed');
  await expect(answer).toContainText('The blue whale sings at dawn.');
  await expect(status).toHaveText('');
});

test('a citation link is named after its source, and Back from its note returns to it', async ({ page }) => {
  await openApp(page);
  await createNote(page, 'Whale note', 'The quokkawhale sings every March near Kaikoura.');
  const answer = await askNotes(page, 'When does the quokkawhale sing?');
  const link = answer.getByTestId('chat-answer').locator('a[href="#citation-1"]');
  await expect(link).toHaveAccessibleName('Source 1: Whale note');

  await link.focus();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('note-title')).toHaveValue('Whale note');
  await page.goBack();
  await expect(page.getByTestId('chat-view')).toBeVisible();
  await expect(answer.getByTestId('chat-answer').locator('a[href="#citation-1"]')).toBeFocused();
});

test.describe('in Chinese', () => {
  test.use({ locale: 'zh-CN' });

  test('a citation link and the view titles are in Chinese', async ({ page }) => {
    await openApp(page);
    await createNote(page, '鲸鱼笔记', 'The quokkawhale sings every March near Kaikoura.');
    const answer = await askNotes(page, 'When does the quokkawhale sing?');
    await expect(answer.getByTestId('chat-answer').locator('a[href="#citation-1"]')).toHaveAccessibleName(
      '来源 1：鲸鱼笔记',
    );
    await expect(page).toHaveTitle('对话 — NotesAgent');
    await page.getByTestId('nav-agent').click();
    await expect(page).toHaveTitle('智能体 — NotesAgent');
  });
});

test('the end of an agent run is announced; Ctrl+Enter starts one', async ({ page, scriptServer }) => {
  const holding = holdingServer('Done: three review tasks added.\nThey are in your note.');
  const server = await scriptServer({ reply: holding.reply });
  await openApp(page);
  await addScriptProvider(page, server.url);
  await page.getByTestId('nav-agent').click();
  await expect(page).toHaveTitle('Agent — NotesAgent');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Agent');
  await expect(page.getByRole('complementary', { name: 'Past runs' })).toBeVisible();
  await page.getByTestId('agent-model').selectOption({ label: 'Script · script-model' });

  const input = page.getByTestId('agent-input');
  await expect(input).toHaveAccessibleDescription('Ctrl+Enter (⌘+Enter on a Mac) runs it.');
  const announcement = page.getByTestId('agent-run-announcement');
  await expect(announcement).toHaveAttribute('role', 'status');

  await input.fill('Please hold while you plan');
  await input.press('Control+Enter');
  const run = page.getByTestId('agent-run-item').first();
  await expect(run).toHaveAttribute('data-status', 'running');
  await expect.poll(() => server.bodies.length).toBeGreaterThan(0);
  await page.getByTestId('agent-cancel').click();
  await expect(run).toHaveAttribute('data-status', 'cancelled');
  await expect(announcement).toHaveText('Run cancelled.');

  await input.fill('Review my deadlock note');
  await input.press('Control+Enter');
  await expect(page.getByTestId('agent-run-item')).toHaveCount(2);
  await expect(page.getByTestId('agent-run-item').first()).toHaveAttribute('data-status', 'completed');
  await expect(announcement).toHaveText('Run finished: Done: three review tasks added.');
  holding.release();
});

test('a running benchmark is a progress bar, and its end is announced', async ({ page, scriptServer }) => {
  test.setTimeout(240_000);
  const held = heldReplies();
  const server = await scriptServer({ reply: held.reply });
  await openApp(page);
  await addScriptProvider(page, server.url);
  await page.getByTestId('nav-benchmarks').click();
  await expect(page).toHaveTitle('Benchmarks — NotesAgent');
  await expect(page.getByTestId('benchmarks-view')).toHaveAttribute('data-ready', 'true');
  await page.getByTestId('bench-kind').selectOption('agent');
  await page.getByTestId('bench-agent-model').selectOption({ label: 'Script · script-model' });
  await page.getByTestId('bench-run').click();

  const running = page.locator('[data-testid="bench-run-item"]').first();
  await expect(running).toHaveAttribute('data-status', 'running', { timeout: 120_000 });
  const progress = running.getByRole('progressbar', { name: 'Benchmark progress' });
  await expect(progress).toHaveAttribute('aria-valuemin', '0');
  await expect(progress).toHaveAttribute('aria-valuemax', '100');
  await expect.poll(() => server.bodies.length, { timeout: 120_000 }).toBeGreaterThan(0);

  const announcement = page.getByTestId('bench-announcement');
  await expect(announcement).toHaveAttribute('role', 'status');
  await running.getByRole('button', { name: 'Cancel' }).click();
  await expect(running).toHaveAttribute('data-status', 'cancelled', { timeout: 120_000 });
  await expect(announcement).toHaveText('Benchmark run cancelled.');
  await expect(progress).toHaveCount(0);
  held.release();
});

test('a skip link is the first Tab stop; a view picked in the sidebar names itself and takes the focus', async ({
  page,
}) => {
  await openApp(page);
  await expect(page.getByRole('complementary', { name: 'Sidebar' })).toBeVisible();
  await page.keyboard.press('Tab');
  const skip = page.getByRole('link', { name: 'Skip to content' });
  await expect(skip).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.locator('main')).toBeFocused();

  const views = [
    { nav: 'nav-chat', name: 'Chat' },
    { nav: 'nav-agent', name: 'Agent' },
    { nav: 'nav-transcription', name: 'Transcription' },
    { nav: 'nav-benchmarks', name: 'Benchmarks' },
  ];
  for (const view of views) {
    await page.getByTestId(view.nav).focus();
    await page.keyboard.press('Enter');
    await expect(page).toHaveTitle(`${view.name} — NotesAgent`);
    const heading = page.getByRole('heading', { level: 1 });
    await expect(heading).toHaveCount(1);
    await expect(heading).toHaveText(view.name);
    await expect(heading).toBeFocused();
  }
  await expect(page.getByRole('complementary', { name: 'Transcriptions' })).toHaveCount(0);
  await page.getByTestId('nav-transcription').click();
  await expect(page.getByRole('complementary', { name: 'Transcriptions' })).toBeVisible();

  // Back in the notebook, the tab is named after the open note again.
  await page.getByTestId('nav-all').click();
  await expect(page).toHaveTitle('NotesAgent');
});
