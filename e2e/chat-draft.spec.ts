import { createNote, expect, openApp, test } from './fixtures';
import { askChat, askNotes } from './harness/chat-steps';

test('a half-written question survives opening a citation and coming Back, and stays with its conversation', async ({
  page,
}) => {
  await openApp(page);
  await createNote(page, 'Travel plans', '# Travel\n\nThe quokkaberry festival takes place every March.');
  const answer = await askNotes(page, 'When is the quokkaberry festival?');
  const input = page.getByTestId('chat-input');

  // Writing a follow-up, the user checks the source first.
  await input.fill('And which city hosts 节日？');
  await answer.getByTestId('chat-citation').first().click();
  await expect(page.getByTestId('note-title')).toHaveValue('Travel plans');
  await page.goBack();
  await expect(page.getByTestId('chat-message')).toHaveCount(2);
  await expect(input).toHaveValue('And which city hosts 节日？');

  // A new chat starts empty; the first conversation still has its draft.
  await page.getByTestId('chat-new').click();
  await expect(input).toHaveValue('');
  await input.fill('Another topic');
  await page.getByTestId('chat-conversation').first().click();
  await expect(page.getByTestId('chat-message')).toHaveCount(2);
  await expect(input).toHaveValue('And which city hosts 节日？');

  // Sent, the draft is gone.
  await input.press('Enter');
  await expect(page.getByTestId('chat-message')).toHaveCount(4);
  await expect(input).toHaveValue('');
  await page.getByTestId('chat-new').click();
  await expect(input).toHaveValue('Another topic');
});

test('a half-written question survives a reload, in its own conversation only, and is gone once sent', async ({
  page,
}) => {
  await openApp(page);
  await page.getByTestId('nav-chat').click();
  const input = page.getByTestId('chat-input');
  const conversations = page.getByTestId('chat-conversation');
  await askChat(page, 'First topic', 1);
  await page.getByTestId('chat-new').click();
  await askChat(page, 'Second topic', 1);
  await expect(conversations).toHaveCount(2);

  // The second conversation (on top) gets a draft; so does a new chat.
  await input.fill('Half-written follow-up 关于第二个话题');
  await page.getByTestId('chat-new').click();
  await input.fill('A question for a new chat');
  await conversations.filter({ hasText: 'Second topic' }).click();
  await expect(input).toHaveValue('Half-written follow-up 关于第二个话题');

  await page.reload();
  await expect(page.getByTestId('chat-message').first()).toHaveText(/Second topic/);
  await expect(input).toHaveValue('Half-written follow-up 关于第二个话题');
  await conversations.filter({ hasText: 'First topic' }).click();
  await expect(page.getByTestId('chat-message').first()).toHaveText(/First topic/);
  await expect(input).toHaveValue('');
  await page.getByTestId('chat-new').click();
  await expect(input).toHaveValue('A question for a new chat');

  // Sent, it is not brought back by the next reload.
  await conversations.filter({ hasText: 'Second topic' }).click();
  await expect(input).toHaveValue('Half-written follow-up 关于第二个话题');
  await input.press('Enter');
  await expect(page.locator('[data-testid="chat-message"][data-role="assistant"]')).toHaveCount(2);
  await expect(input).toHaveValue('');
  await page.reload();
  await expect(page.getByTestId('chat-message')).toHaveCount(4);
  await expect(input).toHaveValue('');
});
