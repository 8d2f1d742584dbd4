import { expect, openApp, test } from './fixtures';
import { importVault } from './harness/vault-import';

/**
 * A teacher's vault: the note about 卷积 names it only in its title, tag and
 * alias (its text is an English definition and a diagram); another note links
 * back to it in passing. Asked "什么是卷积", search lists the note about it
 * first, opening on its definition, not the note with the link nor its diagram.
 */
const vault = {
  'SignalsVault/基础/卷积 Convolution.md': [
    '---',
    'title: 卷积 Convolution',
    'tags: [signals, 卷积]',
    'aliases: [Convolution]',
    '---',
    '# Convolution',
    '',
    'The convolution $y(t) = \\int_{-\\infty}^{\\infty} x(\\tau) h(t-\\tau)\\,d\\tau$.',
    '',
    'See [[傅里叶变换]] and [[LTI 系统|LTI systems]].',
    '',
    '```mermaid',
    'graph LR',
    '  x[输入 x(t)] --> H[LTI h(t)] --> y[输出 y(t)]',
    '```',
    '',
  ].join('\n'),
  'SignalsVault/基础/傅里叶变换.md': [
    '---',
    'tags: [signals]',
    '---',
    '# 傅里叶变换',
    '',
    '$$X(j\\omega)=\\int_{-\\infty}^{\\infty}x(t)e^{-j\\omega t}dt$$',
    '',
    'Back to [[卷积 Convolution#Convolution]].',
    '',
  ].join('\n'),
  'SignalsVault/LTI 系统.md': '# LTI 系统\n\n线性时不变系统满足叠加性和时不变性。\n',
};

test('a question about a note named only by its title, tag and alias finds that note first, on its definition', async ({
  page,
}) => {
  await openApp(page);
  await importVault(page, vault, 3);
  await page.getByTestId('search-input').fill('什么是卷积');
  const list = page.getByTestId('search-results');
  for (const mode of ['fts', 'hybrid'] as const) {
    await page.getByTestId('search-mode').selectOption(mode);
    await expect(list).toHaveAttribute('data-mode-used', mode);
    await expect(list).toHaveAttribute('aria-busy', 'false');
    const first = page.getByTestId('search-group').first();
    await expect(first.getByTestId('search-result-title').first()).toHaveText('卷积 Convolution');
    await expect(first.getByTestId('search-snippet').first()).toContainText('The convolution');
    // A link that only names the note is no answer to the question.
    await expect(page.getByTestId('search-result-title')).not.toContainText(['傅里叶变换']);
  }
});

test.describe('the Agent view in Chinese at 1280×720', () => {
  test.use({ viewport: { width: 1280, height: 720 }, locale: 'zh-CN' });

  test('the model picker offers what can run now first, and groups the rest by why', async ({ page }) => {
    await openApp(page);
    await page.evaluate(() => (location.hash = '#/agent'));
    const picker = page.getByTestId('agent-model');
    await expect(picker).toBeEnabled();
    // No provider is set up and nothing is downloaded: the demo leads the list.
    await expect(picker.locator('option').first()).toHaveText('演示（脚本，离线）');
    await expect(picker).toHaveValue('mock|mock-1');
    const groups = picker.locator('optgroup');
    await expect(groups.first()).toHaveAttribute('label', '演示');
    // The test browser's WebGPU runs some in-browser models (not downloaded) and not others.
    await expect(groups.nth(1)).toHaveAttribute('label', '浏览器内模型 — 未下载');
    await expect(groups.nth(2)).toHaveAttribute('label', '浏览器内模型 — 此设备无法运行');
    await expect(groups).toHaveCount(3);
    await expect(page.getByRole('heading', { level: 2 }).first()).toBeInViewport();
  });
});
