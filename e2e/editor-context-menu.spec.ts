import { installAndEnableSampleGreeter } from './harness/plugin-steps';
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
  const menu = page.getByTestId('editor-context-menu');
  const item = (id: string) =>
    menu.locator(`[data-testid="editor-context-menu-item"][data-command-id="sample-greeter.${id}"]`);

  // No selection: the command that needs one is not offered.
  await body.click();
  await body.press('End');
  await body.click({ button: 'right', position: { x: 12, y: 12 } });
  await expect(menu).toBeVisible();
  await expect(item('say-hello')).toBeVisible();
  await expect(item('say-selection')).toHaveCount(0);
  await page.keyboard.press('Escape');
  await expect(menu).toHaveCount(0);
  await expect(body).toBeFocused();

  // With a selection, from the keyboard: arrow keys move between entries.
  await body.press('Control+a');
  await body.press('Shift+F10');
  await expect(menu).toBeVisible();
  await expect(item('say-hello')).toBeFocused();
  await page.keyboard.press('ArrowDown');
  await expect(item('say-selection')).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(menu).toHaveCount(0);
  await expect(page.getByTestId('toast').filter({ hasText: 'Greet the selection' })).toBeVisible();

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
