import { expect, test } from './fixtures';
import { openSharedNoteTwice, raceSaves } from './harness/two-tabs';

test("two tabs write one note: the losing tab's text is kept in the history, shown and restorable there", async ({
  context,
  page: tabA,
}) => {
  const tabB = await openSharedNoteTwice(context, tabA);
  await raceSaves(tabA, 'tab A wins the race', tabB, 'tab B typed this');

  // Tab B is told, its text stays on screen, and it is kept in the history.
  const banner = tabB.getByTestId('conflict-banner');
  await expect(banner).toBeVisible();
  await expect(banner.getByTestId('conflict-kept')).toHaveText(
    "Your text is also kept in this note's history.",
  );
  await expect(
    tabB
      .getByTestId('toast')
      .filter({ hasText: "Your text is kept in the note's history as a conflict version" }),
  ).toBeVisible();
  await expect(tabB.getByTestId('note-body')).toHaveValue('tab B typed this');
  await expect(tabB.getByTestId('save-status')).toHaveAttribute('data-state', 'error');

  // "Show in history" opens the kept text against what tab A stored.
  await banner.getByRole('button', { name: 'Show in history' }).click();
  const dialog = tabB.getByTestId('history-dialog');
  const versions = dialog.getByTestId('history-version');
  await expect(versions.first()).toHaveAttribute('data-origin', 'conflict');
  await expect(versions.first()).toHaveAttribute('aria-pressed', 'true');
  await expect(versions.first()).toContainText('Your text that lost to another tab');
  await expect(dialog.getByTestId('history-diff')).toContainText('-tab B typed this');
  await expect(dialog.getByTestId('history-diff')).toContainText('+tab A wins the race');

  // Restoring it makes tab B's text the note; tab A's text becomes a version in turn.
  await dialog.getByTestId('history-restore').click();
  await expect(banner).toBeHidden();
  await expect(tabB.getByTestId('note-body')).toHaveValue('tab B typed this');
  await expect(tabB.getByTestId('save-status')).toHaveAttribute('data-state', 'saved');
  await expect(versions.first()).toHaveAttribute('data-origin', 'restore');
  await versions.first().click();
  await expect(dialog.getByTestId('history-diff')).toContainText('-tab A wins the race');

  // Tab A, opened again, shows the restored text; nothing either tab typed is gone.
  await tabA.reload();
  await expect(tabA.getByTestId('note-body')).toHaveValue('tab B typed this');
});

test("a tab that lost a save and reloads still finds its text in the note's history", async ({
  context,
  page: tabA,
}) => {
  const tabB = await openSharedNoteTwice(context, tabA);
  await raceSaves(tabA, 'tab A first', tabB, 'tab B second');
  await expect(tabB.getByTestId('conflict-banner').getByTestId('conflict-kept')).toBeVisible();

  // Tab B takes the saved version; its own text is dropped from the editor, not from the history.
  await tabB.getByTestId('conflict-banner').getByRole('button', { name: 'Use the saved version' }).click();
  await expect(tabB.getByTestId('note-body')).toHaveValue('tab A first');
  await expect(tabB.getByTestId('conflict-banner')).toBeHidden();

  // Tab A saves again, tab B reloads: tab B's text is still one click away.
  await tabA.getByTestId('note-body').fill('tab A again');
  await expect(tabA.getByTestId('save-status')).toHaveAttribute('data-state', 'saved');
  await tabB.reload();
  await expect(tabB.getByTestId('note-body')).toHaveValue('tab A again');
  await tabB.getByTestId('history-open').click();
  const dialog = tabB.getByTestId('history-dialog');
  const kept = dialog.getByTestId('history-version').and(dialog.locator('[data-origin="conflict"]'));
  await expect(kept).toHaveCount(1);
  await kept.click();
  await expect(dialog.getByTestId('history-diff')).toContainText('-tab B second');
});
