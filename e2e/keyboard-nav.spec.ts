import type { Page } from '@playwright/test';
import { createNote, expect, openApp, test } from './fixtures';

/**
 * A keyboard-only, screen-reader user never loses his place: emptying the trash leaves the
 * keyboard on the empty list, the notebook's lists say what they show, Ctrl+K goes anywhere and
 * opens notes by title, the shortcuts are listed where the keys are answered, and a note's
 * `# heading` is not a second level-1 heading on the page. After the notes are set up, every
 * step is a key press.
 */

test.use({ viewport: { width: 1280, height: 800 } });

const row = (page: Page, title: string) => page.getByTestId('note-item').filter({ hasText: title });

async function pressOn(page: Page, testId: string): Promise<void> {
  await page.getByTestId(testId).focus();
  await page.keyboard.press('Enter');
}

/** The page's level-1 headings and the note's, with the level the browser exposes for each. */
async function headingLevels(page: Page): Promise<{ name: string; level: number }[]> {
  const cdp = await page.context().newCDPSession(page);
  try {
    const { nodes } = (await cdp.send('Accessibility.getFullAXTree')) as {
      nodes: {
        role?: { value?: string };
        name?: { value?: string };
        properties?: { name: string; value: { value?: unknown } }[];
      }[];
    };
    return nodes
      .filter((node) => node.role?.value === 'heading')
      .map((node) => ({
        name: String(node.name?.value ?? ''),
        level: Number(node.properties?.find((property) => property.name === 'level')?.value.value),
      }))
      .filter((heading) => heading.level === 1 || ['Chapter one', 'Part A'].includes(heading.name));
  } finally {
    await cdp.detach();
  }
}

async function trashOpenNote(page: Page, title: string): Promise<void> {
  await pressOn(page, 'trash-note');
  await expect(row(page, title)).toHaveCount(0);
}

test('emptying the trash leaves the keyboard on the empty list and says how many notes went', async ({
  page,
}) => {
  await openApp(page);
  await createNote(page, 'Alpha', 'Alpha text');
  await trashOpenNote(page, 'Alpha');
  await pressOn(page, 'nav-trash');
  await expect(row(page, 'Alpha')).toBeVisible();

  await pressOn(page, 'empty-trash');
  await expect(page.getByTestId('confirm-cancel')).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(page.getByTestId('confirm-accept')).toBeFocused();
  await page.keyboard.press('Enter');

  await expect(page.getByTestId('note-item')).toHaveCount(0);
  const empty = page.getByTestId('note-list-empty');
  await expect(empty).toHaveText('The trash is empty.');
  await expect(empty).toBeFocused();
  await expect(page.getByTestId('toast').filter({ hasText: '1 note deleted for good.' })).toBeVisible();
  // The next Tab goes on from the list, not from the top of the page.
  await page.keyboard.press('Tab');
  await expect(page.getByTestId('skip-link')).not.toBeFocused();
  await expect(page.locator('body')).not.toBeFocused();
});

test('All notes and Trash in the sidebar say which list shows and how many notes it has', async ({
  page,
}) => {
  await openApp(page);
  await createNote(page, 'Kept', 'kept text');
  await createNote(page, 'Binned', 'binned text');
  await trashOpenNote(page, 'Binned');
  const said = page.getByTestId('note-list-announcement');

  await pressOn(page, 'nav-trash');
  await expect(said).toHaveText('Trash · 1 note');
  // A list of the same notebook: the keyboard stays on the sidebar entry.
  await expect(page.getByTestId('nav-trash')).toBeFocused();

  await pressOn(page, 'nav-all');
  await expect(said).toHaveText('All notes · 1 note');
  await expect(page.getByTestId('nav-all')).toBeFocused();
});

test('Ctrl+K finds a note by part of its title and Enter opens it', async ({ page }) => {
  await openApp(page);
  await createNote(page, 'Quarterly lighthouse report', 'The lamp was checked.');
  await createNote(page, 'Garden plan', 'Tomatoes.');
  await expect(page.getByTestId('note-title')).toHaveValue('Garden plan');

  await page.keyboard.press('Control+k');
  const input = page.getByTestId('command-palette-input');
  await expect(input).toBeFocused();
  await page.keyboard.type('lighthouse');
  const found = page.getByTestId('command-palette-note').filter({ hasText: 'Quarterly lighthouse report' });
  await expect(found).toBeVisible();
  await expect(page.getByTestId('command-palette-results')).toHaveText('1 result');
  await page.keyboard.press('Enter');

  await expect(page.getByTestId('command-palette')).toBeHidden();
  await expect(page.getByTestId('note-title')).toHaveValue('Quarterly lighthouse report');
  await expect(page.getByTestId('note-title')).toBeFocused();
});

test('without plugins Ctrl+K offers the app’s own commands, and one goes to the Trash', async ({ page }) => {
  await openApp(page);
  await createNote(page, 'Binned', 'binned text');
  await trashOpenNote(page, 'Binned');

  await page.keyboard.press('Control+k');
  const palette = page.getByTestId('command-palette');
  await expect(palette.getByTestId('command-palette-built-in').first()).toBeVisible();
  await expect(palette.getByTestId('command-palette-empty')).toHaveCount(0);
  await page.keyboard.type('trash');
  await expect(palette.getByTestId('command-palette-built-in').first()).toHaveText('Go to Trash');
  await page.keyboard.press('Enter');

  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Trash');
  await expect(page.getByTestId('note-list-announcement')).toHaveText('Trash · 1 note');
});

test('the keyboard shortcuts dialog lists the keys the app answers, and Escape returns the keyboard', async ({
  page,
}) => {
  await openApp(page);
  await createNote(page, 'Anything', 'text');
  const title = page.getByTestId('note-title');
  await title.focus();

  await page.keyboard.press('Control+k');
  await expect(page.getByTestId('command-palette-input')).toBeFocused();
  await page.keyboard.type('shortcuts');
  await page.keyboard.press('Enter');

  const dialog = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
  await expect(dialog).toBeVisible();
  const rows = dialog.getByTestId('keyboard-shortcut');
  await expect(rows.filter({ hasText: 'Save the note now' })).toContainText('Ctrl+S');
  await expect(rows.filter({ hasText: 'New note' })).toContainText('Alt+N');
  await expect(rows.filter({ hasText: 'Commands' })).toContainText('Ctrl+K');
  await expect(rows.filter({ hasText: 'keyboard shortcuts' })).toContainText('Ctrl+/');
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(title).toBeFocused();

  // The key it lists opens it too.
  await page.keyboard.press('Control+/');
  await expect(dialog).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(title).toBeFocused();
});

test('a note’s “# heading” is spoken under the page heading, and a missing link says how to create it', async ({
  page,
}) => {
  await openApp(page);
  await createNote(page, 'Lecture', '# Chapter one\n\nIntro.\n\n## Part A\n\nSee [[Nowhere yet]].');
  const preview = page.getByTestId('preview');
  await expect(preview.getByRole('heading', { name: 'Chapter one' })).toBeVisible();

  // Levels as the browser gives them to a screen reader (its accessibility tree).
  await expect
    .poll(() => headingLevels(page))
    .toEqual([
      { name: 'All notes', level: 1 },
      { name: 'Chapter one', level: 2 },
      { name: 'Part A', level: 3 },
    ]);
  // It still looks like the note's top heading: larger than the one under it.
  const size = (name: string) =>
    preview
      .getByRole('heading', { name })
      .evaluate((element) => parseFloat(getComputedStyle(element).fontSize));
  expect(await size('Chapter one')).toBeGreaterThan(await size('Part A'));

  await expect(preview.locator('a.wikilink', { hasText: 'Nowhere yet' })).toHaveAttribute(
    'title',
    'No note is called “Nowhere yet” yet: follow the link (Enter) to create it.',
  );
});
