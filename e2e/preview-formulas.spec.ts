import { createNote, expect, openApp, test } from './fixtures';
import type { Page } from '@playwright/test';

/** Puts the caret just after `text`'s first occurrence in the note body. */
async function caretAfter(page: Page, text: string): Promise<void> {
  await page.getByTestId('note-body').evaluate((field: HTMLTextAreaElement, after) => {
    field.focus();
    const at = field.value.indexOf(after) + after.length;
    field.setSelectionRange(at, at);
  }, text);
}

test('formulas in the preview follow edits around them and inside them, and carry no script', async ({
  page,
}) => {
  await openApp(page);
  await createNote(
    page,
    'Formulas',
    [
      'Energy $E = mc^2$ here.',
      '',
      '$$',
      '\\frac{a}{b}',
      '$$',
      '',
      // Raw HTML beside a formula, and a slot forged by the note: neither gets a formula or runs.
      '<img src=x onerror="window.__xss = 1">$x$ <span class="math-slot-0-0" onclick="window.__xss = 2">forged</span>',
    ].join('\n'),
  );
  const preview = page.getByTestId('preview');
  const annotations = preview.locator('.katex annotation');
  await expect(annotations).toHaveText(['E = mc^2', '\\frac{a}{b}', 'x']);

  // Text typed beside a formula: the paragraph follows, its formula stays drawn.
  await caretAfter(page, 'here.');
  await page.keyboard.type(' More words.');
  const paragraph = preview.locator('p').filter({ hasText: 'here. More words.' });
  await expect(paragraph.locator('.katex annotation')).toHaveText('E = mc^2');

  // The formula itself edited: the preview shows the new one.
  await caretAfter(page, 'mc^2');
  await page.keyboard.press('Backspace');
  await page.keyboard.type('3');
  await expect(annotations).toHaveText(['E = mc^3', '\\frac{a}{b}', 'x']);
  await expect(page.getByTestId('save-status')).toHaveAttribute('data-state', 'saved');
  await expect(page.getByTestId('note-body')).toHaveValue(/^Energy \$E = mc\^3\$ here\. More words\.\n/);

  await preview.getByText('forged').click();
  expect(await preview.locator('[onerror], [onclick], script').count()).toBe(0);
  expect(await preview.locator('.math-slot-0-0').evaluate((slot) => slot.childElementCount)).toBe(0);
  expect(await page.evaluate(() => (window as { __xss?: number }).__xss)).toBeUndefined();
});

test('the preview says it is busy until it shows the text typed (the typing pause and the pass), and no longer', async ({
  page,
}) => {
  await openApp(page);
  await createNote(
    page,
    'Busy preview',
    ['Energy $E = mc^2$ here.', '', '$$', '\\frac{a}{b}', '$$'].join('\n'),
  );
  const preview = page.getByTestId('preview');
  await expect(preview.locator('.katex annotation')).toHaveText(['E = mc^2', '\\frac{a}{b}']);
  await expect(preview).toHaveAttribute('aria-busy', 'false');

  // Every value the attribute takes from here on, in order.
  await preview.evaluate((element) => {
    const seen: string[] = [];
    (window as { __busy?: string[] }).__busy = seen;
    new MutationObserver(() => seen.push(element.getAttribute('aria-busy') ?? '')).observe(element, {
      attributes: true,
      attributeFilter: ['aria-busy'],
    });
  });
  await caretAfter(page, 'here.');
  // One input event: however slow the machine, no pause can fall between its keys.
  await page.keyboard.insertText(' Typed.');
  await expect(preview.locator('p').filter({ hasText: 'here. Typed.' })).toHaveCount(1);
  await expect(preview).toHaveAttribute('aria-busy', 'false');
  const seen = await page.evaluate(() => (window as { __busy?: string[] }).__busy!);
  // Busy from the key until the text is shown, then not.
  expect(seen).toEqual(['true', 'false']);
});
