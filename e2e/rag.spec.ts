import { createNote, expect, openApp, sourceLineOf, test } from './fixtures';
import { askNotes } from './harness/chat-steps';

const BODY = [
  '# Travel',
  '',
  'Packing list: passport, charger, umbrella.',
  '',
  'The quokkaberry festival takes place every March in Wellington.',
].join('\n');

test('asking the notes with the mock provider cites the note, and the citation opens the block', async ({
  page,
  requestLog,
}) => {
  await openApp(page);
  await createNote(page, 'Travel plans', BODY);
  await createNote(page, 'Groceries', 'Buy rice and tea.');

  const answer = await askNotes(page, 'When is the quokkaberry festival?');
  await expect(answer.getByTestId('chat-answer')).toContainText('Travel plans');
  const marker = answer.getByTestId('chat-answer').locator('a[href="#citation-1"]');
  await expect(marker).toHaveText('[1]');
  const citation = answer.getByTestId('chat-citation').first();
  await expect(citation).toContainText('Travel plans');
  await expect(citation).toHaveAttribute('data-note-id', /.+/);
  await expect(citation).toHaveAttribute('data-block-id', /.+/);

  await citation.click();
  await expect(page.getByTestId('note-title')).toHaveValue('Travel plans');
  const revealed = page.getByTestId('preview').locator('[data-search-reveal]');
  await expect.poll(() => sourceLineOf(revealed)).toBe(4);
  await expect(revealed).toContainText('quokkaberry festival');

  // The [1] marker in the answer opens the same block.
  await page.getByTestId('nav-chat').click();
  await marker.click();
  await expect(page.getByTestId('note-title')).toHaveValue('Travel plans');
  await expect(page.getByTestId('preview').locator('[data-search-reveal]')).toContainText(
    'quokkaberry festival',
  );
  expect(requestLog.foreign()).toEqual([]);
});
