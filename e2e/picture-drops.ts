import type { Page } from '@playwright/test';

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
