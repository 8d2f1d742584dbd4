import type { Locator, Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { useTranscriptionModelHost } from './harness/chain-steps';
import { folder, makeFolder, menuItem } from './harness/folder-steps';
import { tonesWav } from './harness/wav';

// A tablet in the hand: no mouse to hover or right-click, a finger for a pointer. The
// Transcription page's controls are big enough to hit with it, and a finger held on a note
// or a folder opens its menu, as iOS Safari never sends the contextmenu a right-click makes.
const TABLET = { width: 820, height: 1180 };
/** The smallest target a finger hits reliably: the sidebar rows' and the context menu's 44 px. */
const FINGER_PX = 44;
/** The platforms' long press; the page's clock is moved past it, never waited for. */
const HOLD_MS = 600;

async function boxOf(locator: Locator): Promise<{ x: number; y: number; width: number; height: number }> {
  await expect(locator).toBeVisible();
  const box = await locator.boundingBox();
  expect(box, 'the element is laid out').not.toBeNull();
  return box!;
}

async function expectFingerSized(locator: Locator, name: string, minWidth = FINGER_PX): Promise<void> {
  const box = await boxOf(locator);
  expect(box.height, `${name} is ${Math.round(box.height)} px tall`).toBeGreaterThanOrEqual(FINGER_PX - 0.5);
  expect(box.width, `${name} is ${Math.round(box.width)} px wide`).toBeGreaterThanOrEqual(minWidth - 0.5);
}

/** Opens the sidebar, folded away behind the top bar's menu button on a screen this narrow. */
async function openDrawer(page: Page): Promise<void> {
  await page.getByRole('button', { name: /^(Open menu|打开菜单)$/ }).click();
  const drawer = page.locator('#sidebar');
  await expect(drawer).toBeVisible();
  await drawer.evaluate((element) =>
    Promise.all(element.getAnimations().map((animation) => animation.finished)),
  );
}

/** The page's address: a note or a folder opened changes it at once, in the click's own task. */
const hash = (page: Page) => page.evaluate(() => location.hash);

/**
 * A finger pressed on the element's middle and held there past the long press. The events are
 * the ones a touch screen sends; the hold is the page's clock moved forward, so a busy machine
 * cannot make a tap long or a press short.
 */
async function holdFinger(page: Page, target: Locator): Promise<{ x: number; y: number }> {
  const box = await boxOf(target);
  const at = { x: box.x + box.width / 2, y: box.y + box.height / 2 };
  const finger = { pointerType: 'touch', pointerId: 7, isPrimary: true, button: 0, buttons: 1 };
  await target.dispatchEvent('pointerdown', { ...finger, clientX: at.x, clientY: at.y });
  await page.clock.runFor(HOLD_MS);
  return at;
}

/** The finger lifts: the pointerup and the click a touch screen ends a press with. */
async function liftFinger(target: Locator, at: { x: number; y: number }): Promise<void> {
  const finger = { pointerType: 'touch', pointerId: 7, isPrimary: true, button: 0, buttons: 0 };
  await target.dispatchEvent('pointerup', { ...finger, clientX: at.x, clientY: at.y });
  await target.dispatchEvent('click', { button: 0, detail: 1, clientX: at.x, clientY: at.y });
}

/** Opens the app with the page's clock under the test's hand, and waits for start-up to end. */
async function startWithClock(page: Page): Promise<void> {
  await page.clock.install();
  await page.goto('/');
  await expect(page.getByTestId('shell')).toHaveAttribute('aria-busy', 'false');
}

/** From here the page's time moves only when the test moves it (saves are done by then). */
const stopTime = (page: Page) => page.clock.pauseAt(new Date(Date.now() + 60_000));

async function newNote(page: Page, title: string): Promise<string> {
  await page.getByTestId('topbar-new-note').click();
  await page.getByTestId('note-title').fill(title);
  await page.getByTestId('note-body').fill(`About ${title}.`);
  await expect(page.getByTestId('save-status')).toHaveAttribute('data-state', 'saved');
  const row = page.getByTestId('note-item').filter({ hasText: title });
  await expect(row).toHaveCount(1);
  return (await row.getAttribute('data-note-id'))!;
}

test.describe('touch tablet 820×1180', () => {
  test.use({ viewport: TABLET, isMobile: true, hasTouch: true });

  test.describe('zh-CN', () => {
    test.use({ locale: 'zh-CN' });

    test('the Transcription page’s selects, check box, file button, links and job buttons are finger-sized', async ({
      page,
    }) => {
      test.setTimeout(120_000);
      // A model host that has no model: the job fails at once, and shows its Retry and Delete.
      await page
        .context()
        .route('**/no-models/**', (route) => route.fulfill({ status: 404, body: 'not found' }));
      await page.goto('/');
      await expect(page.getByTestId('shell')).toHaveAttribute('aria-busy', 'false');
      expect(
        await page.evaluate(() => matchMedia('(pointer: coarse)').matches),
        'a finger is the pointer',
      ).toBe(true);
      await useTranscriptionModelHost(page, '/no-models/');
      await page.goto('/#/recordings');
      const view = page.getByTestId('transcription-view');
      await expect(view).toBeVisible();

      await expectFingerSized(view.getByTestId('transcription-language'), '语言 select');
      await expectFingerSized(view.getByTestId('transcription-profile'), '模型 select');
      const speakers = view.locator('label', { has: page.getByTestId('transcription-diarization') });
      await expectFingerSized(speakers, '区分说话人 label');
      const box = await boxOf(view.getByTestId('transcription-diarization'));
      expect(box.height, 'the 区分说话人 box is big enough to see and hit').toBeGreaterThanOrEqual(20);

      // The file picker is the way in on a tablet: a button, not an underlined word in a sentence.
      const choose = view.getByRole('button', { name: '选择文件' });
      await expectFingerSized(choose, '选择文件 button', 88);
      expect(await choose.evaluate((element) => getComputedStyle(element).textDecorationLine)).toBe('none');
      await expectFingerSized(view.getByTestId('recorder-start'), '录音 button');
      await expectFingerSized(view.getByTestId('transcription-settings-link'), '转写设置 link', 0);

      await view
        .getByTestId('audio-file-input')
        .setInputFiles({ name: 'short.wav', mimeType: 'audio/wav', buffer: tonesWav([[220, 3]], 3000) });
      const detail = page.getByTestId('transcription-detail');
      await expect(detail).toHaveAttribute('data-status', 'failed', { timeout: 60_000 });
      await expectFingerSized(page.getByTestId('transcription-job').first(), 'the job in the list');
      await expectFingerSized(detail.getByTestId('transcription-retry'), '重试 button');
      await expectFingerSized(detail.getByTestId('transcription-delete'), '删除 button');
    });
  });

  test('a finger held on a note opens its menu, without opening the note; a tap still opens it', async ({
    page,
  }) => {
    await startWithClock(page);
    const firstId = await newNote(page, 'Lecture one');
    await newNote(page, 'Lecture two');
    // On a tablet the note takes the screen: back to the list.
    if (!(await page.getByTestId('note-list').isVisible())) await page.goBack();
    const row = page.getByTestId('note-item').filter({ hasText: 'Lecture one' });
    await stopTime(page);
    const before = await hash(page);

    const at = await holdFinger(page, row);
    const menu = page.getByRole('menu', { name: 'Actions for Lecture one' });
    await expect(menu).toBeVisible();
    await expect(menu.getByRole('menuitem')).toHaveText(['Open', 'Pin', 'Move to folder…']);
    // Android sends its own contextmenu for the same press: still the one menu.
    await row.dispatchEvent('contextmenu', { button: 2, clientX: at.x, clientY: at.y });
    await expect(page.getByRole('menu')).toHaveCount(1);
    // The click that ends the press belongs to the menu: the note did not open under it.
    await liftFinger(row, at);
    expect(await hash(page), 'the held note was not opened').toBe(before);
    await expect(menu).toBeVisible();

    await menuItem(page, 'Pin').tap();
    await expect(menu).toHaveCount(0);
    await expect(row).toHaveAttribute('data-pinned', 'true');

    // A tap is a tap: the note opens, and no menu.
    await row.tap();
    await expect(page).toHaveURL(new RegExp(`#/notes/${firstId}`));
    await expect(page.getByTestId('note-title')).toHaveValue('Lecture one');
    await expect(page.getByRole('menu')).toHaveCount(0);
  });

  test('a finger held on a folder opens the folder’s menu, without selecting the folder', async ({
    page,
  }) => {
    await startWithClock(page);
    await openDrawer(page);
    await makeFolder(page, 'Courses');
    const row = folder(page, 'Courses');
    await stopTime(page);
    const before = await hash(page);

    const at = await holdFinger(page, row);
    const menu = page.getByRole('menu', { name: 'Actions for Courses' });
    await expect(menu).toBeVisible();
    await liftFinger(row, at);
    expect(await hash(page), 'the folder was not opened').toBe(before);
    await expect(row).toHaveAttribute('aria-selected', 'false');

    await menuItem(page, 'Rename…').tap();
    await expect(page.getByTestId('folder-rename-input')).toBeFocused();
  });

  test('a finger that moves while pressing scrolls and opens no menu', async ({ page }) => {
    await startWithClock(page);
    await openDrawer(page);
    await makeFolder(page, 'Courses');
    const row = folder(page, 'Courses');
    await stopTime(page);
    const box = await boxOf(row);
    const finger = { pointerType: 'touch', pointerId: 7, isPrimary: true, button: 0, buttons: 1 };
    const x = box.x + box.width / 2;
    const y = box.y + box.height / 2;
    await row.dispatchEvent('pointerdown', { ...finger, clientX: x, clientY: y });
    await row.dispatchEvent('pointermove', { ...finger, clientX: x, clientY: y + 30 });
    await page.clock.runFor(HOLD_MS);
    await expect(page.getByRole('menu')).toHaveCount(0);
    // The same press held still is a long press.
    await holdFinger(page, row);
    await expect(page.getByRole('menu', { name: 'Actions for Courses' })).toBeVisible();
  });
});

test.describe('desktop 1280×800 with a mouse', () => {
  test.use({ viewport: { width: 1280, height: 800 } });

  test('the Transcription page keeps its compact controls and its inline file link', async ({ page }) => {
    await page.goto('/#/recordings');
    const view = page.getByTestId('transcription-view');
    await expect(view).toBeVisible();
    const select = await boxOf(view.getByTestId('transcription-language'));
    expect(select.height).toBeLessThan(FINGER_PX);
    const choose = view.getByRole('button', { name: 'choose a file' });
    expect(await choose.evaluate((element) => getComputedStyle(element).textDecorationLine)).toBe(
      'underline',
    );
  });

  test('a right-click or Shift+F10 on a note opens its menu, and Escape gives the row its focus back', async ({
    page,
  }) => {
    await page.goto('/');
    await expect(page.getByTestId('shell')).toHaveAttribute('aria-busy', 'false');
    await page.getByTestId('new-note').click();
    await page.getByTestId('note-title').fill('Reading list');
    await expect(page.getByTestId('save-status')).toHaveAttribute('data-state', 'saved');
    const row = page.getByTestId('note-item').filter({ hasText: 'Reading list' });
    await row.click({ button: 'right' });
    const menu = page.getByRole('menu', { name: 'Actions for Reading list' });
    await expect(menu).toBeVisible();
    await expect(menuItem(page, 'Open')).toBeFocused();
    await page.keyboard.press('Escape');
    await expect(menu).toHaveCount(0);
    await expect(row).toBeFocused();

    // The keyboard's way to the same menu, as on a folder: Shift+F10 on the focused row.
    await page.keyboard.press('Shift+F10');
    await expect(menuItem(page, 'Open')).toBeFocused();
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    await expect(menu).toHaveCount(0);
    await expect(row).toHaveAttribute('data-pinned', 'true');
  });
});
