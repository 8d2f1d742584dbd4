import type { Locator, Page } from '@playwright/test';
import { expect, openApp, test } from './fixtures';
import { heldAnswers, installCoreHold, releaseCore } from './harness/core-hold';

const PORTRAIT = { width: 820, height: 1180 };
const LANDSCAPE = { width: 1180, height: 820 };

async function newNote(page: Page, title: string, body: string): Promise<void> {
  // The sidebar's "New note", or the top bar's "+" where the sidebar is folded away.
  await page
    .locator('[data-testid="new-note"]:visible, [data-testid="topbar-new-note"]:visible')
    .first()
    .click();
  await page.getByTestId('note-title').fill(title);
  await page.getByTestId('note-body').fill(body);
  await expect(page.getByTestId('save-status')).toHaveAttribute('data-state', 'saved');
}

async function boxOf(locator: Locator): Promise<{ x: number; y: number; width: number; height: number }> {
  const box = await locator.boundingBox();
  expect(box, 'the element is laid out').not.toBeNull();
  return box!;
}

/**
 * The title field shows the whole title (its text is no wider than the field), and every
 * button of the editor header lies wholly inside the header and the viewport.
 */
async function expectHeaderReadable(page: Page, title: string): Promise<void> {
  const input = page.getByTestId('note-title');
  await expect(input).toHaveValue(title);
  const field = await boxOf(input);
  // The width the title's text needs, in the field's own font.
  const needed = await input.evaluate((element: HTMLInputElement) => {
    const style = getComputedStyle(element);
    const context = document.createElement('canvas').getContext('2d')!;
    context.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
    const padding = parseFloat(style.paddingLeft) + parseFloat(style.paddingRight);
    return context.measureText(element.value).width + padding;
  });
  expect(
    field.width,
    `the title field (${Math.round(field.width)} px) fits "${title}"`,
  ).toBeGreaterThanOrEqual(needed);

  const viewport = page.viewportSize()!;
  const header = await boxOf(page.locator('.editor-header'));
  const buttons = page.locator('.editor-header button:visible');
  const count = await buttons.count();
  expect(count).toBeGreaterThan(3);
  for (let index = 0; index < count; index += 1) {
    const button = buttons.nth(index);
    const name =
      (await button.getAttribute('data-testid')) ?? (await button.getAttribute('aria-label')) ?? '';
    const box = await boxOf(button);
    const right = box.x + box.width;
    expect(box.x, `${name} starts inside the header`).toBeGreaterThanOrEqual(header.x - 0.5);
    expect(right, `${name} ends inside the header`).toBeLessThanOrEqual(header.x + header.width + 0.5);
    expect(right, `${name} ends inside the viewport`).toBeLessThanOrEqual(viewport.width + 0.5);
    expect(box.y + box.height, `${name} is inside the header's height`).toBeLessThanOrEqual(
      header.y + header.height + 0.5,
    );
  }
}

for (const { locale, title } of [
  { locale: 'en-US', title: 'Interview with Zhang San' },
  { locale: 'zh-CN', title: '用户访谈 张三' },
]) {
  test.describe(`portrait tablet 820×1180, ${locale}`, () => {
    test.use({ viewport: PORTRAIT, hasTouch: true, locale });

    test('the open note keeps a readable title and every header button in view', async ({ page }) => {
      await openApp(page);
      await newNote(page, title, 'Notes from the interview.');
      await expectHeaderReadable(page, title);
      // The view switch (Edit / Split / Read) is there on a pane this narrow, and whole.
      await expect(page.getByTestId('note-view-read')).toBeVisible();
    });
  });

  test.describe(`landscape tablet 1180×820, ${locale}`, () => {
    test.use({ viewport: LANDSCAPE, hasTouch: true, locale });

    test('the open note keeps a readable title and every header button in view', async ({ page }) => {
      await openApp(page);
      await newNote(page, title, 'Notes from the interview.');
      await expectHeaderReadable(page, title);
    });
  });
}

// Landscape on a smaller tablet or laptop: the editor pane beside the list is about 480 px wide.
test.describe('1024×768, en-US', () => {
  test.use({ viewport: { width: 1024, height: 768 }, locale: 'en-US' });

  test('the open note keeps a readable title and every header button in view', async ({ page }) => {
    await openApp(page);
    await newNote(page, 'Interview with Zhang San', 'Notes from the interview.');
    await expectHeaderReadable(page, 'Interview with Zhang San');
  });
});

test.describe('starting the app, zh-CN', () => {
  test.use({ viewport: PORTRAIT, hasTouch: true, locale: 'zh-CN' });

  test('until the notebook has answered, the list says it is loading, not that it is empty', async ({
    page,
  }) => {
    await installCoreHold(page);
    await openApp(page);
    await newNote(page, '地铁随记', '离线也要能写。');
    await newNote(page, '用户访谈 张三', '访谈记录。');

    // The next start: every answer of the core is held back until released.
    await page.addInitScript(() => {
      (window as unknown as { __coreHold: { on: boolean } }).__coreHold.on = true;
    });
    await page.reload();
    const list = page.getByTestId('note-list');
    await expect(list).toBeVisible();
    await expect.poll(() => heldAnswers(page)).toBeGreaterThan(0);
    await expect(page.getByTestId('note-list-loading')).toHaveText('正在打开笔记本…');
    await expect(list).toHaveAttribute('aria-busy', 'true');
    await expect(page.getByTestId('note-list-empty')).toHaveCount(0);
    await expect(page.getByText('0 篇笔记')).toHaveCount(0);

    await releaseCore(page);
    await expect(page.getByTestId('note-item')).toHaveCount(2);
    await expect(page.getByTestId('note-count')).toHaveText('2 篇笔记');
    await expect(page.getByTestId('note-list-loading')).toHaveCount(0);
    await expect(page.getByTestId('note-list-empty')).toHaveCount(0);
    await expect(list).toHaveAttribute('aria-busy', 'false');
  });

  test('an empty notebook still says so once the first list has come', async ({ page }) => {
    await openApp(page);
    await expect(page.getByTestId('note-list-empty')).toBeVisible();
    await expect(page.getByTestId('note-count')).toHaveText('0 篇笔记');
    await expect(page.getByTestId('note-list-loading')).toHaveCount(0);
  });
});
