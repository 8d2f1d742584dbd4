import {
  expectGreeterMenuWithoutSelection,
  greeterContextMenu,
  installAndEnableSampleGreeter,
  runGreetSelectionFromKeyboard,
} from './harness/plugin-steps';
import { createNote, expect, openApp, test } from './fixtures';

test('the editor context menu lists plugin commands whose condition holds and runs them', async ({
  page,
  requestLog,
}) => {
  await openApp(page);
  await installAndEnableSampleGreeter(page);
  await page.keyboard.press('Escape');
  await createNote(page, 'Greetings', 'Ada Lovelace wrote the first program.');
  const body = page.getByTestId('note-body');
  await expect(body).toHaveAttribute('data-context-commands', 'ready');
  const { menu, item } = greeterContextMenu(page);

  // No selection: the command that needs one is not offered.
  await body.click();
  await body.press('End');
  await expectGreeterMenuWithoutSelection(page, body, () =>
    body.click({ button: 'right', position: { x: 12, y: 12 } }),
  );

  // With a selection, from the keyboard: arrow keys move between entries.
  await body.press('Control+a');
  await runGreetSelectionFromKeyboard(page);

  // A right-click on the selected text offers it too; a click elsewhere closes the menu unrun.
  await body.click({ button: 'right', position: { x: 12, y: 12 } });
  await expect(item('say-selection')).toBeVisible();
  await page.getByTestId('note-title').click();
  await expect(menu).toHaveCount(0);
  expect(requestLog.foreign()).toEqual([]);
});

test('without a fitting plugin command the browser keeps its own context menu', async ({ page }) => {
  await openApp(page);
  await createNote(page, 'Plain', 'Nothing to offer here.');
  const body = page.getByTestId('note-body');
  await expect(body).toHaveAttribute('data-context-commands', 'ready');
  // Recorded after the editor's own handler has run.
  await page.evaluate(() => {
    window.addEventListener('contextmenu', (event) => {
      document.body.dataset.nativeMenu = String(!event.defaultPrevented);
    });
  });
  await body.click({ button: 'right', position: { x: 12, y: 12 } });
  await expect(page.locator('body')).toHaveAttribute('data-native-menu', 'true');
  await expect(page.getByTestId('editor-context-menu')).toHaveCount(0);
});
