import { createNote, expect, openApp, test } from './fixtures';
import { askNotes } from './harness/chat-steps';

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
