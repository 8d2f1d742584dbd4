import { readFile } from 'node:fs/promises';
import { unzipSync } from 'fflate';
import { createNote, expect, openApp, test } from './fixtures';
import { switchLanguage } from './harness/language-steps';

test('the export menu works from the keyboard: Enter opens it on the first format, the arrows move, Escape returns', async ({
  page,
}) => {
  await openApp(page);
  await createNote(page, 'Handout', 'Some text');
  const button = page.getByTestId('export-note');
  await button.focus();
  await page.keyboard.press('Enter');

  const items = page.getByRole('menu').getByRole('menuitem');
  await expect(items.first()).toBeFocused();
  const count = await items.count();
  expect(count).toBeGreaterThan(1);
  await page.keyboard.press('ArrowDown');
  await expect(items.nth(1)).toBeFocused();
  await page.keyboard.press('End');
  await expect(items.nth(count - 1)).toBeFocused();
  await page.keyboard.press('ArrowDown');
  await expect(items.first()).toBeFocused();
  await page.keyboard.press('ArrowUp');
  await expect(items.nth(count - 1)).toBeFocused();
  await page.keyboard.press('Home');
  await expect(items.first()).toBeFocused();

  await page.keyboard.press('Escape');
  await expect(page.getByRole('menu')).toHaveCount(0);
  await expect(button).toBeFocused();

  // Enter on a format exports it.
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('export-format-html')).toBeFocused();
  const download = page.waitForEvent('download');
  await page.keyboard.press('Enter');
  expect((await download).suggestedFilename()).toBe('Handout.html');
});

test('from the Chat, the palette’s “Export this note…” brings the note back with its export menu open', async ({
  page,
}) => {
  await openApp(page);
  await createNote(page, 'Handout', 'Some text');
  await page.getByTestId('nav-chat').click();
  await expect(page.getByTestId('shell')).toHaveAttribute('data-view', 'chat');

  await page.keyboard.press('Control+k');
  await expect(page.getByTestId('command-palette-input')).toBeFocused();
  await page.keyboard.type('export this note');
  const first = page.getByTestId('command-palette').getByTestId('command-palette-built-in').first();
  await expect(first).toHaveText('Export this note…');
  await page.keyboard.press('Enter');

  await expect(page.getByTestId('note-title')).toHaveValue('Handout');
  const menu = page.getByRole('menu', { name: 'Export this note' });
  await expect(menu.getByRole('menuitem').first()).toBeFocused();
});

test('closing the list of export warnings gives the keyboard back to the export button', async ({ page }) => {
  await openApp(page);
  // Five warnings: more than the toast names, so it offers the whole list.
  await createNote(
    page,
    'Figures',
    '![figure](https://example.com/figure.png)\n\n' +
      '```function-plot\ny = sin(x) | lable: sine | color: #12\ndomian: [0, 5]\nzoom: 2\n```\n',
  );
  const download = page.waitForEvent('download');
  await page.getByTestId('export-note').click();
  await page.getByTestId('export-format-pdf').click();
  await download;
  const toast = page.getByTestId('toast').filter({ hasText: 'Figures.pdf' });
  await toast.getByRole('button', { name: 'Show all', exact: true }).click();
  const list = page.getByTestId('export-warnings');
  await expect(list).toBeFocused();

  await page.keyboard.press('Escape');
  await expect(list).toHaveCount(0);
  await expect(page.getByTestId('export-note')).toBeFocused();

  // The same after the close button.
  await page.getByTestId('export-note').click();
  await page.getByTestId('export-format-pdf').click();
  await toast.getByRole('button', { name: 'Show all', exact: true }).click();
  await list.getByRole('button', { name: 'Close' }).click();
  await expect(list).toHaveCount(0);
  await expect(page.getByTestId('export-note')).toBeFocused();
});

test('the export menu is one stop in the Tab order: Tab leaves it and closes it, Shift+Tab closes it onto its button', async ({
  page,
}) => {
  await openApp(page);
  await createNote(page, 'Handout', 'Some text');
  const button = page.getByTestId('export-note');
  const menu = page.getByRole('menu');
  const items = menu.getByRole('menuitem');
  await button.focus();
  await page.keyboard.press('Enter');
  await expect(items.first()).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(menu).toHaveCount(0);
  // The keyboard went on past the menu, to the next control of the page.
  await expect(button).not.toBeFocused();
  await expect(page.locator('body')).not.toBeFocused();
  await expect(page.locator(':focus')).toHaveCount(1);

  await button.focus();
  await page.keyboard.press('Enter');
  await page.keyboard.press('ArrowDown');
  await expect(items.nth(1)).toBeFocused();
  await page.keyboard.press('Shift+Tab');
  await expect(menu).toHaveCount(0);
  await expect(button).toBeFocused();

  // The items are reached with the arrows, none of them with Tab.
  await page.keyboard.press('Enter');
  const count = await items.count();
  for (let index = 0; index < count; index++)
    await expect(items.nth(index)).toHaveAttribute('tabindex', '-1');
  await page.keyboard.press('Escape');
  await expect(menu).toHaveCount(0);

  // The button still opens and closes the menu by pointer.
  await button.click();
  await expect(items.first()).toBeFocused();
  await button.click();
  await expect(menu).toHaveCount(0);
  // A click into the note closes it too, and the note gets the focus.
  await button.click();
  await expect(items.first()).toBeFocused();
  await page.getByTestId('note-body').click();
  await expect(menu).toHaveCount(0);
  await expect(page.getByTestId('note-body')).toBeFocused();
});

test('an export toast from before a language switch is in the new language, and so is its list of warnings', async ({
  page,
}) => {
  await page.clock.install();
  await openApp(page);
  // More warnings than the toast names (a picture from the web, a plot with misspelt words): it offers the list.
  await createNote(
    page,
    'Figures',
    '![figure](https://example.com/figure.png)\n\n' +
      '```function-plot\ny = sin(x) | lable: sine | color: #12\ndomian: [0, 5]\nzoom: 2\n```\n',
  );
  // From here the page's time moves only when the test moves it: the toast stays while the language changes.
  await page.clock.pauseAt(new Date(Date.now() + 60_000));
  const download = page.waitForEvent('download');
  await page.getByTestId('export-note').press('Enter');
  await page.getByTestId('export-format-docx').press('Enter');
  await download;
  const toast = page.getByTestId('toast').filter({ hasText: 'Figures.docx' });
  await expect(toast).toContainText('Exported Figures.docx with');
  await expect(toast).toContainText('unknown option “lable: sine” is ignored — did you mean “label”?');

  await switchLanguage(page, 'zh-CN');
  await expect(toast).toContainText('已导出 Figures.docx');
  await expect(toast).toContainText('未知选项“lable: sine”已忽略——你是不是想写“label”？');
  await expect(toast).not.toContainText('Exported');
  await expect(toast).not.toContainText('did you mean');

  await toast.getByRole('button', { name: '查看全部', exact: true }).click();
  const list = page.getByTestId('export-warnings');
  await expect(list).toContainText('链接到网络的图片以替代文字显示');
  await expect(list).not.toContainText('pictures linked from the web');
});

/** The text of each `<m:t>` in `xml`, joined, without spacing. */
function runText(xml: string): string {
  return [...xml.matchAll(/<m:t\b[^>]*>([^<]*)<\/m:t>/g)]
    .map((match) => match[1])
    .join('')
    .replace(/\s/g, '');
}

test('in a DOCX export an integral keeps its whole integrand inside the Word equation', async ({ page }) => {
  await openApp(page);
  await createNote(
    page,
    'Fourier series',
    String.raw`$$a_k = \frac{1}{T}\int_T x(t) e^{-jk\omega_0 t}\,dt$$` +
      '\n\nConvolution:\n\n' +
      String.raw`$$y(t) = \int_{-\infty}^{\infty}x(\tau)h(t-\tau)\,d\tau$$` +
      '\n',
  );
  const download = page.waitForEvent('download');
  await page.getByTestId('export-note').click();
  await page.getByTestId('export-format-docx').click();
  const documentXml = new TextDecoder().decode(
    unzipSync(await readFile(await (await download).path()))['word/document.xml'],
  );
  // Each integral's body: what follows its limits (<m:sub>, <m:sup>) up to the end of the operator.
  const bodies = [
    ...documentXml.matchAll(
      /<m:nary>.*?<\/m:naryPr>(?:<m:sub\/>|<m:sub>.*?<\/m:sub>)(?:<m:sup\/>|<m:sup>.*?<\/m:sup>)<m:e>(.*?)<\/m:e><\/m:nary>/g,
    ),
  ].map((match) => match[1] ?? '');
  expect(bodies.map(runText)).toEqual(['x(t)e−jkω0tdt', 'x(τ)h(t−τ)dτ']);
  // Every letter is in a run (<m:r><m:t>), as Office Math requires: none is loose text.
  for (const body of bodies)
    expect(body.replace(/<m:t\b[^>]*>[^<]*<\/m:t>/g, '').replace(/<[^>]+>/g, '')).toBe('');
});
