import type { Page } from '@playwright/test';
import { expect, openApp, test } from './fixtures';

// A student reads a note on a phone: stacked, the preview was a strip between the editor and
// the backlinks. A switch in the note's toolbar gives the rendered note (or the editor) the height.

const PHONE = { width: 390, height: 844 };

const BODY = [
  '# Fourier series',
  '',
  'Any periodic signal is a sum of sines: $f(x) = \\sum_{n} a_n \\sin(nx)$.',
  '',
  '| n | a_n |',
  '|---|-----|',
  '| 1 | 1.0 |',
  '| 3 | 0.33 |',
  '',
  'See [[Signals]] for the basics.',
].join('\n');

async function newPhoneNote(page: Page, title: string, body: string): Promise<void> {
  await page.getByTestId('topbar-new-note').click();
  await page.getByTestId('note-title').fill(title);
  await page.getByTestId('note-body').fill(body);
  await expect(page.getByTestId('save-status')).toHaveAttribute('data-state', 'saved');
}

test.describe('phone 390×844', () => {
  test.use({ viewport: PHONE, isMobile: true, hasTouch: true });

  test('Read gives the rendered note the screen, Edit gives it back to the editor, and the choice stays', async ({
    page,
  }) => {
    await openApp(page);
    await newPhoneNote(page, 'Signals', 'Sines and cosines.');
    await newPhoneNote(page, 'Fourier', BODY);

    const views = page.getByRole('group', { name: 'Show the note as' });
    const edit = views.getByRole('button', { name: 'Edit' });
    const split = views.getByRole('button', { name: 'Split' });
    const read = views.getByRole('button', { name: 'Read' });
    const body = page.getByTestId('note-body');
    const preview = page.getByTestId('preview');
    // As before: the editor above the preview.
    await expect(split).toHaveAttribute('aria-pressed', 'true');
    await expect(body).toBeVisible();
    await expect(preview).toBeVisible();

    await read.click();
    await expect(read).toHaveAttribute('aria-pressed', 'true');
    await expect(split).toHaveAttribute('aria-pressed', 'false');
    await expect(body).toBeHidden();
    await expect(preview.getByRole('heading', { name: 'Fourier series' })).toBeVisible();
    await expect(preview.locator('.katex').first()).toBeVisible();
    await expect(preview.getByRole('cell', { name: '0.33' })).toBeVisible();
    await expect(page.getByTestId('backlinks')).toBeInViewport({ ratio: 1 });
    // The note fills the screen under the switch, down to the backlinks below it.
    const switchBox = (await views.boundingBox())!;
    const previewBox = (await preview.boundingBox())!;
    const backlinksBox = (await page.getByTestId('backlinks').boundingBox())!;
    expect(previewBox.y - (switchBox.y + switchBox.height)).toBeLessThan(24);
    expect(previewBox.height).toBeGreaterThan((PHONE.height - switchBox.y - switchBox.height) * 0.7);
    expect(backlinksBox.y).toBeGreaterThanOrEqual(previewBox.y + previewBox.height - 1);

    // A link read there opens its note, which shows read too.
    await preview.getByRole('link', { name: 'Signals' }).click();
    await expect(page.getByTestId('note-title')).toHaveValue('Signals');
    await expect(preview).toContainText('Sines and cosines.');
    await expect(read).toHaveAttribute('aria-pressed', 'true');
    await expect(body).toBeHidden();
    await expect(views).toBeInViewport({ ratio: 1 });

    // Back to writing: the editor has the height and takes typing.
    await edit.click();
    await expect(edit).toHaveAttribute('aria-pressed', 'true');
    await expect(preview).toBeHidden();
    await expect(body).toBeVisible();
    const bodyBox = (await body.boundingBox())!;
    expect(bodyBox.height).toBeGreaterThan((PHONE.height - switchBox.y - switchBox.height) * 0.5);
    await body.click();
    await page.keyboard.press('ControlOrMeta+End');
    await page.keyboard.type(' Tangents too.');
    await expect(body).toHaveValue('Sines and cosines. Tangents too.');
    await expect(page.getByTestId('save-status')).toHaveAttribute('data-state', 'saved');

    // The device keeps the choice.
    await page.reload();
    await expect(page.getByTestId('note-title')).toHaveValue('Signals');
    await expect(edit).toHaveAttribute('aria-pressed', 'true');
    await expect(body).toHaveValue('Sines and cosines. Tangents too.');
    await expect(preview).toBeHidden();
    await read.click();
    await page.reload();
    await expect(page.getByTestId('note-title')).toHaveValue('Signals');
    await expect(read).toHaveAttribute('aria-pressed', 'true');
    await expect(preview).toContainText('Tangents too.');
    await expect(body).toBeHidden();
  });

  test('a new note opened while reading shows its editor; Enter in the title of a read note goes to the text', async ({
    page,
  }) => {
    await openApp(page);
    await newPhoneNote(page, 'First', 'One.');
    const views = page.getByRole('group', { name: 'Show the note as' });
    await views.getByRole('button', { name: 'Read' }).click();
    await expect(page.getByTestId('note-body')).toBeHidden();

    await page.getByTestId('topbar-new-note').click();
    await expect(page.getByTestId('note-title')).toBeFocused();
    await expect(views.getByRole('button', { name: 'Edit' })).toHaveAttribute('aria-pressed', 'true');
    await page.keyboard.type('Second');
    await page.keyboard.press('Enter');
    await page.keyboard.type('Two.');
    await expect(page.getByTestId('note-body')).toHaveValue('Two.');
    await expect(page.getByTestId('save-status')).toHaveAttribute('data-state', 'saved');

    // The device still reads: the first note opens as it was left.
    await page.getByRole('button', { name: 'Back to list' }).click();
    await page.getByTestId('note-item').filter({ hasText: 'First' }).click();
    await expect(views.getByRole('button', { name: 'Read' })).toHaveAttribute('aria-pressed', 'true');
    await expect(page.getByTestId('note-body')).toBeHidden();
    await page.getByTestId('note-title').press('Enter');
    await expect(page.getByTestId('note-body')).toBeFocused();
    await page.keyboard.type(' More.');
    await expect(page.getByTestId('note-body')).toHaveValue(/More\.$/);
  });
});

test.describe('phone 390×844, writing', () => {
  test.use({ viewport: PHONE, isMobile: true, hasTouch: true });

  test('a search result opened while editing shows the place found in the rendered note', async ({
    page,
  }) => {
    await openApp(page);
    await newPhoneNote(page, 'Fourier', BODY);
    const views = page.getByRole('group', { name: 'Show the note as' });
    await views.getByRole('button', { name: 'Edit' }).click();
    await expect(page.getByTestId('preview')).toBeHidden();

    await page.getByRole('button', { name: 'Back to list' }).click();
    await page.getByTestId('search-input').fill('periodic');
    await page.getByTestId('search-result').first().click();
    await expect(page.getByTestId('note-title')).toHaveValue('Fourier');
    const revealed = page.getByTestId('preview').locator('[data-search-reveal]');
    await expect(revealed).toContainText('Any periodic signal');
    await expect(revealed).toBeInViewport();
    await expect(views.getByRole('button', { name: 'Read' })).toHaveAttribute('aria-pressed', 'true');

    // Still writing on this device: the next note opens in the editor.
    await page.getByTestId('topbar-new-note').click();
    await expect(views.getByRole('button', { name: 'Edit' })).toHaveAttribute('aria-pressed', 'true');
    await expect(page.getByTestId('note-body')).toBeVisible();
    await expect(page.getByTestId('preview')).toBeHidden();
  });
});

test.describe('phone, in Chinese', () => {
  test.use({ viewport: PHONE, isMobile: true, hasTouch: true, locale: 'zh-CN' });

  test('the switch speaks Chinese', async ({ page }) => {
    await openApp(page);
    await newPhoneNote(page, '傅里叶级数', BODY);
    const views = page.getByRole('group', { name: '笔记显示方式' });
    await expect(views.getByRole('button')).toHaveText(['编辑', '分屏', '阅读']);
    await views.getByRole('button', { name: '阅读' }).click();
    await expect(page.getByTestId('note-body')).toBeHidden();
    await expect(page.getByTestId('preview').getByRole('heading', { name: 'Fourier series' })).toBeVisible();
  });
});

test.describe('desktop 1280×800', () => {
  test.use({ viewport: { width: 1280, height: 800 } });

  test('Split by default: the editor and the preview side by side (the switch offers Read too)', async ({
    page,
  }) => {
    await openApp(page);
    await page.getByTestId('new-note').click();
    await page.getByTestId('note-title').fill('Fourier');
    await page.getByTestId('note-body').fill(BODY);
    await expect(page.getByTestId('save-status')).toHaveAttribute('data-state', 'saved');
    const preview = page.getByTestId('preview');
    await expect(preview.getByRole('heading', { name: 'Fourier series' })).toBeVisible();
    await expect(
      page.getByRole('group', { name: 'Show the note as' }).getByRole('button', { name: 'Split' }),
    ).toHaveAttribute('aria-pressed', 'true');
    const bodyBox = (await page.getByTestId('note-body').boundingBox())!;
    const previewBox = (await preview.boundingBox())!;
    expect(previewBox.x).toBeGreaterThanOrEqual(bodyBox.x + bodyBox.width - 1);
    expect(Math.abs(previewBox.y - bodyBox.y)).toBeLessThan(2);
  });
});
