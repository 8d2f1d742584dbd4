import type { Page } from '@playwright/test';
import { expect, openApp, test } from './fixtures';

/**
 * While a modal dialog is open the page under it is inert and behind its backdrop: a message
 * raised meanwhile (Settings → Storage emptied the trash) must be shown in the dialog, on top,
 * with working buttons, and without covering any of the dialog's own controls.
 */

/** The dialog's controls that something else covers at their centre (by test id or text). */
async function coveredControls(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const dialog = document.querySelector('dialog[open]');
    if (!dialog) return ['no open dialog'];
    const controls = Array.from(dialog.querySelectorAll<HTMLElement>('button, a[href], input, select'));
    return controls
      .filter((control) => !control.closest('[data-testid="toast"]'))
      .filter((control) => {
        const box = control.getBoundingClientRect();
        if (box.width === 0 || box.height === 0) return false;
        // Only what is within the visible area of the dialog and of each scrolling box between
        // them (a Settings page scrolls on its own); the rest is reached by scrolling.
        const x = box.left + box.width / 2;
        const y = box.top + box.height / 2;
        for (let around = control.parentElement; around; around = around.parentElement) {
          const clips = around === dialog || getComputedStyle(around).overflowY !== 'visible';
          const frame = around.getBoundingClientRect();
          if (clips && (x < frame.left || x > frame.right || y < frame.top || y > frame.bottom)) return false;
          if (around === dialog) break;
        }
        const hit = document.elementFromPoint(x, y);
        return hit === null || !(control === hit || control.contains(hit) || hit.contains(control));
      })
      .map((control) => control.dataset['testid'] ?? control.textContent?.trim() ?? control.tagName);
  });
}

/** Whether what is seen at the element's centre is the element itself. */
function isOnTop(page: Page, testId: string, text: string): Promise<boolean> {
  return page
    .getByTestId(testId)
    .filter({ hasText: text })
    .evaluate((element) => {
      const box = element.getBoundingClientRect();
      const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
      return hit !== null && element.contains(hit);
    });
}

/** A new note from the button this layout shows (a phone has it in the top bar). */
async function writeNote(page: Page, phone: boolean, title: string, body: string): Promise<void> {
  await page.getByTestId(phone ? 'topbar-new-note' : 'new-note').click();
  await page.getByTestId('note-title').fill(title);
  await page.getByTestId('note-body').fill(body);
  await expect(page.getByTestId('save-status')).toHaveAttribute('data-state', 'saved');
}

for (const [name, viewport] of [
  ['desktop', { width: 1280, height: 800 }],
  ['phone', { width: 390, height: 844 }],
] as const) {
  test.describe(name, () => {
    test.use({ viewport });

    test('a message raised in Settings shows in the dialog, on top, without covering its controls; after it closes, on the page again', async ({
      page,
    }) => {
      const phone = name === 'phone';
      await page.clock.install();
      await openApp(page);
      await writeNote(page, phone, 'Keep', 'kept');
      await writeNote(page, phone, 'Disposable', 'text');
      await page.getByTestId('trash-note').click();
      await expect(page.getByTestId('note-item').filter({ hasText: 'Disposable' })).toHaveCount(0);
      // Whatever the trash said is gone before Settings opens (it would move into the dialog too).
      for (const toast of await page.getByTestId('toast').all())
        await toast.getByRole('button', { name: 'Dismiss' }).click();

      await page.evaluate(() => (location.hash = '#/settings/storage'));
      const settings = page.getByRole('dialog');
      await expect(settings.getByTestId('settings-page-storage')).toBeVisible();
      const trash = page.locator('[data-testid="storage-kind"][data-kind="trash"]');
      await expect(trash).toHaveAttribute('data-count', '1');
      await trash.getByTestId('storage-empty-trash').click();
      // Its message lasts 4 s: from here the page's time moves only when the test lets it, so a busy
      // machine cannot end it while the checks below look at it.
      await page.clock.pauseAt(new Date(Date.now() + 60_000));
      await page.getByTestId('confirm-accept').click();
      await expect(trash).toHaveAttribute('data-count', '0');

      const said = 'Deleted 1 note from the trash.';
      const toast = settings.getByTestId('toast').filter({ hasText: said });
      await expect(toast).toBeInViewport({ ratio: 1 });
      expect(await isOnTop(page, 'toast', said)).toBe(true);
      // One copy, in the dialog: the page's own is not rendered under the backdrop meanwhile.
      await expect(page.getByTestId('toast').filter({ hasText: said })).toHaveCount(1);
      expect(await coveredControls(page)).toEqual([]);
      await toast.getByRole('button', { name: 'Dismiss' }).click();
      await expect(page.getByTestId('toast')).toHaveCount(0);
      await page.clock.resume();

      // Closed, the next message shows on the page, and its Undo works.
      await page.keyboard.press('Escape');
      await expect(settings).toHaveCount(0);
      await writeNote(page, phone, 'Later', 'undone');
      await page.getByTestId('trash-note').click();
      const trashed = page.getByTestId('toast').filter({ hasText: 'Moved to trash' });
      await expect(trashed).toBeVisible();
      expect(await isOnTop(page, 'toast', 'Moved to trash')).toBe(true);
      await trashed.getByRole('button', { name: 'Undo' }).click();
      await expect(page.getByTestId('note-item').filter({ hasText: 'Later' })).toHaveCount(1);
    });
  });
}
