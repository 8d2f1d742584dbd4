import { expect, previewNewNote, test } from './fixtures';

/**
 * Plot blocks as a control-theory student types them: bars for |x| and |G(jw)|,
 * a domain of one period in pi, and the full-width punctuation a Chinese input
 * method leaves in (（ ） ： ， ｜).
 */
const AS_TYPED = [
  '```function-plot\ny = |x| | label: 幅频 |G(jw)|\n```',
  '```function-plot\ny = sin(x)\ndomain: 0, 2pi\n```',
  '```function-plot\ny = cos（x） ｜ label：余弦（x）\ndomain：0，10\n```',
].join('\n\n');

test('plot blocks with |x|, a |G(jw)| label, a 2pi domain and full-width punctuation are drawn', async ({
  page,
  requestLog,
}) => {
  const preview = await previewNewNote(page, 'Bode notes', `${AS_TYPED}\n`);
  const blocks = preview.locator('.function-plot-block');
  await expect(blocks).toHaveCount(3);
  for (const block of await blocks.all()) {
    await expect(block.locator('.function-plot-chart path.line')).toHaveCount(1);
  }
  await expect(preview.locator('.plot-error')).toHaveCount(0);
  await expect(preview.locator('.plot-diagnostics li')).toHaveCount(0);
  await expect(blocks.nth(0).locator('.plot-legend li')).toHaveText(['幅频 |G(jw)|']);
  await expect(blocks.nth(1).locator('.plot-legend li')).toHaveText(['y = sin(x)']);
  await expect(blocks.nth(2).locator('.plot-legend li')).toHaveText(['余弦（x）']);
  expect(requestLog.foreign()).toEqual([]);
});

test.describe('in Chinese', () => {
  test.use({ locale: 'zh-CN' });

  test('a character no normalising can read is a syntax error named in Chinese, next to a plot that draws', async ({
    page,
  }) => {
    const preview = await previewNewNote(
      page,
      '全角',
      '```function-plot\ny = sin（x） ｜ label：正弦\ndomain：0，2pi\n```\n\n```function-plot\ny = sin(ωx)\n```\n',
    );
    const blocks = preview.locator('.function-plot-block');
    await expect(blocks.nth(0).locator('.function-plot-chart path.line')).toHaveCount(1);
    await expect(blocks.nth(0).locator('.plot-legend li')).toHaveText(['正弦']);
    const error = blocks.nth(1).locator('.plot-error');
    await expect(error).toHaveAttribute('data-error-code', 'FUNCTION_PLOT_PARSE_FAILED');
    await expect(error.locator('.plot-error-title')).toHaveText('函数图像无法绘制（第 1 行，第 9 列）：');
    await expect(error.locator('.plot-error-detail')).toHaveText('公式中不能使用字符“ω”。');
    await expect(preview.locator('.plot-error')).toHaveCount(1);
  });
});
