import type { Locator, Page } from '@playwright/test';

/** A PNG of one pixel. */
export const ONE_PIXEL_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

/**
 * Drags the file at `path` in from outside the browser and drops it at (x, y) of the viewport,
 * as a file dragged from the desktop: the browser's own drag and drop, not events made in the page.
 */
export async function dropFileAt(page: Page, path: string, x: number, y: number): Promise<void> {
  const cdp = await page.context().newCDPSession(page);
  const data = { items: [], files: [path], dragOperationsMask: 1 };
  for (const type of ['dragEnter', 'dragOver', 'drop'] as const) {
    await cdp.send('Input.dispatchDragEvent', { type, x, y, data });
  }
  await cdp.detach();
}

/**
 * A 3 × 2 PNG, made in the page, pasted or dropped on `target` as events made in the page
 * (`paste-with-text`: with text beside it, as an office app copies a table). Whether the
 * browser's own handling still ran: false when the app took the event over. Pictures of
 * another `color` are other bytes, so they are stored apart.
 */
export async function pictureOn(
  target: Locator,
  how: 'paste' | 'drop' | 'paste-with-text',
  name: string,
  color = '#c0392b',
): Promise<boolean> {
  return target.evaluate(
    async (element, { how, name, color }) => {
      const canvas = new OffscreenCanvas(3, 2);
      const context = canvas.getContext('2d')!;
      context.fillStyle = color;
      context.fillRect(0, 0, 3, 2);
      const blob = await canvas.convertToBlob({ type: 'image/png' });
      const data = new DataTransfer();
      data.items.add(new File([blob], name, { type: 'image/png' }));
      if (how === 'drop') {
        element.dispatchEvent(
          new DragEvent('dragover', { dataTransfer: data, bubbles: true, cancelable: true }),
        );
        return element.dispatchEvent(
          new DragEvent('drop', { dataTransfer: data, bubbles: true, cancelable: true }),
        );
      }
      if (how === 'paste-with-text') data.setData('text/plain', 'a\tb');
      return element.dispatchEvent(
        new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }),
      );
    },
    { how, name, color },
  );
}

/**
 * The picture's width as the browser decoded it in the preview: 0 until its bytes loaded
 * (or while it is not there yet), for `expect.poll`.
 */
export function shownWidth(page: Page, alt: string): Promise<number> {
  return page
    .getByTestId('preview')
    .locator(`img[alt="${alt}"]`)
    .evaluate((image: HTMLImageElement) => (image.complete ? image.naturalWidth : 0))
    .catch(() => 0);
}
