import type { Locator, Page } from '@playwright/test';
import { createNote, expect, openApp, test } from './fixtures';
import { askNotes } from './harness/chat-steps';

/** Three notes that share the question's words, so the model is sent more than one source. */
async function festivalNotes(page: Page): Promise<void> {
  await createNote(page, 'Travel plans', 'The quokkaberry festival takes place every March in Wellington.');
  await createNote(page, 'Festival budget', 'Tickets for the quokkaberry festival cost forty dollars.');
  await createNote(page, 'Festival packing', 'For the quokkaberry festival pack a raincoat.');
}

async function saveAndOpen(page: Page, answer: Locator): Promise<string> {
  await answer.getByTestId('chat-save-note').click();
  // The newest toast is the save's own (an older one may still be showing on a busy machine).
  await page.getByTestId('toast').filter({ hasText: '“' }).last().locator('button.action').click();
  await expect(page.getByTestId('note-body')).not.toHaveValue('');
  return page.getByTestId('note-body').inputValue();
}

test('Sources lead with what the answer cites; the rest wait folded, and a saved answer lists only the cited', async ({
  page,
}) => {
  await openApp(page);
  await festivalNotes(page);

  const answer = await askNotes(page, 'When is the quokkaberry festival?');
  // The scripted model cites [1] only.
  await expect(answer.getByTestId('chat-answer').locator('a[href^="#citation-"]')).toHaveText(['[1]']);
  const cited = answer.locator('.sources > .source-list [data-testid="chat-citation"]');
  await expect(cited).toHaveCount(1);
  await expect(cited).toHaveAttribute('data-index', '1');
  const citedTitle = await cited.locator('.source-title').innerText();

  const uncited = answer.getByTestId('chat-uncited-sources');
  const summary = uncited.locator('summary');
  await expect(summary).toHaveText(/^Not cited in the answer \(\d+\)$/);
  const count = Number(/\((\d+)\)/.exec(await summary.innerText())![1]);
  const others = uncited.getByTestId('chat-citation');
  await expect(others).toHaveCount(count);
  expect(count).toBeGreaterThan(0);
  await expect(others.first()).toBeHidden();
  await summary.click();
  await expect(others.first()).toBeVisible();
  await expect(others.first()).not.toHaveAttribute('data-index', '1');

  // An uncited source still opens its note.
  const otherTitle = await others.first().locator('.source-title').innerText();
  await others.first().click();
  await expect(page.getByTestId('note-title')).toHaveValue(otherTitle);

  // Saved as a note: the cited source only, under the number the answer uses.
  await page.getByTestId('nav-chat').click();
  const body = await saveAndOpen(page, answer);
  expect(body).toMatch(/\n## Sources\n\n- \[1\] \[\[[^\]\n]+\]\] — [^\n]+\n$/);
  expect(body).toContain(`- [1] [[${citedTitle}]]`);
  expect(body).not.toContain(`[[${otherTitle}]]`);
});

test.describe('in Chinese', () => {
  test.use({ locale: 'zh-CN' });

  test('the folded sources and a saved answer are in Chinese', async ({ page }) => {
    await openApp(page);
    await festivalNotes(page);
    const answer = await askNotes(page, 'quokkaberry 节日是什么时候？');
    await expect(answer.getByTestId('chat-uncited-sources').locator('summary')).toHaveText(
      /^回答中未引用（\d+）$/,
    );
    expect(await saveAndOpen(page, answer)).toMatch(/\n## 来源\n\n- \[1\] \[\[/);
  });
});
