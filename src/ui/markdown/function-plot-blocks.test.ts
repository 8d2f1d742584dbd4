// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { renderMarkdownSafe } from './render-markdown';
import { renderFunctionPlots, resetFunctionPlots, themeSeriesColors } from './function-plot-blocks';

function preview(markdown: string): HTMLElement {
  const container = document.createElement('div');
  container.innerHTML = renderMarkdownSafe(markdown);
  document.body.append(container);
  return container;
}

describe('function-plot blocks in the preview', () => {
  it('leave a placeholder that shows the source until the chart is drawn', () => {
    const container = preview('```function-plot\ny = sin(x)\n```\n');
    const block = container.querySelector('.function-plot-block');
    expect(block?.getAttribute('data-source-line')).toBe('0');
    expect(block?.querySelector('pre code')?.textContent).toBe('y = sin(x)\n');
  });

  it('keep a broken block as source with a located, coded message', async () => {
    const container = preview(
      '```function-plot\ny = x\ny = <img src=x onerror=alert(1)>\n```\n\n```function-plot\ny = (x\n```\n',
    );
    const destroy = await renderFunctionPlots(container);
    const errors = Array.from(container.querySelectorAll('.plot-error'));
    expect(errors.map((error) => error.getAttribute('data-error-code'))).toEqual([
      'FUNCTION_PLOT_EXPRESSION_UNSAFE',
      'FUNCTION_PLOT_PARSE_FAILED',
    ]);
    expect(errors[0]?.textContent).toMatch(
      /^Plot could not be drawn \(line 2, column 5\): Unexpected character "<"/,
    );
    expect(container.querySelector('img')).toBeNull();
    expect(container.querySelectorAll('.function-plot-block pre')).toHaveLength(2);
    destroy();
  });

  it("take their curve colours from the theme's tokens, in turn", () => {
    const container = preview('```function-plot\ny = x\n```\n');
    container.style.setProperty('--color-accent', '#7fb0e0');
    container.style.setProperty('--code-keyword', '#ff7b72');
    expect(themeSeriesColors(container)).toEqual(['#7fb0e0', '#ff7b72']);
  });

  it('are taken out by a reset so the next pass draws them again', () => {
    const container = preview('```function-plot\ny = x\n```\n');
    const block = container.querySelector('.function-plot-block')!;
    const chart = document.createElement('div');
    chart.className = 'function-plot-chart';
    block.prepend(chart);
    block.setAttribute('data-plot-state', 'rendered');
    resetFunctionPlots(container);
    expect(block.hasAttribute('data-plot-state')).toBe(false);
    expect(container.querySelector('.function-plot-chart')).toBeNull();
    expect(block.querySelector('pre code')?.textContent).toBe('y = x\n');
  });
});
