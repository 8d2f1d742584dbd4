import type { Page } from '@playwright/test';
import { createNote, expect, openApp, test } from './fixtures';

const SHORT_NOTE = '# Deadlock\n\n## Four conditions\n\nMutual exclusion, hold and wait.\n';

/** Opens the app with the note "Deadlock notes" written, in the Agent view. */
async function openAgentWithNote(page: Page, body: string): Promise<void> {
  await openApp(page);
  await createNote(page, 'Deadlock notes', body);
  await page.getByTestId('nav-agent').click();
}

/** Asks the demo agent for review tasks from that note: it finds it, then asks before writing. */
async function askForTasks(page: Page): Promise<void> {
  await page.getByTestId('agent-input').fill('Find my deadlock note and create three review tasks from it');
  await page.getByTestId('agent-run').click();
}

test('the agent finds a note, asks before writing three tasks, and its run replays after a reload', async ({
  page,
  requestLog,
}) => {
  await openAgentWithNote(
    page,
    '# Deadlock\n\n## Four conditions\n\nMutual exclusion, hold and wait, no preemption, circular wait.\n\n## Banker algorithm\n\nCheck for a safe state before granting.\n\n## Recovery\n\nKill a process or preempt resources.\n',
  );
  await askForTasks(page);

  // The write waits for the user.
  const permission = page.getByTestId('agent-permission');
  await expect(permission).toBeVisible();
  await permission.getByTestId('permission-allow-once').click();

  const run = page.getByTestId('agent-run-item').first();
  await expect(run).toHaveAttribute('data-status', 'completed', { timeout: 30_000 });
  const timeline = page.getByTestId('agent-timeline').getByTestId('agent-event');
  const events = await timeline.evaluateAll((items) => items.map((item) => item.getAttribute('data-event')));
  expect(events).toContain('PermissionRequired');
  expect(events).toContain('PermissionResolved');
  expect(events.filter((name) => name === 'ToolCall').length).toBeGreaterThanOrEqual(3);
  expect(events.at(-1)).toBe('RunCompleted');

  // The tasks are in the note.
  await page.getByTestId('nav-all').click();
  await page.getByTestId('note-item').filter({ hasText: 'Deadlock notes' }).click();
  // The editor may still show the note as it was before the agent's writes until it has fetched it again.
  await expect
    .poll(async () => (await page.getByTestId('note-body').inputValue()).match(/^- \[ \] /gm)?.length ?? 0)
    .toBe(3);

  // After a reload the stored run shows the same timeline.
  await page.reload();
  await page.getByTestId('nav-agent').click();
  await page.getByTestId('agent-run-item').first().click();
  await expect(page.getByTestId('agent-timeline').getByTestId('agent-event')).toHaveCount(events.length);
  const replayed = await page
    .getByTestId('agent-timeline')
    .getByTestId('agent-event')
    .evaluateAll((items) => items.map((item) => item.getAttribute('data-event')));
  expect(replayed).toEqual(events);
  expect(requestLog.foreign()).toEqual([]);
});

test('an "always allow" grant shows in settings and can be revoked', async ({ page }) => {
  await openAgentWithNote(page, SHORT_NOTE);
  await askForTasks(page);
  const permission = page.getByTestId('agent-permission');
  await expect(permission).toBeVisible();
  await permission.getByTestId('permission-always').click();
  await expect(
    page
      .getByTestId('agent-timeline')
      .locator('[data-testid="agent-event"][data-event="PermissionResolved"]'),
  ).not.toHaveCount(0);

  await page.getByTestId('open-settings').click();
  await page.getByTestId('settings-nav-agent').click();
  const grant = page.getByTestId('agent-grant');
  await expect(grant).toHaveCount(1);
  await expect(grant.getByTestId('agent-grant-name')).toHaveText('Change notes');
  await expect(page.getByTestId('agent-grants-empty')).toHaveCount(0);
  await grant.getByTestId('agent-grant-revoke').click();
  await expect(grant).toHaveCount(0);
  await expect(page.getByTestId('agent-grants-empty')).toBeVisible();
});

test('a run has its own address: Back returns to it, a bookmark opens it, a gone run says so', async ({
  page,
}) => {
  await openAgentWithNote(page, SHORT_NOTE);
  await expect(page).toHaveURL(/#\/agent$/);
  await askForTasks(page);
  await page.getByTestId('agent-permission').getByTestId('permission-allow-once').click();
  const run = page.getByTestId('agent-run-item').first();
  await expect(run).toHaveAttribute('data-status', 'completed');
  const runId = (await run.getAttribute('data-run-id'))!;
  await expect(page).toHaveURL(new RegExp(`#/agent/${runId}$`));
  const timeline = page.getByTestId('agent-timeline').getByTestId('agent-event');
  const events = await timeline.count();

  // Away to the recordings and Back: the same run, its whole timeline.
  await page.getByTestId('nav-transcription').click();
  await expect(page).toHaveURL(/#\/recordings$/);
  await page.goBack();
  await expect(page).toHaveURL(new RegExp(`#/agent/${runId}$`));
  await expect(run).toHaveAttribute('aria-current', 'true');
  await expect(timeline).toHaveCount(events);
  await expect(timeline.last()).toHaveAttribute('data-event', 'RunCompleted');

  // A bookmark in a fresh tab opens the run.
  const other = await page.context().newPage();
  await other.goto(`/#/agent/${runId}`);
  await expect(other.getByTestId('agent-run-item').first()).toHaveAttribute('aria-current', 'true');
  await expect(other.getByTestId('agent-timeline').getByTestId('agent-event')).toHaveCount(events);

  // A run that does not exist: the error, and the address names what is shown instead.
  await other.goto('/#/agent/run_gone');
  await expect(
    other.getByTestId('toast').filter({ hasText: 'That agent run no longer exists.' }),
  ).toBeVisible();
  await expect(other).toHaveURL(new RegExp(`#/agent/${runId}$`));
  await expect(other.getByTestId('agent-timeline').getByTestId('agent-event')).toHaveCount(events);
  const fresh = await page.context().newPage();
  await fresh.goto('/#/agent/run_gone');
  await expect(
    fresh.getByTestId('toast').filter({ hasText: 'That agent run no longer exists.' }),
  ).toBeVisible();
  await expect(fresh).toHaveURL(/#\/agent$/);
  await expect(fresh.getByTestId('agent-run-item').first()).not.toHaveAttribute('aria-current', 'true');
});
