import { expect, openApp, test } from './fixtures';
import { askChat } from './harness/chat-steps';

test.describe('in Chinese', () => {
  test.use({ locale: 'zh-CN' });

  test('the memory switch and the memory list button say different things', async ({ page }) => {
    await openApp(page);
    await page.getByTestId('nav-chat').click();
    await askChat(page, '记住我的导师是李教授。', 1);

    const toggle = page.getByRole('checkbox', { name: '使用记忆' });
    await expect(toggle).toBeChecked();
    await expect(page.getByTestId('chat-memory-toggle')).toHaveAccessibleName('使用记忆');
    const panel = page.getByRole('button', { name: '查看记忆' });
    await expect(panel).toHaveAttribute('aria-expanded', 'false');

    // Each does what it says: the button opens the list, the switch only turns memory off.
    await panel.click();
    await expect(page.getByTestId('memory-item').filter({ hasText: '我的导师是李教授' })).toBeVisible();
    await expect(page.getByTestId('chat-memory-panel')).toHaveText('隐藏记忆');
    await toggle.uncheck();
    await expect(toggle).not.toBeChecked();
    await expect(page.getByTestId('memory-item')).toHaveCount(1);
  });
});

test('in English too, the memory switch and the memory list button are told apart', async ({ page }) => {
  await openApp(page);
  await page.getByTestId('nav-chat').click();
  await askChat(page, 'Remember that my tutor is Professor Li.', 1);
  await expect(page.getByTestId('chat-memory-toggle')).toHaveAccessibleName('Use memory');
  const panel = page.getByRole('button', { name: 'Show memories' });
  await panel.click();
  await expect(page.getByTestId('memory-item').filter({ hasText: 'my tutor is Professor Li' })).toBeVisible();
  await expect(page.getByTestId('chat-memory-panel')).toHaveText('Hide memories');
});
