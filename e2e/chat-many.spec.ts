import type { Page } from '@playwright/test';
import { expect, openApp, test } from './fixtures';

/**
 * Writes `count` conversations straight into the store, newest numbered highest, then reloads.
 * The Chat view, open, has listed conversations first, so the core has created the database.
 */
async function seedConversations(page: Page, count: number): Promise<void> {
  // The list's count (its button shows only on a phone) says the list was read.
  await expect(page.getByTestId('chat-conversations-toggle')).toHaveText('Conversations (0)');
  await page.evaluate(
    (total) =>
      new Promise<void>((resolve, reject) => {
        const open = indexedDB.open('notes-agent');
        open.onupgradeneeded = () => {
          open.transaction?.abort();
          reject(new Error('the app has not created its database'));
        };
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const transaction = open.result.transaction('conversations', 'readwrite');
          const store = transaction.objectStore('conversations');
          for (let index = 1; index <= total; index++) {
            const at = new Date(Date.UTC(2025, 0, 1, 0, index)).toISOString();
            store.put({
              conversation_id: `conv_seeded${String(index).padStart(4, '0')}`,
              title: `Topic ${index} 主题`,
              provider_id: 'mock',
              model: 'mock-1',
              created_at: at,
              updated_at: at,
            });
          }
          transaction.oncomplete = () => {
            open.result.close();
            resolve();
          };
          transaction.onerror = () => reject(transaction.error);
        };
      }),
    count,
  );
  await page.reload();
}

test('with 230 conversations the list says how many are not listed and shows them on request', async ({
  page,
}) => {
  await openApp(page);
  await page.getByTestId('nav-chat').click();
  await seedConversations(page, 230);
  const rows = page.getByTestId('chat-conversation');
  await expect(rows).toHaveCount(100);
  await expect(rows.first()).toHaveText('Topic 230 主题');

  const more = page.getByTestId('chat-more');
  await expect(more).toHaveText('Show more (130 not listed)');
  await more.click();
  await expect(rows).toHaveCount(200);
  await expect(rows.nth(100)).toBeFocused();
  await expect(rows.nth(100)).toHaveText('Topic 130 主题');
  await expect(more).toHaveText('Show more (30 not listed)');
  await more.click();
  await expect(rows).toHaveCount(230);
  await expect(rows.last()).toHaveText('Topic 1 主题');
  await expect(more).toHaveCount(0);

  // A rename reloads the list: everything shown stays shown.
  await rows.last().locator('..').getByTestId('chat-rename').click();
  await page.getByTestId('chat-rename-input').fill('The oldest one');
  await page.getByTestId('chat-rename-save').click();
  await expect(rows.filter({ hasText: 'The oldest one' })).toHaveCount(1);
  await expect(rows).toHaveCount(230);

  // A search starts again from the first page of its matches.
  await page.getByTestId('chat-search').fill('主题');
  await expect(rows).toHaveCount(100);
  await expect(more).toHaveText('Show more (129 not listed)');
});

test('on a phone the conversations button counts them all, not the ones listed', async ({ page }) => {
  await openApp(page);
  await page.setViewportSize({ width: 390, height: 844 });
  await page.evaluate(() => (location.hash = '#/chat'));
  await seedConversations(page, 130);
  await expect(page.getByTestId('chat-conversations-toggle')).toHaveText('Conversations (130)');
});
