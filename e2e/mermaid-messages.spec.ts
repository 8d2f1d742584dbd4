import { expect, previewNewNote, test } from './fixtures';

const BROKEN = '```mermaid\ngraph TD\n  A[Start] -->\n```\n';

test('a diagram Mermaid cannot parse says which line of the block is wrong, Mermaid’s words folded below', async ({
  page,
}) => {
  const preview = await previewNewNote(page, 'Flow', BROKEN);
  const error = preview.locator('.mermaid-block .mermaid-error');
  await expect(error).toHaveAttribute('data-error-code', 'MERMAID_PARSE_FAILED');
  // The block has two lines: the arrow on line 2 has nothing to point to.
  await expect(error.locator('.mermaid-error-title')).toHaveText(
    'This diagram has a syntax error on line 2: it ends where more was expected.',
  );
  await expect(error.locator('.mermaid-error-detail')).toHaveText(/^Expecting .*, got 'EOF'$/);
});

test.describe('in Chinese', () => {
  test.use({ locale: 'zh-CN' });

  test('the line is given in Chinese; Mermaid’s own words follow', async ({ page }) => {
    const preview = await previewNewNote(page, '流程', BROKEN);
    const error = preview.locator('.mermaid-block .mermaid-error');
    await expect(error.locator('.mermaid-error-title')).toHaveText(
      '此图表第 2 行有语法错误：内容不完整，后面还应有内容。',
    );
    await expect(error.locator('.mermaid-error-detail')).toHaveText(/^Expecting .*, got 'EOF'$/);
  });
});
