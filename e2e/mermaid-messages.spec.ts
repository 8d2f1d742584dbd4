import { expect, previewNewNote, test } from './fixtures';

const BROKEN = '```mermaid\ngraph TD\n  A[Start] -->\n```\n';

test('a diagram Mermaid cannot parse says what it expected, at a line of the block', async ({ page }) => {
  const preview = await previewNewNote(page, 'Flow', BROKEN);
  const error = preview.locator('.mermaid-block .mermaid-error');
  await expect(error).toHaveAttribute('data-error-code', 'MERMAID_PARSE_FAILED');
  // The block has two lines: the arrow on line 2 has nothing to point to.
  await expect(error.locator('.mermaid-error-title')).toHaveText('Diagram could not be rendered (line 2):');
  await expect(error.locator('.mermaid-error-detail')).toHaveText(/^Expecting .*, got 'EOF'$/);
});

test.describe('in Chinese', () => {
  test.use({ locale: 'zh-CN' });

  test('the line is given in Chinese; Mermaid’s own words follow', async ({ page }) => {
    const preview = await previewNewNote(page, '流程', BROKEN);
    const error = preview.locator('.mermaid-block .mermaid-error');
    await expect(error.locator('.mermaid-error-title')).toHaveText('图表无法渲染（第 2 行）：');
    await expect(error.locator('.mermaid-error-detail')).toHaveText(/^Expecting .*, got 'EOF'$/);
  });
});
