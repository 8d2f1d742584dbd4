import type { Locator, Page } from '@playwright/test';
import { createNote, expect, openApp, test } from './fixtures';

interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

/**
 * Where a character of the body sits on screen, worked out from the textarea's
 * own metrics (its font is monospace): the left edge of column `column` and the
 * top of line `line` (both from 0), after scrolling.
 */
async function caretAt(
  body: Locator,
  line: number,
  column: number,
): Promise<{ x: number; top: number; lineHeight: number }> {
  return body.evaluate(
    (element, [atLine, atColumn]) => {
      const field = element as HTMLTextAreaElement;
      const style = getComputedStyle(field);
      const probe = document.createElement('span');
      probe.style.font = style.font;
      probe.style.whiteSpace = 'pre';
      probe.textContent = 'x'.repeat(100);
      document.body.append(probe);
      const charWidth = probe.getBoundingClientRect().width / 100;
      probe.remove();
      const rect = field.getBoundingClientRect();
      const lineHeight = parseFloat(style.lineHeight);
      return {
        x:
          rect.left +
          parseFloat(style.borderLeftWidth) +
          parseFloat(style.paddingLeft) +
          atColumn! * charWidth -
          field.scrollLeft,
        top:
          rect.top +
          parseFloat(style.borderTopWidth) +
          parseFloat(style.paddingTop) +
          atLine! * lineHeight -
          field.scrollTop,
        lineHeight,
      };
    },
    [line, column],
  );
}

async function popupBox(page: Page): Promise<Box> {
  const popup = page.getByTestId('wikilink-suggest');
  await expect(popup.getByTestId('wikilink-option').filter({ hasText: 'Alpha' })).toHaveCount(1);
  return (await popup.boundingBox())!;
}

test.describe('desktop', () => {
  test.use({ viewport: { width: 1280, height: 800 } });

  test('the [[ suggestions open at the caret: below its line, above it near the bottom, inside the editor', async ({
    page,
    requestLog,
  }) => {
    await openApp(page);
    await createNote(page, 'Alpha', 'The first note.');
    await createNote(page, 'Beta', 'line one\nline two\n');
    const body = page.getByTestId('note-body');

    // Third line, after "see [[": the list starts just below that line, at that column.
    await body.press('Control+End');
    await body.pressSequentially('see [[Al');
    let box = await popupBox(page);
    let caret = await caretAt(body, 2, 'see [['.length);
    expect(Math.abs(box.x - caret.x)).toBeLessThan(caret.lineHeight);
    expect(box.y).toBeGreaterThanOrEqual(caret.top + caret.lineHeight - 2);
    expect(box.y).toBeLessThan(caret.top + 2 * caret.lineHeight);
    await body.press('Escape');
    await expect(page.getByTestId('wikilink-suggest')).toHaveCount(0);

    // Further in on a later line: the list follows the caret.
    await body.press('End');
    await body.pressSequentially('\n    and then [[Al');
    box = await popupBox(page);
    caret = await caretAt(body, 3, '    and then [['.length);
    expect(Math.abs(box.x - caret.x)).toBeLessThan(caret.lineHeight);
    expect(box.y).toBeGreaterThanOrEqual(caret.top + caret.lineHeight - 2);
    expect(box.y).toBeLessThan(caret.top + 2 * caret.lineHeight);
    await body.press('Escape');

    // Near the right edge of the editor: the list stays inside it.
    const bodyBox = (await body.boundingBox())!;
    const perLine = await body.evaluate((element) => {
      const style = getComputedStyle(element);
      const probe = document.createElement('span');
      probe.style.font = style.font;
      probe.textContent = 'x'.repeat(100);
      document.body.append(probe);
      const charWidth = probe.getBoundingClientRect().width / 100;
      probe.remove();
      return Math.floor(
        (element.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight)) / charWidth,
      );
    });
    const filler = 'w'.repeat(perLine - 8);
    await body.press('End');
    await body.pressSequentially(`\n${filler} [[Al`);
    box = await popupBox(page);
    expect(box.x + box.width).toBeLessThanOrEqual(bodyBox.x + bodyBox.width);
    caret = await caretAt(body, 4, filler.length + 3);
    expect(box.y).toBeGreaterThanOrEqual(caret.top + caret.lineHeight - 2);
    await body.press('Escape');

    // At the bottom of a long note (scrolled to its end): the list opens above the caret's line.
    await body.press('End');
    await body.pressSequentially('\n');
    await body.evaluate((element) => {
      const field = element as HTMLTextAreaElement;
      field.setRangeText('filler\n'.repeat(80), field.selectionStart, field.selectionEnd, 'end');
      field.dispatchEvent(new Event('input', { bubbles: true }));
    });
    await body.pressSequentially('last [[Al');
    box = await popupBox(page);
    caret = await caretAt(body, 5 + 80, 'last [['.length);
    expect(caret.top).toBeLessThan(bodyBox.y + bodyBox.height);
    expect(box.y + box.height).toBeLessThanOrEqual(caret.top + 2);
    expect(box.y + box.height).toBeGreaterThan(caret.top - caret.lineHeight);
    expect(Math.abs(box.x - caret.x)).toBeLessThan(caret.lineHeight);

    // And it still completes.
    await body.press('Enter');
    await expect(body).toHaveValue(/last \[\[Alpha\]\]$/);
    expect(requestLog.foreign()).toEqual([]);
  });
});
