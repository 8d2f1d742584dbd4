import { execFileSync } from 'node:child_process';
import { createNote, expect, openApp, test } from './fixtures';
import { holdCore, installCoreHold, releaseCore } from './harness/core-hold';
import { openSharedNoteTwice, raceSaves } from './harness/two-tabs';

// Three things a tablet user met: tags typed as in Obsidian, exporting during a two-tab
// conflict, and the agent's model picker while it loads.

test('tags typed with spaces and "#" as in Obsidian become separate tags', async ({ page }) => {
  await openApp(page);
  await createNote(page, 'Weekly', 'notes of the week');
  await page.getByTestId('note-tags').fill('会议 #周会, #roadmap，产品');
  await page.getByTestId('note-body').click();
  await expect(page.getByTestId('save-status')).toHaveAttribute('data-state', 'saved');

  const tags = page.getByTestId('tag-item');
  for (const tag of ['会议', '周会', 'roadmap', '产品'])
    await expect(page.locator(`[data-testid="tag-item"][data-tag="${tag}"]`)).toBeVisible();
  await expect(tags).toHaveCount(4);
  await expect(page.locator('[data-testid="tag-item"][data-tag="会议 #周会"]')).toHaveCount(0);
  // Reopened, the field shows the tags one by one, without "#".
  await page.reload();
  await expect(page.getByTestId('note-tags')).toHaveValue('会议, 周会, roadmap, 产品');
});

test('Export during an unsaved two-tab conflict exports the text on screen and says so', async ({
  context,
  page: tabA,
}) => {
  const tabB = await openSharedNoteTwice(context, tabA);
  await raceSaves(tabA, 'tab A saved this', tabB, 'tab B typed this on screen');
  await expect(tabB.getByTestId('conflict-banner')).toBeVisible();

  const download = tabB.waitForEvent('download');
  await tabB.getByTestId('export-note').click();
  await tabB.getByTestId('export-format-pdf').click();
  const file = await download;
  expect(file.suggestedFilename()).toBe('Shared.pdf');
  const text = execFileSync('pdftotext', [await file.path(), '-'], { encoding: 'utf8' });
  expect(text).toContain('tab B typed this on screen');
  expect(text).not.toContain('tab A saved this');
  await expect(tabB.getByTestId('toast').filter({ hasText: 'Exported Shared.pdf' })).toContainText(
    'The file holds the unsaved text on your screen, not the saved version of the note.',
  );
  // The conflict is still hers to settle: the export changed nothing stored.
  await expect(tabB.getByTestId('conflict-banner')).toBeVisible();
});

test('the agent model picker says it is loading, not that a model cannot run, until the choice is known', async ({
  page,
}) => {
  await installCoreHold(page);
  await openApp(page);
  // The app has started (its first answers are in) before the core is held.
  await createNote(page, 'Plan', 'ask the agent');
  await holdCore(page);
  await page.getByTestId('nav-agent').click();
  const picker = page.getByTestId('agent-model');
  await expect(picker).toBeVisible();
  await expect(picker.locator('option:checked')).toHaveText('Loading models…');
  await expect(picker).toBeDisabled();
  await expect(page.getByTestId('agent-model-refusal')).toHaveCount(0);
  await expect(picker).not.toContainText('cannot run');

  await releaseCore(page);
  await expect(picker.locator('option:checked')).toHaveText('Demo (scripted, offline)');
  await expect(picker).toBeEnabled();
  await expect(page.getByTestId('agent-model-refusal')).toHaveCount(0);
});
