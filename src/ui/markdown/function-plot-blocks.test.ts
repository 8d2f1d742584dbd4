// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderMarkdownSafe } from './render-markdown';
import {
  drawsSomewhere,
  parameterRange,
  PlotParameterMemory,
  renderFunctionPlots,
  renderInteractivePlot,
  type RenderHandle,
  resetFunctionPlots,
  themeSeriesColors,
} from './function-plot-blocks';
import { parseFunctionPlot, plotRange, plotTicks } from '../../core/function-plot';
import { translatePlotWarning } from './plot-warnings';
import { en } from '../i18n/en';
import { zhCN } from '../i18n/zh-cn';
import { translate } from '../i18n/translate';
import type { MessageKey, MessageParams } from '../i18n';

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
      /^Plot could not be drawn \(line 2, column 5\): Unexpected character "<"\.$/,
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

  it('fit y to the values when the block names no range, as the exports do', async () => {
    const container = preview(
      '```function-plot\ny = x^2\n```\n\n```function-plot\ny = x^2\nrange: -1, 4\n```\n',
    );
    const destroy = await renderFunctionPlots(container);
    const [fitted, fixed] = Array.from(container.querySelectorAll('.function-plot-chart')).map((chart) =>
      Array.from(chart.querySelectorAll('.y.axis .tick text'), (tick) =>
        Number(tick.textContent?.replace('−', '-')),
      ),
    );
    const exported = plotRange(parseFunctionPlot('y = x^2').plot!);
    // What the export's axis numbers up to (0…100 for a parabola over -10…10).
    expect(Math.max(...fitted!)).toBe(Math.max(...plotTicks(exported, 6)));
    expect(Math.max(...fitted!)).toBe(100);
    expect(Math.max(...fixed!)).toBeLessThanOrEqual(4);
    destroy();
  });

  it('show a located message for a parameter declared twice', async () => {
    const container = preview('```function-plot\ny = a * x\nparam: a = 1, a = 2\n```\n');
    const destroy = await renderFunctionPlots(container);
    const error = container.querySelector('.plot-error');
    expect(error?.getAttribute('data-error-code')).toBe('FUNCTION_PLOT_PARSE_FAILED');
    expect(error?.textContent).toMatch(/\(line 2, column 15\): Parameter "a" is declared twice/);
    destroy();
  });
});

describe('plot messages in the user language', () => {
  const chinese = {
    failed: (line?: number, column?: number) =>
      line === undefined ? '函数图像无法绘制：' : `函数图像无法绘制（第 ${line} 行，第 ${column} 列）：`,
    nothingToDraw: (functions: string, low: number, high: number) =>
      `${functions} 在 ${low} 到 ${high} 之间没有可绘制的值。`,
    notDrawn: (functions: string) => `未绘制：${functions}`,
    warning: (message: string, line?: number) => {
      const said =
        translatePlotWarning(message, (key: MessageKey, params: MessageParams) =>
          translate(zhCN, en, 'zh-CN', key, params),
        ) ?? message;
      return line === undefined ? said : `第 ${line} 行：${said}`;
    },
  };

  it('head a broken block with the translated words and keep the parser message below as detail', async () => {
    const container = preview('```function-plot\ny = 2x\ny = x +\n```\n\n```function-plot\ny = 0/0\n```\n');
    const destroy = await renderFunctionPlots(container, { labels: chinese });
    const [parse, empty] = Array.from(container.querySelectorAll('.plot-error'));
    expect(parse?.querySelector('.plot-error-title')?.textContent).toBe(
      '函数图像无法绘制（第 2 行，第 8 列）：',
    );
    expect(parse?.querySelector('.plot-error-detail')?.textContent).toBe(
      '公式在此结束，但后面还应有数字、名称或“(”。',
    );
    expect(empty?.querySelector('.plot-error-title')?.textContent).toBe('函数图像无法绘制：');
    expect(empty?.querySelector('.plot-error-detail')?.textContent).toBe(
      'y = 0/0 在 -10 到 10 之间没有可绘制的值。',
    );
    destroy();
  });

  it.each([
    ['y = sin(x', '函数图像无法绘制（第 1 行，第 10 列）：', '末尾缺少“)”。'],
    [
      'y = 1/2x',
      '函数图像无法绘制（第 1 行，第 8 列）：',
      '“/”或“%”后面的乘积请加括号，例如 1/(2x) 或 (1/2)x。',
    ],
    [
      'y = foo + 2',
      '函数图像无法绘制（第 1 行，第 5 列）：',
      /^未知名称“foo”。可用函数：sin, cos, .*；变量：x。$/,
    ],
    [
      'y = x\ndomain: 5, -5',
      '函数图像无法绘制（第 2 行，第 9 列）：',
      'domain 需要两个数字，小的在前，例如“-5, 5”。',
    ],
    ['y = constructor.prototype', '函数图像无法绘制（第 1 行，第 16 列）：', '公式中不能使用字符“.”。'],
  ])('say why %j cannot be drawn in the words given, the position once', async (source, heading, detail) => {
    const container = preview(`\`\`\`function-plot\n${source}\n\`\`\`\n`);
    const destroy = await renderFunctionPlots(container, { labels: chinese });
    const error = container.querySelector('.plot-error');
    expect(error?.querySelector('.plot-error-title')?.textContent).toBe(heading);
    expect(error?.querySelector('.plot-error-detail')?.textContent).toMatch(detail);
    expect(error?.querySelector('.plot-error-detail')?.textContent).not.toMatch(
      / at \d|Write|Unknown|Expected/,
    );
    destroy();
  });

  it('say under the chart that a mistyped setting is ignored, and what was likely meant', async () => {
    const container = preview('```function-plot\ny = 2x\ndomian: [0, 5]\n```\n');
    const destroy = await renderFunctionPlots(container, { labels: chinese });
    expect(container.querySelectorAll('.function-plot-chart path.line')).toHaveLength(1);
    const notes = container.querySelector('.function-plot-chart + .plot-diagnostics');
    expect(notes?.textContent).toBe('第 2 行：未知设置“domian”已忽略——你是不是想写“domain”？');
    destroy();
  });

  it('draw no warning list for a block without warnings, and none twice after a reset', async () => {
    const container = preview('```function-plot\ny = x\nzoom: 2\n```\n\n```function-plot\ny = x\n```\n');
    await renderFunctionPlots(container);
    resetFunctionPlots(container);
    const destroy = await renderFunctionPlots(container);
    const [first, second] = Array.from(container.querySelectorAll('.function-plot-block'));
    expect(first?.querySelectorAll('.plot-diagnostics li')).toHaveLength(1);
    expect(first?.querySelector('.plot-diagnostics')?.textContent).toBe(
      'Line 2: Unknown setting "zoom" is ignored.',
    );
    expect(second?.querySelector('.plot-diagnostics')).toBeNull();
    destroy();
  });
});

describe('functions without a value to draw', () => {
  it('are told apart by the points the chart samples', () => {
    expect(drawsSomewhere(() => Number.NaN, [-10, 10], 50)).toBe(false);
    expect(drawsSomewhere(Math.sqrt, [-5, -1], 50)).toBe(false);
    expect(drawsSomewhere(Math.sqrt, [-5, 0], 50)).toBe(true);
    expect(drawsSomewhere((x) => 1 / (x - x), [-1, 1], 50)).toBe(true);
  });

  it('leave a plot with nothing to draw as source, saying why in words', async () => {
    const container = preview('```function-plot\ny = 0/0\n```\n');
    const destroy = await renderFunctionPlots(container);
    const error = container.querySelector('.plot-error');
    expect(error?.getAttribute('data-error-code')).toBe('FUNCTION_PLOT_RENDER_FAILED');
    expect(error?.textContent).toBe(
      'Plot could not be drawn: y = 0/0 has no value to draw between -10 and 10.',
    );
    destroy();
  });

  it('are left out of a chart that draws the others, with a note', async () => {
    const container = preview('```function-plot\ny = sqrt(x)\ny = x\ndomain: -5, -1\n```\n');
    const destroy = await renderFunctionPlots(container);
    expect(container.querySelector('.plot-error')).toBeNull();
    expect(container.querySelectorAll('.function-plot-chart path.line')).toHaveLength(1);
    expect(container.querySelector('.plot-warning')?.textContent).toBe(
      'Not drawn: y = sqrt(x) has no value between -5 and -1.',
    );
    destroy();
  });
});

describe('function-plot parameters in the preview', () => {
  it('get a slider and a number box each; moving either redraws with that value, the source stays', async () => {
    const container = preview('```function-plot\ny = a * sin(k * x)\nparam: a = 2, k = 0.5\n```\n');
    const drawn = new Map<HTMLElement, RenderHandle>();
    const destroy = await renderFunctionPlots(container, {
      drawn,
      labels: { slider: (name) => `slide ${name}`, value: (name) => `type ${name}` },
    });
    const block = container.querySelector<HTMLElement>('.function-plot-block')!;
    const handle = drawn.get(block)!;
    const update = vi.spyOn(handle, 'update');
    const rows = Array.from(block.querySelectorAll('.plot-parameter'));
    expect(rows.map((row) => row.getAttribute('data-parameter'))).toEqual(['a', 'k']);
    const slider = block.querySelector<HTMLInputElement>('[aria-label="slide a"]')!;
    const box = block.querySelector<HTMLInputElement>('[aria-label="type a"]')!;
    expect([slider.type, slider.min, slider.max, slider.value]).toEqual(['range', '-5', '5', '2']);
    expect([box.type, box.value]).toEqual(['number', '2']);

    slider.value = '3.5';
    slider.dispatchEvent(new Event('input'));
    expect(box.value).toBe('3.5');
    expect(update).toHaveBeenLastCalledWith(
      expect.objectContaining({
        parameters: [
          { name: 'a', value: 3.5 },
          { name: 'k', value: 0.5 },
        ],
      }),
    );

    const kBox = block.querySelector<HTMLInputElement>('[aria-label="type k"]')!;
    kBox.value = '-0.75';
    kBox.dispatchEvent(new Event('input'));
    expect(block.querySelector<HTMLInputElement>('[aria-label="slide k"]')?.value).toBe('-0.75');
    expect(update).toHaveBeenLastCalledWith(
      expect.objectContaining({
        parameters: [
          { name: 'a', value: 3.5 },
          { name: 'k', value: -0.75 },
        ],
      }),
    );

    // A half-typed number draws nothing new.
    kBox.value = '';
    kBox.dispatchEvent(new Event('input'));
    expect(update).toHaveBeenCalledTimes(2);
    expect(block.querySelector('pre code')?.textContent).toBe('y = a * sin(k * x)\nparam: a = 2, k = 0.5\n');

    resetFunctionPlots(container);
    expect(block.querySelector('.plot-parameters')).toBeNull();
    destroy();
  });

  it('offers no controls for a plot without parameters', async () => {
    const container = preview('```function-plot\ny = x\n```\n');
    const destroy = await renderFunctionPlots(container);
    expect(container.querySelector('.function-plot-chart')).not.toBeNull();
    expect(container.querySelector('.plot-parameters')).toBeNull();
    destroy();
  });

  it('range a slider symmetrically around 0 to a round bound past twice the value', () => {
    expect(parameterRange(0)).toEqual({ min: -1, max: 1, step: 0.01 });
    expect(parameterRange(0.5)).toEqual({ min: -1, max: 1, step: 0.01 });
    expect(parameterRange(2)).toEqual({ min: -5, max: 5, step: 0.05 });
    expect(parameterRange(-7)).toEqual({ min: -20, max: 20, step: 0.2 });
    expect(parameterRange(30)).toEqual({ min: -100, max: 100, step: 1 });
  });
});

describe('slider values across redraws', () => {
  const labels = { slider: (name: string) => `slide ${name}`, value: (name: string) => `type ${name}` };
  const slide = (container: HTMLElement, name: string, value: string, index = 0) => {
    const block = container.querySelectorAll('.function-plot-block')[index]!;
    const slider = block.querySelector<HTMLInputElement>(`[aria-label="slide ${name}"]`)!;
    slider.value = value;
    slider.dispatchEvent(new Event('input'));
  };
  const shown = (container: HTMLElement, index = 0) => {
    const block = container.querySelectorAll('.function-plot-block')[index]!;
    return {
      sliders: Array.from(
        block.querySelectorAll<HTMLInputElement>('input[type="range"]'),
        (input) => input.value,
      ),
      boxes: Array.from(
        block.querySelectorAll<HTMLInputElement>('input[type="number"]'),
        (input) => input.value,
      ),
      curve: block.querySelector('path.line')?.getAttribute('d'),
    };
  };
  /** The preview rendered anew: every block is a new element, as after an edit of it. */
  const rerender = (container: HTMLElement, markdown: string) => {
    container.innerHTML = renderMarkdownSafe(markdown);
  };

  it('are drawn again after a theme reset, the chart with them, while the note keeps the declared ones', async () => {
    const source = '```function-plot\ny = a * x + k\nparam: a = 1, k = 0\n```\n';
    const container = preview(source);
    const memory = new PlotParameterMemory();
    let destroy = await renderFunctionPlots(container, { labels, memory });
    const declared = shown(container);
    slide(container, 'a', '-1.5');
    slide(container, 'k', '0.25');
    const slid = shown(container);
    expect(slid.sliders).toEqual(['-1.5', '0.25']);
    expect(slid.curve).not.toBe(declared.curve);

    resetFunctionPlots(container);
    destroy();
    destroy = await renderFunctionPlots(container, { labels, memory });
    expect(shown(container)).toEqual(slid);
    expect(container.querySelector('pre code')?.textContent).toBe('y = a * x + k\nparam: a = 1, k = 0\n');

    // Without the preview's memory a redraw starts from the declaration, as before.
    resetFunctionPlots(container);
    destroy();
    destroy = await renderFunctionPlots(container, { labels });
    expect(shown(container)).toEqual(declared);
    destroy();
  });

  it('stay with a plot whose expression was edited, and give way where its declaration changed', async () => {
    const container = preview('```function-plot\ny = a * x + k\nparam: a = 1, k = 0\n```\n');
    const memory = new PlotParameterMemory();
    let destroy = await renderFunctionPlots(container, { labels, memory });
    slide(container, 'a', '-1.5');
    slide(container, 'k', '0.25');

    destroy();
    rerender(container, '```function-plot\ny = a * x - k | label: edited\nparam: a = 1, k = 0\n```\n');
    destroy = await renderFunctionPlots(container, { labels, memory });
    expect(shown(container).sliders).toEqual(['-1.5', '0.25']);

    // The user declared k anew: the slider takes it; a keeps what it was slid to.
    destroy();
    rerender(container, '```function-plot\ny = a * x - k | label: edited\nparam: a = 1, k = 3\n```\n');
    destroy = await renderFunctionPlots(container, { labels, memory });
    expect(shown(container).sliders).toEqual(['-1.5', '3']);
    destroy();
  });

  it('belong to their plot when another plot is added above it', async () => {
    const plot = '```function-plot\ny = a * x\nparam: a = 1\n```\n';
    const container = preview(plot);
    const memory = new PlotParameterMemory();
    let destroy = await renderFunctionPlots(container, { labels, memory });
    slide(container, 'a', '2');

    destroy();
    rerender(container, `\`\`\`function-plot\ny = a * x * x\nparam: a = 1\n\`\`\`\n\n${plot}`);
    destroy = await renderFunctionPlots(container, { labels, memory });
    expect(shown(container, 0).sliders).toEqual(['1']);
    expect(shown(container, 1).sliders).toEqual(['2']);
    destroy();
  });

  it('widen the slider to a typed value past its declared range', async () => {
    const container = preview('```function-plot\ny = a * x\nparam: a = 1\n```\n');
    const memory = new PlotParameterMemory();
    let destroy = await renderFunctionPlots(container, { labels, memory });
    const box = container.querySelector<HTMLInputElement>('[aria-label="type a"]')!;
    box.value = '7';
    box.dispatchEvent(new Event('input'));
    resetFunctionPlots(container);
    destroy();
    destroy = await renderFunctionPlots(container, { labels, memory });
    const slider = container.querySelector<HTMLInputElement>('[aria-label="slide a"]')!;
    expect([slider.min, slider.max, slider.value]).toEqual(['-20', '20', '7']);
    destroy();
  });
});

describe('renderInteractivePlot resizing', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('redraws at the container width it observes and stops observing on destroy', async () => {
    const observers: Array<{ callback: ResizeObserverCallback; targets: Element[]; disconnected: boolean }> =
      [];
    class FakeResizeObserver {
      readonly record: (typeof observers)[number];
      constructor(callback: ResizeObserverCallback) {
        this.record = { callback, targets: [], disconnected: false };
        observers.push(this.record);
      }
      observe(target: Element) {
        this.record.targets.push(target);
      }
      unobserve() {}
      disconnect() {
        this.record.disconnected = true;
      }
    }
    vi.stubGlobal('ResizeObserver', FakeResizeObserver);
    const target = document.createElement('div');
    document.body.append(target);
    const { plot } = parseFunctionPlot('y = a * x\nparam: a = 2');
    const handle = await renderInteractivePlot(plot!, target);
    expect(target.querySelector('svg')?.getAttribute('width')).toBe('480');
    expect(observers).toHaveLength(1);
    expect(observers[0]?.targets).toEqual([target]);
    const resizeTo = (width: number) =>
      observers[0]?.callback(
        [{ contentRect: { width, height: 300 } } as ResizeObserverEntry],
        {} as ResizeObserver,
      );
    resizeTo(333.6);
    expect(target.querySelector('svg')?.getAttribute('width')).toBe('333');
    handle.destroy();
    expect(observers[0]?.disconnected).toBe(true);
    expect(target.childElementCount).toBe(0);
    resizeTo(400);
    expect(target.childElementCount).toBe(0);
  });
});
