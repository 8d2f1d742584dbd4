import { readFile } from 'node:fs/promises';
import { createNote, expect, openApp, previewNewNote, test } from './fixtures';
import { switchLanguage } from './harness/language-steps';

/** An arrow with nothing to point to (the walk-through's broken block), and a plot missing its ")". */
const BROKEN = '```mermaid\ngraph LR\n  A -->\n```\n\n```function-plot\ny = sin(x\n```\n';

/** The parser's token list: for experts, folded away, never the message itself. */
const TOKEN_LIST = /Expecting|'AMP'|got 'EOF'/;

test('a broken diagram says in words which line is wrong, and follows a language switch without an edit', async ({
  page,
}) => {
  const preview = await previewNewNote(page, 'Controller', BROKEN);
  const error = preview.locator('.mermaid-block .mermaid-error');
  const title = error.locator('.mermaid-error-title');
  await expect(error).toHaveAttribute('data-error-code', 'MERMAID_PARSE_FAILED');
  await expect(title).toHaveText(
    'This diagram has a syntax error on line 2: it ends where more was expected.',
  );
  // The parser's words are there for experts, folded away.
  await expect(error.locator('.mermaid-error-detail')).toBeHidden();
  await error.getByText('Details', { exact: true }).click();
  await expect(error.locator('.mermaid-error-detail')).toHaveText(TOKEN_LIST);
  const plotTitle = preview.locator('.function-plot-block .plot-error-title');
  await expect(plotTitle).toHaveText(/^Plot could not be drawn/);

  await switchLanguage(page, 'zh-CN');
  await expect(title).toHaveText('此图表第 2 行有语法错误：内容不完整，后面还应有内容。');
  await expect(error.locator('summary')).toHaveText('详细信息');
  await expect(plotTitle).toHaveText(/^函数图像无法绘制/);
  await expect(preview.locator('.plot-error-detail')).toHaveText('末尾缺少“)”。');
  await expect(preview).not.toContainText('could not be');
});

test.describe('in Chinese', () => {
  test.use({ locale: 'zh-CN' });

  test('the exported HTML says what is wrong in Chinese, the parser’s words folded away', async ({
    page,
  }) => {
    await openApp(page);
    await createNote(page, '状态空间笔记', `反馈回路：\n\n${BROKEN}`);
    await expect(page.getByTestId('preview').locator('.mermaid-error')).toBeVisible();
    const download = page.waitForEvent('download');
    await page.getByTestId('export-note').click();
    await page.getByTestId('export-format-html').click();
    const html = await readFile(await (await download).path(), 'utf8');
    const viewer = await page.context().newPage();
    await viewer.setContent(html);
    const errors = viewer.locator('p.render-error');
    await expect(errors).toHaveText([
      '此图表第 2 行有语法错误：内容不完整，后面还应有内容。',
      '函数图像无法绘制：末尾缺少“)”。',
    ]);
    // The parser's words stay in the file for experts, folded away under the message.
    const detail = viewer.locator('details.render-error-detail');
    await expect(detail.locator('summary')).toHaveText('详细信息');
    await expect(detail.locator('code')).toBeHidden();
    await expect(detail.locator('code')).toHaveText(/Expecting/);
  });
});

test.describe('phone 390×844', () => {
  test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, locale: 'zh-CN' });

  test('a wide flowchart keeps readable labels and scrolls sideways in its own area', async ({ page }) => {
    await openApp(page);
    await page.getByTestId('topbar-new-note').click();
    await page.getByTestId('note-title').fill('反馈回路');
    await page
      .getByTestId('note-body')
      .fill(
        '```mermaid\nflowchart LR\n  R[参考输入 r] --> S((Σ)) --> C[PID 控制器] --> G[被控对象] --> Y[输出 y]\n  Y -->|反馈| S\n```\n',
      );
    await expect(page.getByTestId('save-status')).toHaveAttribute('data-state', 'saved');
    const read = page.getByTestId('note-view-read');
    if (await read.isVisible()) await read.click();
    const area = page.getByTestId('preview').locator('.mermaid-diagram');
    await expect(area.locator('svg')).toBeVisible();
    const label = area.locator('text', { hasText: 'PID 控制器' }).first();
    const box = await label.boundingBox();
    expect(box?.height ?? 0).toBeGreaterThanOrEqual(10);
    // Too wide for the phone: it scrolls inside its block, by touch or by keyboard.
    expect(await area.evaluate((element) => element.scrollWidth > element.clientWidth + 20)).toBe(true);
    await expect(area).toHaveAttribute('role', 'group');
    await expect(area).toHaveAttribute('aria-label', '图表');
    await area.focus();
    await page.keyboard.press('ArrowRight');
    await expect.poll(() => area.evaluate((element) => element.scrollLeft)).toBeGreaterThan(0);
  });
});
