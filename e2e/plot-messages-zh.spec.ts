import { expect, previewNewNote, test } from './fixtures';

/** English words of the parser's sentences, which a Chinese reader must not get. */
const ENGLISH = /Expected|Unexpected|Unknown|Write|needs|could not be| at \d/;

/** The blocks a lecturer got wrong in the walk-through, one plot each. */
const BROKEN_PLOTS = [
  '```function-plot\ny = sin(x\n```',
  '```function-plot\ny = 1/2x\n```',
  '```function-plot\ny = foo + 2\n```',
  '```function-plot\ny = x\ndomain: 5, -5\n```',
  '```function-plot\ny = constructor.prototype\n```',
].join('\n\n');

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
      '公式在此结束，但后面还应有数字、名称或“(”。',
    );
    const diagram = preview.locator('.mermaid-block .mermaid-error');
    await expect(diagram).toHaveAttribute('data-error-code', 'MERMAID_PARSE_FAILED');
    await expect(diagram.locator('.mermaid-error-title')).toHaveText(
      '此图表第 2 行有语法错误：内容不完整，后面还应有内容。',
    );
    await expect(diagram.locator('.mermaid-error-detail')).toHaveText(/^Expecting .*, got 'EOF'$/);
    await expect(preview).not.toContainText('could not be');
  });

  test('each broken plot says in Chinese what is wrong, at one position', async ({ page }) => {
    const preview = await previewNewNote(page, '讲义 plots', `${BROKEN_PLOTS}\n`);
    const errors = preview.locator('.function-plot-block .plot-error');
    await expect(errors).toHaveCount(5);
    await expect(errors.locator('.plot-error-title')).toHaveText([
      '函数图像无法绘制（第 1 行，第 10 列）：',
      '函数图像无法绘制（第 1 行，第 8 列）：',
      '函数图像无法绘制（第 1 行，第 5 列）：',
      '函数图像无法绘制（第 2 行，第 9 列）：',
      '函数图像无法绘制（第 1 行，第 16 列）：',
    ]);
    await expect(errors.locator('.plot-error-detail')).toHaveText([
      '末尾缺少“)”。',
      '“/”或“%”后面的乘积请加括号，例如 1/(2x) 或 (1/2)x。',
      /^未知名称“foo”。可用函数：sin, cos, .*；常量：pi, e；变量：x。$/,
      'domain 需要两个数字，小的在前，例如“-5, 5”。',
      '公式中不能使用字符“.”。',
    ]);
    for (const detail of await errors.locator('.plot-error-detail').allTextContents())
      expect(detail).not.toMatch(ENGLISH);
  });

  test('an export of the broken plots lists why each is kept as source, in Chinese', async ({ page }) => {
    await previewNewNote(page, '讲义 export', `${BROKEN_PLOTS}\n`);
    const download = page.waitForEvent('download');
    await page.getByTestId('export-note').click();
    await page.getByTestId('export-format-html').click();
    await download;
    const toast = page.getByTestId('toast').filter({ hasText: '已导出 讲义 export.html' });
    await expect(toast).toContainText('有 5 条警告');
    await expect(toast).toContainText('第 2 行的函数图像保留为源码：末尾缺少“)”。');
    await expect(toast).not.toContainText(ENGLISH);

    await toast.getByRole('button', { name: '查看全部', exact: true }).click();
    const list = page.getByTestId('export-warnings').locator('li');
    await expect(list).toHaveCount(5);
    for (const warning of [
      '“/”或“%”后面的乘积请加括号，例如 1/(2x) 或 (1/2)x。',
      '未知名称“foo”。',
      'domain 需要两个数字，小的在前，例如“-5, 5”。',
      '公式中不能使用字符“.”。',
    ]) {
      await expect(list.filter({ hasText: warning })).toHaveCount(1);
    }
    for (const warning of await list.allTextContents()) expect(warning).not.toMatch(ENGLISH);
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
