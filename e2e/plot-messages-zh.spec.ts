import { expect, previewNewNote, test } from './fixtures';

test.describe('in Chinese', () => {
  test.use({ locale: 'zh-CN' });

  test('a plot or diagram that cannot be drawn says so in Chinese, with the parser message below', async ({
    page,
  }) => {
    const preview = await previewNewNote(
      page,
      '函数 notes',
      '```function-plot\ny = x +\n```\n\n```mermaid\ngraph TD\n  A -->\n```\n',
    );
    const plot = preview.locator('.function-plot-block .plot-error');
    await expect(plot).toHaveAttribute('data-error-code', 'FUNCTION_PLOT_PARSE_FAILED');
    await expect(plot.locator('.plot-error-title')).toHaveText('函数图像无法绘制（第 1 行，第 8 列）：');
    await expect(plot.locator('.plot-error-detail')).toHaveText(
      'Expected a number, a name or "(" but found the end of the expression',
    );
    const diagram = preview.locator('.mermaid-block .mermaid-error');
    await expect(diagram).toHaveAttribute('data-error-code', 'MERMAID_PARSE_FAILED');
    await expect(diagram.locator('.mermaid-error-title')).toHaveText('图表无法渲染：');
    await expect(diagram.locator('.mermaid-error-detail')).not.toBeEmpty();
    await expect(preview).not.toContainText('could not be');
  });

  test('a plot written as students write it is drawn, and a mistyped option is named under it', async ({
    page,
  }) => {
    const preview = await previewNewNote(
      page,
      '二次函数',
      '```function-plot\ny = 2x^2 - 3(x+1) | lable: 抛物线\ndomian: [0, 5]\n```\n',
    );
    const block = preview.locator('.function-plot-block');
    await expect(block.locator('.function-plot-chart path.line')).toHaveCount(1);
    await expect(block.locator('.plot-error')).toHaveCount(0);
    await expect(block.locator('.plot-diagnostics li')).toHaveText([
      '第 1 行：未知选项“lable: 抛物线”已忽略——你是不是想写“label”？',
      '第 2 行：未知设置“domian”已忽略——你是不是想写“domain”？',
    ]);
  });
});
