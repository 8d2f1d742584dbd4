import type { Page } from '@playwright/test';
import { expect, openApp, test } from './fixtures';
import { importNotes } from './harness/vault-import';

const PHONE = { width: 390, height: 844 };

/**
 * Every visible control lies inside the viewport's width, and the page does
 * not scroll sideways. Returns what sticks out, described for the failure.
 */
async function overflowing(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    const out: string[] = [];
    if (document.documentElement.scrollWidth > width + 1) {
      out.push(`page scrolls sideways: ${document.documentElement.scrollWidth} > ${width}`);
    }
    for (const element of Array.from(
      document.querySelectorAll<HTMLElement>('button, select, input, textarea, a[href]'),
    )) {
      if (!element.checkVisibility({ visibilityProperty: true, opacityProperty: true })) continue;
      const box = element.getBoundingClientRect();
      if (box.width === 0 || box.height === 0) continue;
      // Visually hidden labels and inputs are clipped to a pixel on purpose.
      if (box.width <= 1 && box.height <= 1) continue;
      if (box.left < -0.5 || box.right > width + 0.5) {
        const name =
          element.getAttribute('data-testid') ??
          element.getAttribute('aria-label') ??
          element.textContent?.trim().slice(0, 30) ??
          '';
        out.push(
          `${element.tagName.toLowerCase()} "${name}" spans ${Math.round(box.left)}..${Math.round(box.right)}`,
        );
      }
    }
    return out;
  });
}

async function openMenu(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Open menu' }).click();
  const drawer = page.locator('#sidebar');
  await expect(drawer).toBeVisible();
  // The drawer slides in; measure it once its transition has finished, not mid-slide.
  await drawer.evaluate((element) =>
    Promise.all(element.getAnimations().map((animation) => animation.finished)),
  );
}

async function go(page: Page, testId: string): Promise<void> {
  await openMenu(page);
  await page.getByTestId(testId).click();
  // The drawer slides away; its buttons are off screen only once it has gone.
  await expect(page.locator('#sidebar')).toBeHidden();
}

test.describe('phone 390×844', () => {
  test.use({ viewport: PHONE, isMobile: true, hasTouch: true });

  test('every view fits the screen and keeps its controls reachable', async ({ page, requestLog }) => {
    await openApp(page);
    const shell = page.getByTestId('shell');
    expect(await overflowing(page), 'note list').toEqual([]);

    await page.getByTestId('topbar-new-note').click();
    await page.getByTestId('note-title').fill('Kubernetes fundamentals');
    await page.getByTestId('note-body').fill('| a | b |\n|---|---|\n| 1 | 2 |\n\n```js\nconst x = 1;\n```');
    await expect(page.getByTestId('save-status')).toHaveAttribute('data-state', 'saved');
    await expect(shell).toHaveAttribute('data-pane', 'editor');
    expect(await overflowing(page), 'editor').toEqual([]);
    // The title reads whole: it has a row of its own, not what the note's buttons leave.
    const title = await page
      .getByTestId('note-title')
      .evaluate((input) => ({ width: input.clientWidth, text: input.scrollWidth }));
    expect(title.width).toBeGreaterThan(PHONE.width * 0.7);
    expect(title.text).toBeLessThanOrEqual(title.width);
    await expect(page.getByTestId('history-open')).toBeInViewport();
    await expect(page.getByTestId('trash-note')).toBeInViewport();

    await openMenu(page);
    expect(await overflowing(page), 'menu').toEqual([]);
    await page.keyboard.press('Escape');

    // Chat: the thread has the screen; the conversation list unfolds from a button.
    await go(page, 'nav-chat');
    await expect(shell).toHaveAttribute('data-view', 'chat');
    await page.getByTestId('chat-input').fill('Hello from a phone');
    await page.getByTestId('chat-send').click();
    await expect(page.locator('[data-testid="chat-message"][data-role="assistant"]').last()).toHaveAttribute(
      'data-status',
      'completed',
    );
    await expect(page.getByTestId('chat-new')).toBeInViewport();
    const toggle = page.getByTestId('chat-conversations-toggle');
    await expect(toggle).toHaveText('Conversations (1)');
    await expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await expect(page.getByTestId('chat-conversation')).toBeHidden();
    await expect(page.getByTestId('chat-input')).toBeInViewport();
    expect(await overflowing(page), 'chat').toEqual([]);
    await toggle.click();
    await expect(page.getByTestId('chat-search')).toBeInViewport();
    await expect(page.getByTestId('chat-conversation').first()).toBeInViewport();
    expect(await overflowing(page), 'chat list').toEqual([]);
    // Picking a conversation folds the list away again.
    await page.getByTestId('chat-conversation').first().click();
    await expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await expect(page.getByTestId('chat-input')).toBeInViewport();

    // Agent: one column, the input and the timeline stacked.
    await go(page, 'nav-agent');
    await expect(shell).toHaveAttribute('data-view', 'agent');
    // Beside a run list the input would be under 160 px wide.
    const input = await page.getByTestId('agent-input').boundingBox();
    expect(input!.width).toBeGreaterThan(PHONE.width * 0.8);
    expect(await overflowing(page), 'agent').toEqual([]);

    await go(page, 'nav-transcription');
    await expect(shell).toHaveAttribute('data-view', 'transcription');
    expect(await overflowing(page), 'recordings').toEqual([]);

    await go(page, 'nav-benchmarks');
    await expect(shell).toHaveAttribute('data-view', 'benchmarks');
    // Measure the finished view: the embedder choices arrive after the first paint.
    await expect(page.getByTestId('benchmarks-view')).toHaveAttribute('data-ready', 'true');
    await expect(page.getByTestId('bench-embeddings')).toBeVisible();
    expect(await overflowing(page), 'benchmarks').toEqual([]);

    await go(page, 'nav-trash');
    await expect(page.getByTestId('note-list')).toBeVisible();
    expect(await overflowing(page), 'trash').toEqual([]);

    await go(page, 'nav-all');
    await page.getByTestId('search-input').fill('phone');
    await expect(page.getByTestId('search-input')).toHaveValue('phone');
    expect(await overflowing(page), 'search').toEqual([]);

    await openMenu(page);
    await page.getByTestId('open-settings').click();
    await expect(page.getByRole('dialog')).toBeVisible();
    expect(await overflowing(page), 'settings').toEqual([]);

    expect(requestLog.foreign()).toEqual([]);
  });

  test('the job panel does not hide the last notes: the list scrolls them out from under it', async ({
    page,
  }) => {
    await openApp(page);
    await importNotes(
      page,
      Array.from({ length: 30 }, (_, i) => [`Note ${String(i).padStart(2, '0')}`, `body ${i}`] as const),
    );
    // The finished import stays in the panel until cleared.
    const panel = page.getByTestId('job-panel');
    await expect(panel).toBeVisible();
    await page.getByTestId('note-sort').selectOption('title');
    const last = page.getByTestId('note-item').filter({ hasText: 'Note 29' });
    const list = page.getByTestId('note-list');
    await expect
      .poll(async () => {
        // Rows are measured as they come into view: scroll to the end until it holds.
        await list.evaluate((element) => element.scrollTo({ top: element.scrollHeight }));
        const row = await last.boundingBox();
        const over = await panel.boundingBox();
        return row !== null && over !== null && row.y + row.height <= over.y;
      })
      .toBe(true);
  });

  test('the export menu opens inside the screen, also once it lists recent exports', async ({ page }) => {
    await openApp(page);
    await page.getByTestId('topbar-new-note').click();
    await page.getByTestId('note-title').fill('操作系统/复习 OS review');
    await page.getByTestId('note-body').fill('# 进程调度 Process scheduling\n\nFCFS runs in $O(n)$ time.');
    await expect(page.getByTestId('save-status')).toHaveAttribute('data-state', 'saved');
    await page.getByTestId('export-note').click();
    for (const format of ['html', 'pdf', 'docx']) {
      await expect(page.getByTestId(`export-format-${format}`)).toBeInViewport({ ratio: 1 });
    }
    expect(await overflowing(page), 'export menu').toEqual([]);

    const download = page.waitForEvent('download');
    await page.getByTestId('export-format-html').click();
    await download;
    await page.getByTestId('export-note').click();
    // The recent file's long name widens the menu; it still fits.
    await expect(page.getByTestId('export-recent-download')).toBeVisible();
    for (const format of ['html', 'pdf', 'docx']) {
      await expect(page.getByTestId(`export-format-${format}`)).toBeInViewport({ ratio: 1 });
    }
    expect(await overflowing(page), 'export menu with recent exports').toEqual([]);
  });

  test('a menu opened while the app loads stays open; an item picked in it then closes it', async ({
    page,
  }) => {
    // Start-up waits for the core worker: holding its script keeps the app loading.
    const held: Array<() => void> = [];
    await page.route(/\/assets\/core\.worker-[^/]*\.js$/, async (route) => {
      await new Promise<void>((resolve) => held.push(resolve));
      await route.continue();
    });
    const release = () => held.splice(0).forEach((resume) => resume());
    const menu = page.getByRole('button', { name: 'Open menu' });

    await page.goto('/');
    await expect.poll(() => held.length).toBeGreaterThan(0);
    await menu.click();
    await expect(page.locator('#sidebar')).toBeVisible();
    release();
    await expect(page.getByTestId('shell')).toHaveAttribute('aria-busy', 'false');
    await expect(page.locator('#sidebar')).toBeVisible();

    await page.goto('about:blank');
    await page.goto('/');
    await expect.poll(() => held.length).toBeGreaterThan(0);
    await menu.click();
    await page.getByTestId('nav-benchmarks').click();
    release();
    await expect(page.getByTestId('shell')).toHaveAttribute('aria-busy', 'false');
    await expect(page.getByTestId('shell')).toHaveAttribute('data-view', 'benchmarks');
    await expect(page.locator('#sidebar')).toBeHidden();
  });

  test('the installed app may turn to portrait', async ({ request }) => {
    const manifest = (await (await request.get('/manifest.webmanifest')).json()) as {
      orientation?: string;
      display?: string;
    };
    expect(manifest.display).toBe('standalone');
    // "any" lets a phone hold it upright and a tablet either way; no orientation is locked to landscape.
    expect(['any', 'portrait', 'natural']).toContain(manifest.orientation);
  });
});
