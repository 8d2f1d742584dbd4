import type { Locator, Page } from '@playwright/test';
import { expect, openApp, test } from './fixtures';

const PHONE = { width: 390, height: 844 };
const BUTTONS = ['permission-allow-once', 'permission-always', 'permission-deny'];

/**
 * Whether a user can see and tap a control: it lies inside the screen and is what the
 * screen shows at its centre (not clipped by the scrolling pane, not under anything).
 */
async function tappable(page: Page, control: Locator): Promise<boolean> {
  const box = await control.boundingBox();
  const viewport = page.viewportSize()!;
  if (box === null || box.y < 0 || box.y + box.height > viewport.height) return false;
  if (box.x < 0 || box.x + box.width > viewport.width) return false;
  return control.evaluate((element, { x, y }) => element.contains(document.elementFromPoint(x, y)), {
    x: box.x + box.width / 2,
    y: box.y + box.height / 2,
  });
}

/** A first run on the phone: the demo agent finds the note and asks before adding tasks to it. */
async function askTheDemoForTasks(page: Page): Promise<Locator> {
  await openApp(page);
  await page.getByTestId('topbar-new-note').click();
  await page.getByTestId('note-title').fill('Deadlock notes');
  await page
    .getByTestId('note-body')
    .fill(
      '# Deadlock\n\n## Four conditions\n\nMutual exclusion, hold and wait, no preemption, circular wait.\n',
    );
  await expect(page.getByTestId('save-status')).toHaveAttribute('data-state', 'saved');
  await page.evaluate(() => (location.hash = '#/agent'));
  await page.getByTestId('agent-input').fill('Find my deadlock note and create three review tasks from it');
  await page.getByTestId('agent-run').click();
  const permission = page.getByTestId('agent-permission');
  await expect(permission).toBeFocused();
  // The run list above has its new run: the layout the user sees has settled.
  await expect(page.getByTestId('agent-run-status').first()).toHaveText('等待你的批准');
  return permission;
}

test.describe('phone 390×844', () => {
  test.use({ viewport: PHONE, isMobile: true, hasTouch: true, locale: 'zh-CN' });

  test('the approval prompt shows its Allow and Deny buttons when it appears', async ({ page }) => {
    const permission = await askTheDemoForTasks(page);
    // Polled, not read once: the pane's scroll and the sticky buttons settle over frames.
    for (const id of BUTTONS)
      await expect.poll(() => tappable(page, permission.getByTestId(id)), { message: id }).toBe(true);

    await permission.getByTestId('permission-allow-once').click();
    await expect(page.getByTestId('agent-run-item').first()).toHaveAttribute('data-status', 'completed');
  });

  test('the buttons stay on screen while the user scrolls back up to read above the prompt', async ({
    page,
  }) => {
    const permission = await askTheDemoForTasks(page);
    // The question is on screen, the rest of the prompt below the fold: what a user sees
    // after scrolling up to reread the request they typed.
    await permission.evaluate((prompt) => {
      const pane = prompt.closest<HTMLElement>('.main')!;
      const top = prompt.getBoundingClientRect().top - pane.getBoundingClientRect().top;
      pane.scrollTop += top - pane.clientHeight / 2;
    });
    await expect(permission.getByTestId('permission-summary')).toBeInViewport();
    // Polled, not read once: the pane's scroll and the sticky buttons settle over frames.
    for (const id of BUTTONS)
      await expect.poll(() => tappable(page, permission.getByTestId(id)), { message: id }).toBe(true);

    await permission.getByTestId('permission-deny').click();
    await expect(permission).toHaveCount(0);
  });

  test('past runs show several runs at once, each one tappable', async ({ page }) => {
    await openApp(page);
    await page.evaluate(() => (location.hash = '#/agent'));
    const runs = page.getByTestId('agent-run-item');
    // Requests the demo cannot do end at once, with no prompt: three finished runs.
    for (const [index, request] of ['总结我的笔记', '翻译我的笔记', '列出我的标签'].entries()) {
      await page.getByTestId('agent-input').fill(request);
      await page.getByTestId('agent-run').click();
      await expect(runs).toHaveCount(index + 1);
      await expect(runs.first()).not.toHaveAttribute('data-status', /queued|running/);
    }
    await page.evaluate(() => window.scrollTo(0, 0));
    for (let index = 0; index < 3; index++)
      expect(await tappable(page, runs.nth(index)), `run ${index + 1}`).toBe(true);
  });
});
