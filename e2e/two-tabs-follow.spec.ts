import { zipSync, strToU8 } from 'fflate';
import { createNote, expect, openApp, storedBody, test } from './fixtures';
import { buildTinyEmbeddingModel } from '../src/retrieval/__fixtures__/tiny-model';
import { MODEL_HOST, routeModelHost, serveTinyModel, useModelHost } from './harness/model-host';
import { openSharedNoteTwice } from './harness/two-tabs';
import { importZip, noteFile } from './harness/vault-import';

/*
 * Two tabs of one browser share one notebook: what one tab stores, the other shows
 * without a reload, as long as it holds nothing unsaved of its own.
 */

test('a tab with nothing unsaved shows the note as another tab saved it, and saves on from there', async ({
  context,
  page: tabA,
}) => {
  const tabB = await openSharedNoteTwice(context, tabA);
  const noteId = (await tabA.evaluate(() => localStorage.getItem('notesagent.last-note')))!;

  await tabB.getByTestId('note-body').fill('tab B saved this');
  await expect(tabB.getByTestId('save-status')).toHaveAttribute('data-state', 'saved');

  // Tab A had typed nothing: it shows tab B's text as saved, with no conflict to settle.
  const bodyA = tabA.getByTestId('note-body');
  await expect(bodyA).toHaveValue('tab B saved this');
  await expect(tabA.getByTestId('save-status')).toHaveAttribute('data-state', 'saved');
  await expect(tabA.getByTestId('conflict-banner')).toHaveCount(0);

  // Her next keystroke builds on that text and saves as usual.
  await bodyA.focus();
  await bodyA.press('End');
  await bodyA.pressSequentially(', and tab A added this');
  await expect.poll(() => storedBody(tabA, noteId)).toBe('tab B saved this, and tab A added this');
  await expect(tabA.getByTestId('save-status')).toHaveAttribute('data-state', 'saved');
  await expect(tabA.getByTestId('conflict-banner')).toHaveCount(0);
  // And tab B, clean again, follows in turn.
  await expect(tabB.getByTestId('note-body')).toHaveValue('tab B saved this, and tab A added this');
  await expect(tabB.getByTestId('conflict-banner')).toHaveCount(0);
});

test('notes another tab creates, renames or trashes show so in this tab’s list', async ({
  context,
  page: tabA,
}) => {
  await openApp(tabA);
  await createNote(tabA, 'Written in tab A', 'stays open here');
  const tabB = await context.newPage();
  await openApp(tabB);

  await createNote(tabB, 'Written in tab B', 'a new note');
  const listA = tabA.getByTestId('note-list');
  await expect(listA.getByTestId('note-item').filter({ hasText: 'Written in tab B' })).toHaveCount(1);

  await tabB.getByTestId('note-title').fill('Renamed in tab B');
  await expect(tabB.getByTestId('save-status')).toHaveAttribute('data-state', 'saved');
  await expect(listA.getByTestId('note-item').filter({ hasText: 'Renamed in tab B' })).toHaveCount(1);
  await expect(listA.getByTestId('note-item').filter({ hasText: 'Written in tab B' })).toHaveCount(0);

  await tabB.getByTestId('trash-note').click();
  await expect(listA.getByTestId('note-item').filter({ hasText: 'Renamed in tab B' })).toHaveCount(0);
  // The note tab A has open was never touched.
  await expect(tabA.getByTestId('note-body')).toHaveValue('stays open here');
  await expect(tabA.getByTestId('conflict-banner')).toHaveCount(0);
});

test('an import another tab runs shows in this tab’s job panel, and its notes in the list', async ({
  context,
  page: tabA,
}) => {
  await openApp(tabA);
  const tabB = await context.newPage();
  await openApp(tabB);

  const zip = zipSync({
    'vault/Imported elsewhere.md': strToU8(noteFile('Imported elsewhere', 'from the other tab')),
  });
  await importZip(tabB, 'other-tab.zip', zip);
  await expect(tabB.getByTestId('job-item')).toHaveAttribute('data-status', 'completed');

  // Tab A was never reloaded: its panel lists the job, finished, under the file's name.
  const panelA = tabA.getByTestId('job-panel');
  await expect(panelA.getByTestId('job-item')).toHaveAttribute('data-status', 'completed');
  await expect(panelA).toHaveAttribute('data-collapsed', 'true');
  await panelA.getByTestId('job-panel-toggle').click();
  await expect(panelA.getByTestId('job-item')).toBeVisible();
  await expect(panelA.getByTestId('job-item')).toContainText('other-tab.zip');
  await expect(
    tabA.getByTestId('note-list').getByTestId('note-item').filter({ hasText: 'Imported elsewhere' }),
  ).toHaveCount(1);
});

test('an import updating the open note shows the imported text in every tab with nothing unsaved', async ({
  context,
  page: tabA,
}) => {
  await openApp(tabA);
  const vault = (body: string) =>
    Buffer.from(zipSync({ 'vault/Shared.md': strToU8(noteFile('Shared', body)) }));
  await tabA
    .getByTestId('import-zip-input')
    .setInputFiles({ name: 'vault.zip', mimeType: 'application/zip', buffer: vault('first text') });
  await tabA.getByTestId('import-dialog').getByTestId('import-start').click();
  const row = tabA.getByTestId('note-item').filter({ hasText: 'Shared' });
  await row.click();
  await expect(tabA.getByTestId('note-body')).toHaveValue('first text\n');
  const noteId = (await tabA.evaluate(() => localStorage.getItem('notesagent.last-note')))!;
  const tabB = await context.newPage();
  await openApp(tabB, `/#/notes/${noteId}`);
  await expect(tabB.getByTestId('note-body')).toHaveValue('first text\n');

  // The vault comes back edited and is imported again in tab A, updating the note both tabs show.
  await tabA.bringToFront();
  await tabA
    .getByTestId('import-zip-input')
    .setInputFiles({ name: 'vault.zip', mimeType: 'application/zip', buffer: vault('the imported text') });
  const dialog = tabA.getByTestId('import-dialog');
  await dialog.getByTestId('import-on-duplicate-update').check();
  await dialog.getByTestId('import-start').click();
  await expect(tabA.getByTestId('job-item').nth(1)).toHaveAttribute('data-status', 'completed');
  for (const tab of [tabA, tabB]) {
    await expect(tab.getByTestId('note-body')).toHaveValue('the imported text\n');
    await expect(tab.getByTestId('save-status')).toHaveAttribute('data-state', 'saved');
    await expect(tab.getByTestId('conflict-banner')).toHaveCount(0);
  }
});

test('a note another tab trashes shows as in the trash where it is open with nothing unsaved', async ({
  context,
  page: tabA,
}) => {
  const tabB = await openSharedNoteTwice(context, tabA);
  await tabB.getByTestId('trash-note').click();
  await expect(
    tabB.getByTestId('note-list').getByTestId('note-item').filter({ hasText: 'Shared' }),
  ).toHaveCount(0);

  // Tab A no longer offers the note for editing: it is in the trash, one click from coming back.
  await expect(tabA.getByTestId('note-body')).toHaveCount(0);
  await tabA.getByTestId('restore-note').click();
  await expect(
    tabA.getByTestId('note-list').getByTestId('note-item').filter({ hasText: 'Shared' }),
  ).toHaveCount(1);
  // And tab B's list has it back in turn.
  await expect(
    tabB.getByTestId('note-list').getByTestId('note-item').filter({ hasText: 'Shared' }),
  ).toHaveCount(1);
});

test('a note trashed and then restored in another tab opens for editing again here', async ({
  context,
  page: tabA,
}) => {
  const tabB = await openSharedNoteTwice(context, tabA);
  const noteId = (await tabA.evaluate(() => localStorage.getItem('notesagent.last-note')))!;
  await tabB.getByTestId('trash-note').click();
  await expect(tabA.getByTestId('restore-note')).toBeVisible();

  // Tab B brings it back from its own trash view of the note.
  await tabB.goto(`/#/notes/${noteId}`);
  await tabB.getByTestId('restore-note').click();
  await expect(
    tabB.getByTestId('note-list').getByTestId('note-item').filter({ hasText: 'Shared' }),
  ).toHaveCount(1);

  // Tab A follows: the note is editable again, with no Restore left to press.
  await expect(tabA.getByTestId('note-body')).toHaveValue('both saw this');
  await expect(tabA.getByTestId('restore-note')).toHaveCount(0);
  await tabA.getByTestId('note-body').fill('both saw this, and tab A wrote on');
  await expect.poll(() => storedBody(tabA, noteId)).toBe('both saw this, and tab A wrote on');
});

test('unsaved text in a note another tab trashes is kept through the conflict notice', async ({
  context,
  page: tabA,
}) => {
  const tabB = await openSharedNoteTwice(context, tabA);
  // Tab A's typing is held unsaved (its timers stand still) while tab B trashes the note.
  await tabA.clock.install();
  await tabA.clock.pauseAt(new Date(Date.now() + 60_000));
  await tabA.getByTestId('note-body').fill('tab A was still writing');
  await expect(tabA.getByTestId('save-status')).toHaveAttribute('data-state', 'unsaved');
  await tabB.getByTestId('trash-note').click();

  // The text stays on screen and the notice offers a way out (a save into the trash is refused).
  await expect(tabA.getByTestId('conflict-banner')).toBeVisible();
  await expect(tabA.getByTestId('note-body')).toHaveValue('tab A was still writing');
});

test('a job another tab runs says it runs there, with no Cancel that could only fail here', async ({
  context,
  page: tabA,
}) => {
  test.setTimeout(120_000);
  const modelId = 'Xenova/multilingual-e5-small';
  const serveModel = serveTinyModel(
    modelId,
    buildTinyEmbeddingModel({ dimension: 384, vocabulary: ['query'] }),
  );
  // The weights never arrive: tab B's download runs until tab B cancels it.
  const { held } = await routeModelHost(context, serveModel, () => true);
  await openApp(tabA);
  const tabB = await context.newPage();
  await openApp(tabB);
  await tabB.getByTestId('open-settings').click();
  await useModelHost(tabB, MODEL_HOST);
  const picker = tabB.getByTestId('embedding-settings');
  await picker.getByTestId('embedding-model').selectOption(modelId);
  await picker.getByTestId('embedding-use').click();
  const jobB = picker.getByTestId('embedding-download-job').getByTestId('job-item');
  await expect(jobB).toHaveAttribute('data-status', 'running', { timeout: 30_000 });
  await expect.poll(() => held.length, { timeout: 30_000 }).toBeGreaterThan(0);

  // Tab A lists it as running in the other tab, where alone it can be cancelled.
  const jobA = tabA.getByTestId('job-panel').getByTestId('job-item');
  await expect(jobA).toHaveAttribute('data-status', 'running');
  await expect(jobA.getByTestId('job-elsewhere')).toHaveText('Running in another tab');
  await expect(jobA.getByTestId('job-cancel')).toHaveCount(0);

  await jobB.getByTestId('job-cancel').click();
  await expect(jobA).toHaveAttribute('data-status', 'cancelled');
  await expect(jobA.getByTestId('job-elsewhere')).toHaveCount(0);
});
