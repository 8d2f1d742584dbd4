import type { BrowserContext, Page } from '@playwright/test';
import { createNote, expect, openApp, test, waitForServiceWorker } from './fixtures';
import { askNotes } from './harness/chat-steps';

const hashOf = (page: Page) => new URL(page.url()).hash;

/** Holds the core worker's script until the returned function is called: start-up cannot end before. */
async function holdCoreScript(context: BrowserContext): Promise<() => void> {
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await context.route(/\/assets\/core\.worker-[^/]*\.js$/, async (route) => {
    await held;
    await route.continue();
  });
  return release;
}

async function noteIdOf(page: Page, title: string): Promise<string> {
  const item = page.getByTestId('note-item').filter({ hasText: title });
  await expect(item).toHaveCount(1);
  return (await item.getAttribute('data-note-id'))!;
}

test.describe('desktop', () => {
  test.use({ viewport: { width: 1280, height: 800 } });

  test('every view and note has an address; Back and Forward walk them', async ({ page, requestLog }) => {
    await openApp(page);
    await createNote(page, 'Alpha', 'first body');
    await createNote(page, 'Beta', 'second body');
    const alpha = await noteIdOf(page, 'Alpha');
    const beta = await noteIdOf(page, 'Beta');
    // A note made with "New note" is in the address too.
    expect(hashOf(page)).toBe(`#/notes/${beta}`);

    await page.getByTestId('note-item').filter({ hasText: 'Alpha' }).click();
    await expect(page.getByTestId('note-title')).toHaveValue('Alpha');
    expect(hashOf(page)).toBe(`#/notes/${alpha}`);

    const shell = page.getByTestId('shell');
    const views: Array<[string, string, string]> = [
      ['nav-chat', 'chat', '#/chat'],
      ['nav-agent', 'agent', '#/agent'],
      ['nav-transcription', 'transcription', '#/recordings'],
      ['nav-benchmarks', 'benchmarks', '#/benchmarks'],
    ];
    for (const [testId, view, hash] of views) {
      await page.getByTestId(testId).click();
      await expect(shell).toHaveAttribute('data-view', view);
      expect(hashOf(page)).toBe(hash);
    }
    await page.getByTestId('nav-trash').click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(/Trash/);
    expect(hashOf(page)).toBe('#/trash');

    // Back through every view to the note, then Forward again.
    await page.goBack();
    await expect(shell).toHaveAttribute('data-view', 'benchmarks');
    for (const [, view, hash] of [...views].reverse()) {
      await expect(shell).toHaveAttribute('data-view', view);
      expect(hashOf(page)).toBe(hash);
      await page.goBack();
    }
    await expect(shell).toHaveAttribute('data-view', 'notes');
    await expect(page.getByTestId('note-title')).toHaveValue('Alpha');
    await page.goBack();
    await expect(page.getByTestId('note-title')).toHaveValue('Beta');
    expect(hashOf(page)).toBe(`#/notes/${beta}`);
    await page.goForward();
    await expect(page.getByTestId('note-title')).toHaveValue('Alpha');
    await page.goForward();
    await expect(shell).toHaveAttribute('data-view', 'chat');

    // Settings has an address; closing it returns to where it was opened.
    await page.goBack();
    await expect(page.getByTestId('note-title')).toHaveValue('Alpha');
    await page.getByTestId('open-settings').click();
    await expect(page.getByRole('dialog')).toBeVisible();
    expect(hashOf(page)).toBe('#/settings');
    await page.keyboard.press('Escape');
    await expect(page.getByRole('dialog')).toHaveCount(0);
    await expect.poll(() => hashOf(page)).toBe(`#/notes/${alpha}`);
    // Back while Settings is open closes it.
    await page.getByTestId('open-settings').click();
    await expect(page.getByRole('dialog')).toBeVisible();
    await page.goBack();
    await expect(page.getByRole('dialog')).toHaveCount(0);
    expect(hashOf(page)).toBe(`#/notes/${alpha}`);

    expect(requestLog.foreign()).toEqual([]);
  });

  test('a Settings page has its own address: opened directly, kept on reload, replaced as pages change', async ({
    page,
  }) => {
    await openApp(page);
    await page.goto('/#/settings/providers');
    const settings = page.getByTestId('settings');
    await expect(settings).toHaveAttribute('data-page', 'providers');
    await expect(page.getByTestId('settings-page-providers')).toBeVisible();
    await page.getByTestId('settings-nav-storage').click();
    await expect(settings).toHaveAttribute('data-page', 'storage');
    await expect.poll(() => hashOf(page)).toBe('#/settings/storage');
    await page.reload();
    await expect(page.getByTestId('settings')).toHaveAttribute('data-page', 'storage');
    await page.keyboard.press('Escape');
    await expect(page.getByRole('dialog')).toHaveCount(0);
    await expect.poll(() => hashOf(page)).not.toContain('#/settings');
  });

  test('Settings opened while the app is still starting gets its address too', async ({ page, context }) => {
    // The core worker's script is held until the gear is clicked, so start-up cannot end first.
    const releaseCore = await holdCoreScript(context);
    await page.goto('/');
    await page.getByTestId('open-settings').click();
    await expect(page.getByTestId('settings')).toBeVisible();
    await expect(page.getByTestId('shell')).toHaveAttribute('aria-busy', 'true');
    releaseCore();
    await expect(page.getByTestId('shell')).toHaveAttribute('aria-busy', 'false');
    await expect(page.getByTestId('settings')).toBeVisible();
    await expect.poll(() => hashOf(page)).toMatch(/^#\/settings/);

    await page.getByTestId('settings-nav-storage').click();
    await expect.poll(() => hashOf(page)).toBe('#/settings/storage');
    await page.reload();
    await expect(page.getByTestId('settings')).toHaveAttribute('data-page', 'storage');
    // Back closes it, to the notebook it was opened over.
    await page.goBack();
    await expect(page.getByRole('dialog')).toHaveCount(0);
    await expect.poll(() => hashOf(page)).toBe('#/notes');
  });

  test('a search typed while the app is still starting is kept and answered', async ({ page, context }) => {
    await openApp(page);
    await createNote(page, 'Kernel notes', 'kubernetes scheduling');
    // The core worker's script is held until the query is typed, so start-up cannot end first.
    const releaseCore = await holdCoreScript(context);
    // Opened at the list's address, which used to clear the search when start-up applied it.
    await page.goto('about:blank');
    await page.goto('/#/notes');
    await page.getByTestId('search-input').fill('kubernetes');
    await expect(page.getByTestId('shell')).toHaveAttribute('aria-busy', 'true');
    releaseCore();
    await expect(page.getByTestId('shell')).toHaveAttribute('aria-busy', 'false');
    await expect(page.getByTestId('search-result').first()).toContainText('Kernel notes');
    await expect(page.getByTestId('search-input')).toHaveValue('kubernetes');
    // The last note reopens beside the results, as a note opened from them would.
    await expect(page.getByTestId('note-title')).toHaveValue('Kernel notes');
  });

  test('folder and tag filters and a search are in the address and survive a reload', async ({ page }) => {
    await openApp(page);
    await createNote(page, 'Kernel notes', 'kubernetes scheduling');
    await page.getByTestId('note-folder').fill('课程/操作系统');
    await page.getByTestId('note-tags').fill('os');
    await expect(page.getByTestId('save-status')).toHaveAttribute('data-state', 'saved');
    await createNote(page, 'Loose', 'nothing here');

    await page.locator('[data-testid="folder-item"][data-folder="课程"]').click();
    await expect(page.getByTestId('note-item')).toHaveCount(1);
    expect(decodeURIComponent(hashOf(page))).toBe('#/notes?folder=课程');
    await page.reload();
    await expect(page.getByTestId('note-item')).toHaveCount(1);
    await expect(page.locator('[data-testid="folder-item"][data-folder="课程"]')).toHaveAttribute(
      'aria-selected',
      'true',
    );

    await page.getByTestId('nav-all').click();
    await expect(page.getByTestId('note-item')).toHaveCount(2);
    await page.getByTestId('search-input').fill('kubernetes');
    await expect.poll(() => hashOf(page)).toBe('#/search?q=kubernetes');
    await page.reload();
    await expect(page.getByTestId('search-input')).toHaveValue('kubernetes');
    await page.goBack();
    await expect(page.getByTestId('note-item')).toHaveCount(2);
    await expect(page.getByTestId('search-input')).toHaveValue('');
  });

  test('a citation opens its note and Back returns to the conversation', async ({ page }) => {
    await openApp(page);
    await createNote(page, 'Travel plans', 'The quokkaberry festival takes place every March in Wellington.');
    const answer = await askNotes(page, 'When is the quokkaberry festival?');
    await expect.poll(() => hashOf(page)).toMatch(/^#\/chat\/.+/);
    const chatHash = hashOf(page);

    await answer.getByTestId('chat-citation').first().click();
    await expect(page.getByTestId('note-title')).toHaveValue('Travel plans');
    expect(hashOf(page)).toMatch(/^#\/notes\/.+/);

    await page.goBack();
    await expect(page.getByTestId('shell')).toHaveAttribute('data-view', 'chat');
    expect(hashOf(page)).toBe(chatHash);
    await expect(page.locator('[data-testid="chat-message"][data-role="assistant"]')).toHaveCount(1);
    await page.goForward();
    await expect(page.getByTestId('note-title')).toHaveValue('Travel plans');

    // The conversation's address opens it in a fresh page.
    await page.goto(`/${chatHash}`);
    await expect(page.locator('[data-testid="chat-message"][data-role="assistant"]')).toContainText(
      'Travel plans',
    );
  });

  test.describe('with the service worker', () => {
    test.use({ serviceWorkers: 'allow' });

    test('a bookmarked note opens directly, also offline', async ({ page, context, requestLog }) => {
      await openApp(page);
      await waitForServiceWorker(page);
      await createNote(page, 'Bookmarked', 'open me from the address');
      await createNote(page, 'Other', 'not this one');
      const id = await noteIdOf(page, 'Bookmarked');

      const fresh = await context.newPage();
      await fresh.goto(`/#/notes/${id}`);
      await expect(fresh.getByTestId('note-title')).toHaveValue('Bookmarked');
      await fresh.close();

      await context.setOffline(true);
      const offline = await context.newPage();
      await offline.goto(`/#/notes/${id}`);
      await expect(offline.getByTestId('note-title')).toHaveValue('Bookmarked');
      expect(await offline.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);
      // The hash never reached the network: every request was for the app's own files.
      expect(requestLog.urls.some((url) => url.includes('#'))).toBe(false);
      expect(requestLog.foreign()).toEqual([]);
    });
  });

  test('an address naming a note that no longer exists says so and then names what is shown', async ({
    page,
  }) => {
    await openApp(page);
    await createNote(page, 'Still here', 'text');
    const id = await noteIdOf(page, 'Still here');
    const gone = page.getByTestId('toast').filter({ hasText: 'That note no longer exists.' });

    // Followed while a note is open: that note stays, and so does its address.
    await page.evaluate(() => (location.hash = '#/notes/note_deleted_long_ago'));
    await expect(gone).toBeVisible();
    await expect(page).toHaveURL(new RegExp(`#/notes/${id}$`));
    await expect(page.getByTestId('note-title')).toHaveValue('Still here');

    // Opened afresh in a new tab (an old bookmark): the notebook's own address, and a reload
    // shows no error.
    const fresh = await page.context().newPage();
    await fresh.goto('/#/notes/note_deleted_long_ago');
    const freshGone = fresh.getByTestId('toast').filter({ hasText: 'That note no longer exists.' });
    await expect(freshGone).toBeVisible();
    await expect(fresh).toHaveURL(/#\/notes$/);
    await fresh.reload();
    await expect(fresh.getByTestId('note-item')).toHaveCount(1);
    await expect(freshGone).toHaveCount(0);
    await fresh.close();
  });
});

test.describe('phone', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test('a note is a page of its own: Back shows the list again', async ({ page }) => {
    await openApp(page);
    // The router has started (it writes the canonical address), so the new note is a page of its own.
    await expect.poll(() => hashOf(page)).toBe('#/notes');
    await page.getByTestId('topbar-new-note').click();
    await page.getByTestId('note-title').fill('Pocket');
    await expect(page.getByTestId('save-status')).toHaveAttribute('data-state', 'saved');
    const shell = page.getByTestId('shell');
    await expect(shell).toHaveAttribute('data-pane', 'editor');
    const id = await page.evaluate(() => location.hash.split('/')[2]);

    await page.goBack();
    await expect(shell).toHaveAttribute('data-pane', 'list');
    await expect(page.getByTestId('note-list')).toBeVisible();
    await page.getByTestId('note-item').filter({ hasText: 'Pocket' }).click();
    await expect(shell).toHaveAttribute('data-pane', 'editor');
    expect(hashOf(page)).toBe(`#/notes/${id}`);

    await page.goto(`/#/notes/${id}`);
    await expect(page.getByTestId('note-title')).toHaveValue('Pocket');
    await expect(page.getByTestId('note-title')).toBeVisible();
  });

  test('the note just left, opened again from the search results, is a page of its own again', async ({
    page,
  }) => {
    await openApp(page);
    await expect.poll(() => hashOf(page)).toBe('#/notes');
    await page.getByTestId('topbar-new-note').click();
    await page.getByTestId('note-title').fill('Pocket 调度');
    await page.getByTestId('note-body').fill('进程调度 fits in a pocket');
    await expect(page.getByTestId('save-status')).toHaveAttribute('data-state', 'saved');
    const id = await page.evaluate(() => location.hash.split('/')[2]);
    const shell = page.getByTestId('shell');
    const back = page.getByRole('button', { name: 'Back to list' });
    await back.click();
    await expect(shell).toHaveAttribute('data-pane', 'list');

    await page.getByTestId('search-input').fill('pocket');
    const result = page.getByTestId('search-result').first();
    await result.click();
    await expect(shell).toHaveAttribute('data-pane', 'editor');
    await expect.poll(() => hashOf(page)).toBe(`#/notes/${id}`);
    await back.click();
    await expect.poll(() => hashOf(page)).toBe('#/search?q=pocket');
    // The same note again: it was still the editor's note, so nothing else records the visit.
    await result.click();
    await expect.poll(() => hashOf(page)).toBe(`#/notes/${id}`);

    await page.goBack();
    await expect(shell).toHaveAttribute('data-pane', 'list');
    await expect(result).toBeVisible();
    expect(hashOf(page)).toBe('#/search?q=pocket');
  });
});
