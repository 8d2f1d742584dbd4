import { textStream } from './harness/openai-script-server';
import { expect, openApp, test } from './fixtures';
import { addScriptProvider } from './harness/agent-steps';
import { askChat, openChat } from './harness/chat-steps';

/**
 * Chat by keyboard alone. A pressed button that goes away (Send turning into Stop, Stop back
 * into Send, Retry, an edit closing, a renamed or deleted row) must leave the keyboard somewhere
 * useful, not on the page's body, where the next Tab starts over at the sidebar.
 */

/** The scripted model holds a question containing "hold" until the test lets it go. */
function holdingServer() {
  let release: (() => void) | null = null;
  return {
    reply: (body: Record<string, unknown>) => {
      const messages = (body.messages ?? []) as Array<{ role: string; content: string }>;
      const question = messages.filter((message) => message.role === 'user').at(-1)?.content ?? '';
      if (!question.includes('hold')) return textStream(`Answer: ${question}`);
      return new Promise<string>((resolve) => {
        release = () => resolve(textStream('Held answer.'));
      });
    },
    release: () => release?.(),
  };
}

test('by keyboard: Stop, Esc, Retry and editing a question keep the keyboard in the thread', async ({
  page,
  scriptServer,
}) => {
  const holding = holdingServer();
  const server = await scriptServer({ reply: holding.reply });
  await openApp(page);
  await addScriptProvider(page, server.url, { apiKey: null });
  await openChat(page);
  const input = page.getByTestId('chat-input');
  const answers = page.locator('[data-testid="chat-message"][data-role="assistant"]');

  await input.focus();
  await page.keyboard.type('What is a page fault?');
  await page.keyboard.press('Enter');
  await expect(answers.first()).toHaveAttribute('data-status', 'completed');
  await expect(input).toBeFocused();

  // Tab from the message box to Stop and press it: Stop turns into Send, the keyboard returns to the box.
  await page.keyboard.type('Please hold on');
  await page.keyboard.press('Enter');
  await expect(answers.nth(1)).toHaveAttribute('data-status', 'streaming');
  await page.keyboard.press('Tab');
  await page.keyboard.press('Tab');
  await expect(page.getByTestId('chat-stop')).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(answers.nth(1)).toHaveAttribute('data-status', 'cancelled');
  await expect(input).toBeFocused();

  // Retry, pressed from the keyboard, goes with the stopped answer: the keyboard goes to the box.
  const retry = page.getByTestId('chat-retry');
  await retry.focus();
  await expect(retry).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(answers.nth(1)).toHaveAttribute('data-status', 'streaming');
  await expect(input).toBeFocused();

  // Esc in the message box stops the answer being written.
  await page.keyboard.press('Escape');
  await expect(answers.nth(1)).toHaveAttribute('data-status', 'cancelled');
  await expect(page.getByTestId('chat-stop')).toHaveCount(0);

  // Edit opens with the keyboard in its box; Esc closes it, back on Edit.
  const question = page.locator('[data-testid="chat-message"][data-role="user"]').last();
  const edit = question.getByTestId('chat-edit');
  await edit.focus();
  await page.keyboard.press('Enter');
  const editBox = page.getByTestId('chat-edit-input');
  await expect(editBox).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(editBox).toHaveCount(0);
  await expect(edit).toBeFocused();

  // Edit again, write another question, Tab to Resend: the answer comes, the keyboard is in the box.
  await page.keyboard.press('Enter');
  await expect(editBox).toBeFocused();
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.type('What is a TLB?');
  await page.keyboard.press('Tab');
  await page.keyboard.press('Tab');
  await expect(page.getByTestId('chat-edit-send')).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(answers.nth(1)).toContainText('Answer: What is a TLB?');
  await expect(answers.nth(1)).toHaveAttribute('data-status', 'completed');
  await expect(input).toBeFocused();
  holding.release();
});

test('by keyboard: renaming and deleting a conversation keep the keyboard in the list', async ({
  page,
  scriptServer,
}) => {
  const server = await scriptServer({ reply: () => textStream('Noted.') });
  await openApp(page);
  await addScriptProvider(page, server.url, { apiKey: null });
  await openChat(page);
  await askChat(page, 'Kafka partitions', 1);
  await page.getByTestId('chat-new').click();
  await askChat(page, 'Baking bread', 1);
  const rows = page.locator('.conversation-row');
  await expect(rows).toHaveCount(2);

  // Rename with Enter: the keyboard comes back to the row's Rename button.
  const bread = rows.filter({ hasText: 'Baking bread' });
  await bread.getByTestId('chat-rename').focus();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('chat-rename-input')).toBeFocused();
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.type('Sourdough');
  await page.keyboard.press('Enter');
  const sourdough = rows.filter({ hasText: 'Sourdough' });
  await expect(sourdough).toHaveCount(1);
  await expect(sourdough.getByTestId('chat-rename')).toBeFocused();

  // Esc leaves the title as it was, and the keyboard on Rename.
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('chat-rename-input')).toBeFocused();
  await page.keyboard.type(' and rye');
  await page.keyboard.press('Escape');
  await expect(sourdough.getByTestId('chat-rename')).toBeFocused();
  await expect(sourdough).toHaveText('Sourdough');

  // Delete from the keyboard: the row that takes its place has the keyboard.
  await sourdough.getByTestId('chat-delete').focus();
  await page.keyboard.press('Enter');
  await expect(rows).toHaveCount(1);
  await expect(rows.first().getByTestId('chat-conversation')).toBeFocused();
  await expect(rows.first()).toHaveText('Kafka partitions');
});
