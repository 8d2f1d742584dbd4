import { createNote, expect, openApp, test } from './fixtures';
import { askNotes } from './harness/chat-steps';

// Block ids change when a block is rewritten or cut differently (a new block
// format re-derives stored blocks); a citation kept in a conversation still
// names the old id. It must still open its note.
test('a chat citation whose block no longer exists still opens its note', async ({ page, requestLog }) => {
  await openApp(page);
  await createNote(
    page,
    'Travel plans',
    '# Travel\n\nPacking list: passport, charger, umbrella.\n\nThe quokkaberry festival takes place every March in Wellington.',
  );

  const answer = await askNotes(page, 'When is the quokkaberry festival?');
  const citation = answer.getByTestId('chat-citation').first();
  await expect(citation).toHaveAttribute('data-block-id', /.+/);
  await expect(citation).toContainText('quokkaberry');

  // The cited paragraph becomes a table (another type, so another id); the stored
  // citation keeps the old id.
  await citation.click();
  await expect(page.getByTestId('note-title')).toHaveValue('Travel plans');
  await page
    .getByTestId('note-body')
    .fill(
      '# Travel\n\nPacking list: passport, charger, umbrella.\n\n| Month | Event |\n| --- | --- |\n| May | Harbour swim |',
    );
  await expect(page.getByTestId('save-status')).toHaveAttribute('data-state', 'saved');

  await page.getByTestId('nav-chat').click();
  await citation.click();
  await expect(page.getByTestId('note-title')).toHaveValue('Travel plans');
  await expect(page.getByTestId('preview')).toContainText('Harbour swim');
  expect(requestLog.foreign()).toEqual([]);
});
