import { expect, previewNewNote, test } from './fixtures';

/** A lecture's plots as a teacher types them: products after π, a step, a piecewise decay, KaTeX braces. */
const LECTURE_PLOTS = [
  '```function-plot',
  'y = cos(2πx) | label: cosine',
  'y = piecewise(x < 0, 0, exp(-x)) | label: decay',
  'domain: -2, 4',
  '```',
  '',
  '```function-plot',
  'y = e^{-x}cos(2pi x) | label: damped',
  'y = step(x)*exp(-x) | label: switched on',
  'domain: -2, 4',
  '```',
  '',
].join('\n');

test('plots written as a teacher writes them are drawn, every curve, not kept as source', async ({
  page,
}) => {
  const preview = await previewNewNote(page, 'Signals lecture', LECTURE_PLOTS);
  const blocks = preview.locator('.function-plot-block');
  await expect(blocks).toHaveCount(2);
  await expect(blocks.nth(0).locator('.plot-legend li')).toHaveText(['cosine', 'decay']);
  await expect(blocks.nth(1).locator('.plot-legend li')).toHaveText(['damped', 'switched on']);
  // A curve with a jump (the step, the piecewise decay) may be drawn as more than one path.
  for (const block of await blocks.all()) {
    await expect
      .poll(() => block.locator('.function-plot-chart svg path.line').count())
      .toBeGreaterThanOrEqual(2);
  }
  await expect(preview.locator('.plot-error')).toHaveCount(0);
  await expect(preview.locator('.function-plot-chart')).toHaveCount(2);
});

test('an unknown function names the one most likely meant', async ({ page }) => {
  const preview = await previewNewNote(page, 'Unit step', '```function-plot\ny = u(x)*exp(-x)\n```\n');
  const error = preview.locator('.function-plot-block .plot-error');
  await expect(error).toHaveAttribute('data-error-code', 'FUNCTION_PLOT_EXPRESSION_UNSAFE');
  await expect(error.locator('.plot-error-detail')).toHaveText('unknown function “u”; did you mean step(x)?');
});

const LABEL_WITH_BRACKETS = '```mermaid\nflowchart LR\n  A[输入信号 x(t)] --> B[系统 H]\n```\n';

test('a diagram label with brackets says to quote it', async ({ page }) => {
  const preview = await previewNewNote(page, 'System diagram', LABEL_WITH_BRACKETS);
  const error = preview.locator('.mermaid-block .mermaid-error');
  await expect(error).toHaveAttribute('data-error-code', 'MERMAID_PARSE_FAILED');
  await expect(error.locator('.mermaid-error-title')).toHaveText(
    'This diagram has a syntax error on line 2.',
  );
  await expect(error.locator('.mermaid-error-hint')).toHaveText(
    'A node label with ( ), [ ], { } or quotes needs double quotes around it: A["x(t)"]; inside them write a quote as #quot;.',
  );
});

test.describe('in Chinese', () => {
  test.use({ locale: 'zh-CN' });

  test('the hints are said in Chinese', async ({ page }) => {
    const preview = await previewNewNote(
      page,
      '系统框图',
      `${LABEL_WITH_BRACKETS}\n\`\`\`function-plot\ny = x < 0 ? 0 : exp(-x)\n\`\`\`\n`,
    );
    await expect(preview.locator('.mermaid-block .mermaid-error-title')).toHaveText(
      '此图表第 2 行有语法错误。',
    );
    await expect(preview.locator('.mermaid-block .mermaid-error-hint')).toHaveText(
      '节点文字含有 ( )、[ ]、{ } 或引号时，请用双引号括起来：A["x(t)"]；其中的引号写作 #quot;。',
    );
    await expect(preview.locator('.function-plot-block .plot-error-detail')).toHaveText(
      '条件请用 piecewise 书写，例如 piecewise(x < 0, 0, x)，不能用“?”和“:”。',
    );
  });
});
