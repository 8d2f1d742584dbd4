import { join } from 'node:path';
import { zipSync } from 'fflate';
import type { Locator, Page } from '@playwright/test';
import { openPluginSettings, pluginItem, samplePackage } from './harness/plugin-steps';
import { createNote, expect, openApp, test } from './fixtures';

/**
 * A keyboard and screen-reader walk-through: after each of these actions the focus stays on the
 * control that did it, or goes on to the next one, never to the page's body (where a screen
 * reader starts again from the top); and what happened is said.
 */

async function openSettingsPage(page: Page, id: string): Promise<void> {
  await openApp(page, `/#/settings/${id}`);
  await expect(page.getByTestId(`settings-page-${id}`)).toBeVisible();
}

async function trashNote(page: Page, title: string): Promise<void> {
  await createNote(page, title, 'text');
  await page.getByTestId('trash-note').focus();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('note-item').filter({ hasText: title })).toHaveCount(0);
}

test.describe('the toast’s Undo', () => {
  test('gives the keyboard back where it came from, and says it undid', async ({ page }) => {
    await openApp(page);
    await trashNote(page, 'Whale');
    const newNote = page.getByTestId('new-note');
    await newNote.focus();
    const toast = page.getByTestId('toast').filter({ hasText: 'Moved to trash' });
    await toast.getByRole('button', { name: 'Undo' }).focus();
    await page.keyboard.press('Enter');

    await expect(page.getByTestId('note-item').filter({ hasText: 'Whale' })).toHaveCount(1);
    await expect(toast).toHaveCount(0);
    await expect(newNote).toBeFocused();
    await expect(page.getByTestId('toast-undone')).toHaveText('Undone.');
  });

  test('with nowhere to go back to, the keyboard lands on the main landmark', async ({ page }) => {
    await openApp(page);
    await trashNote(page, 'Narwhal');
    // The focus comes to the toast from the page's body (the trash left it on "New note").
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    const toast = page.getByTestId('toast').filter({ hasText: 'Moved to trash' });
    await toast.getByRole('button', { name: 'Undo' }).focus();
    await page.keyboard.press('Enter');

    await expect(page.getByTestId('note-title')).toHaveValue('Narwhal');
    await expect(page.locator('#main-content')).toBeFocused();
  });

  test('lasts at least ten seconds, and longer while the focus is in the toasts', async ({ page }) => {
    await page.clock.install();
    await openApp(page);
    await createNote(page, 'Orca', 'text');
    // From here the page's time moves only when the test moves it: a busy machine cannot age the toast.
    await page.clock.pauseAt(new Date(Date.now() + 60_000));
    await page.getByTestId('trash-note').focus();
    await page.keyboard.press('Enter');
    await expect(page.getByTestId('note-item').filter({ hasText: 'Orca' })).toHaveCount(0);
    const toast = page.getByTestId('toast').filter({ hasText: 'Moved to trash' });
    await page.clock.fastForward('00:09');
    await expect(toast).toHaveCount(1);

    await toast.getByRole('button', { name: 'Dismiss' }).focus();
    await page.clock.fastForward('01:00');
    await expect(toast).toHaveCount(1);

    await page.getByTestId('new-note').focus();
    await page.clock.fastForward('00:11');
    await expect(toast).toHaveCount(0);
  });
});

test.describe('exporting', () => {
  test('a format chosen from the menu gives the keyboard back to the export button', async ({ page }) => {
    await openApp(page);
    await createNote(page, 'Handout', 'Some text');
    const button = page.getByTestId('export-note');
    await button.focus();
    await page.keyboard.press('Enter');
    await expect(page.getByTestId('export-format-html')).toBeFocused();
    let download = page.waitForEvent('download');
    await page.keyboard.press('Enter');
    expect((await download).suggestedFilename()).toBe('Handout.html');
    await expect(button).toBeFocused();

    await page.keyboard.press('Enter');
    await expect(page.getByTestId('export-format-html')).toBeFocused();
    await page.keyboard.press('ArrowDown');
    await expect(page.getByTestId('export-format-pdf')).toBeFocused();
    download = page.waitForEvent('download');
    await page.keyboard.press('Enter');
    expect((await download).suggestedFilename()).toBe('Handout.pdf');
    await expect(button).toBeFocused();
  });

  test('the export menu holds menu items only; the options open from one of them', async ({ page }) => {
    await openApp(page);
    await createNote(page, 'Handout', 'Some text');
    await page.getByTestId('export-note').focus();
    await page.keyboard.press('Enter');
    const menu = page.getByRole('menu', { name: 'Export this note' });
    await expect(menu.getByRole('menuitem').first()).toBeFocused();
    await expect(menu.getByRole('combobox')).toHaveCount(0);
    await expect(menu.getByRole('menuitem', { name: 'Export with options…' })).toBeVisible();
  });

  test('Export all (.zip) keeps the focus while it exports', async ({ page }) => {
    await openApp(page);
    await createNote(page, 'Backup me', 'text');
    const button = page.getByTestId('export-all');
    await button.focus();
    const download = page.waitForEvent('download');
    await page.keyboard.press('Enter');
    await download;
    await expect(button).toHaveText('Export all (.zip)');
    await expect(button).toBeFocused();
  });
});

test('installing and enabling a plugin keeps the focus on its button', async ({ page }) => {
  await openApp(page);
  const section = await openPluginSettings(page);
  const install = section.getByTestId('plugin-install');
  await install.focus();
  const chooser = page.waitForEvent('filechooser');
  await page.keyboard.press('Enter');
  await (
    await chooser
  ).setFiles({
    name: 'word-counter.zip',
    mimeType: 'application/zip',
    buffer: samplePackage(join(process.cwd(), 'e2e/plugins/word-counter')),
  });
  const plugin = pluginItem(section, 'word-counter');
  await expect(plugin).toHaveAttribute('data-state', 'installed');
  await expect(install).toBeFocused();

  await plugin.getByTestId('plugin-enable').focus();
  await page.keyboard.press('Enter');
  await expect(plugin).toHaveAttribute('data-state', 'enabled');
  await expect(plugin.getByTestId('plugin-disable')).toBeFocused();
});

test.describe('providers', () => {
  /** Adds "Script" beside the mock provider the app starts with; gives both rows' names, in order. */
  async function twoProviders(page: Page): Promise<string[]> {
    await openSettingsPage(page, 'providers');
    await page.getByTestId('provider-add').click();
    await page.getByTestId('provider-preset').selectOption('custom');
    await page.getByTestId('provider-name').fill('Script');
    await page.getByTestId('provider-base-url').fill('https://llm.notes-agent.test/v1');
    await page.getByTestId('provider-model').fill('script-model');
    await page.getByTestId('provider-save').click();
    const rows = page.getByTestId('provider-item');
    await expect(rows).toHaveCount(2);
    const names = await rows
      .locator('.provider-name')
      .evaluateAll((spans) => spans.map((span) => span.firstChild?.textContent?.trim() ?? ''));
    expect(names).toContain('Script');
    return names;
  }

  async function deleteProvider(page: Page, row: Locator): Promise<void> {
    await row.getByTestId('provider-delete').focus();
    await page.keyboard.press('Enter');
    await page.getByTestId('confirm-accept').focus();
    await page.keyboard.press('Enter');
  }

  test('each row’s Edit and Delete say which provider they are for', async ({ page }) => {
    await twoProviders(page);
    await expect(page.getByRole('button', { name: 'Edit Script' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Delete Script' })).toBeVisible();
  });

  test('Test keeps the focus while it runs', async ({ page }) => {
    await twoProviders(page);
    await page.getByTestId('provider-item').first().getByTestId('provider-edit').focus();
    await page.keyboard.press('Enter');
    const testButton = page.getByTestId('provider-test');
    await testButton.focus();
    await page.keyboard.press('Enter');
    await expect(page.getByTestId('provider-test-result')).toBeVisible();
    await expect(testButton).toBeFocused();
  });

  test('after a delete the focus goes to the next provider, then to Add provider', async ({ page }) => {
    const names = await twoProviders(page);
    const rows = page.getByTestId('provider-item');
    await rows.first().getByTestId('provider-delete').focus();
    await page.keyboard.press('Enter');
    // The question is read with the dialog's name.
    await expect(page.getByRole('dialog', { name: 'Delete' })).toHaveAccessibleDescription(
      `Delete the provider “${names[0]}” and its stored key?`,
    );
    await page.getByTestId('confirm-accept').focus();
    await page.keyboard.press('Enter');
    await expect(rows).toHaveCount(1);
    await expect(rows.first().getByTestId('provider-edit')).toBeFocused();

    await deleteProvider(page, rows.first());
    await expect(rows).toHaveCount(0);
    await expect(page.getByTestId('provider-add')).toBeFocused();
  });
});

test('themes and local models name the item each row button is for, in both languages', async ({ page }) => {
  await openSettingsPage(page, 'general');
  const themes = page.getByTestId('theme-settings');
  await expect(themes.getByRole('button', { name: 'Use Dark' })).toBeVisible();
  await expect(themes.getByRole('button', { name: 'Uninstall Dark' })).toBeVisible();

  await openSettingsPage(page, 'local-models');
  const start = page.getByTestId('local-model-start').first();
  await expect(start).toHaveAccessibleName(/^Download \S/);
});

test.describe('in Chinese', () => {
  test.use({ locale: 'zh-CN' });

  test('row buttons are named with their item', async ({ page }) => {
    await openSettingsPage(page, 'general');
    const themes = page.getByTestId('theme-settings');
    await expect(themes.getByRole('button', { name: '使用 深色' })).toBeVisible();
    await expect(themes.getByRole('button', { name: '卸载 深色' })).toBeVisible();
  });
});

test('the job panel says when a job starts and ends, not each step of it', async ({ page }) => {
  await openApp(page);
  const text = (value: string) => new TextEncoder().encode(value);
  await page.getByTestId('import-zip-input').setInputFiles({
    name: 'all.zip',
    mimeType: 'application/zip',
    buffer: Buffer.from(zipSync({ 'one.md': text('# One\n\nA note.') })),
  });
  const dialog = page.getByTestId('import-dialog');
  await dialog.getByTestId('import-start').focus();
  await page.keyboard.press('Enter');
  const job = page.getByTestId('job-item').first();
  await expect(job).toHaveAttribute('data-status', 'completed');

  const list = page.locator('#job-panel-list');
  await expect(list).toHaveCount(1);
  await expect(list).not.toHaveAttribute('aria-live');
  const status = page.getByTestId('job-panel-status');
  await expect(status).toHaveAttribute('role', 'status');
  await expect(status).toHaveText('Import · all.zip finished.');
  const progress = job.getByTestId('job-progress');
  await expect(progress).toHaveAttribute('role', 'progressbar');
  await expect(progress).toHaveAttribute('aria-label', /Import/);
  await expect(progress).toHaveAttribute('aria-valuenow', /^\d+$/);
});
