import { expect, type Page } from '@playwright/test';

/**
 * Closes Settings with Escape and waits for the address to leave `#/settings`. Settings opened
 * over a view closes with `history.back()`, a traversal that lands a moment later: a reload or
 * `goto` begun before it was cut short (net::ERR_ABORTED) or undone by it (the notes list
 * instead of the page asked for), each once in a full run.
 */
export async function closeSettings(page: Page): Promise<void> {
  await page.keyboard.press('Escape');
  await expect(page).not.toHaveURL(/#\/settings/);
}
