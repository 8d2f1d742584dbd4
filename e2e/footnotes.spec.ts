import { expect, previewNewNote, test } from './fixtures';

/**
 * Footnotes as students write them in lecture notes: a number where the reference is, the
 * note's text where the definition is, and a jump between the two that stays in the note.
 */
test('footnotes are numbered in reading order and jump to their definition and back, without leaving the note', async ({
  page,
}) => {
  const filler = Array.from({ length: 40 }, (_, index) => `第 ${index + 1} 段：调度算法的比较。`).join(
    '\n\n',
  );
  const preview = await previewNewNote(
    page,
    '进程调度',
    `FCFS[^fcfs] 与时间片轮转[^rr]，见教材[^1]。\n\n${filler}\n\n[^1]: Tanenbaum\n[^rr]: Round robin：每个进程轮流使用一个时间片。\n[^fcfs]: 先来先服务。\n`,
  );
  const references = preview.locator('sup.footnote-ref a');
  await expect(references).toHaveText(['1', '2', '3']);
  const definitions = preview.locator('.footnote');
  await expect(definitions).toHaveCount(3);
  // The one-word definition is shown (it was taken for a link definition and hidden).
  await expect(definitions.filter({ hasText: 'Tanenbaum' }).locator('.footnote-number')).toHaveText('3');
  await expect(definitions.filter({ hasText: 'Round robin' }).locator('.footnote-number')).toHaveText('2');

  const url = page.url();
  const roundRobin = definitions.filter({ hasText: 'Round robin' });
  await expect(roundRobin).not.toBeInViewport();
  await references.nth(1).click();
  await expect(roundRobin).toBeInViewport();
  await expect(roundRobin.locator('.footnote-number')).toBeFocused();
  expect(page.url()).toBe(url);
  await expect(page.getByTestId('note-title')).toHaveValue('进程调度');

  await page.keyboard.press('Enter');
  await expect(references.nth(1)).toBeInViewport();
  await expect(references.nth(1)).toBeFocused();
  expect(page.url()).toBe(url);
});
