import { describe, expect, it } from 'vitest';
import {
  FUNCTION_PLOT_EXPRESSION_UNSAFE,
  FUNCTION_PLOT_PARSE_FAILED,
  closestName,
  compilePlotFunctions,
  MAX_PLOT_PARAMETERS,
  parseFunctionPlot,
  renderFunctionPlotSvg,
  samplePlot,
} from './function-plot';

describe('parseFunctionPlot', () => {
  it('reads functions, options and settings into the FunctionPlot model', () => {
    const result = parseFunctionPlot(
      [
        'y = sin(x) | label: sine | color: #2563eb',
        '# a comment',
        'f(x) = x^2 / 10',
        'cos(x)',
        'domain: -6.28, 6.28',
        'range: [-2, 2]',
        'x-label: t',
        'y-label: amplitude',
        'grid: false',
      ].join('\n'),
    );
    expect(result.diagnostics).toEqual([]);
    expect(result.plot).toEqual({
      version: 1,
      expressions: [
        { expression: 'sin(x)', label: 'sine', color: '#2563eb' },
        { expression: 'x^2 / 10' },
        { expression: 'cos(x)' },
      ],
      domain: [-6.28, 6.28],
      range: [-2, 2],
      axes: { xLabel: 't', yLabel: 'amplitude', grid: false },
    });
  });

  it('locates a syntax error by line and column', () => {
    const result = parseFunctionPlot('y = sin(x)\ny = x +\n');
    expect(result.plot).toBeUndefined();
    expect(result.diagnostics).toEqual([
      expect.objectContaining({ severity: 'error', code: FUNCTION_PLOT_PARSE_FAILED, line: 2, column: 8 }),
    ]);
  });

  it.each([
    ['constructor', 1],
    ['y = __proto__', 5],
    ['y = globalThis', 5],
    ['y = import("x")', 5],
    ['y = eval("1")', 5],
    ['y = x.constructor', 6],
    ['y = ' + '('.repeat(200) + 'x' + ')'.repeat(200), 5],
  ])('refuses %j as FUNCTION_PLOT_EXPRESSION_UNSAFE', (line, column) => {
    const result = parseFunctionPlot(line);
    expect(result.plot).toBeUndefined();
    expect(result.diagnostics[0]).toMatchObject({ code: FUNCTION_PLOT_EXPRESSION_UNSAFE, line: 1 });
    expect(result.diagnostics[0]?.column).toBeGreaterThanOrEqual(column);
  });

  it('refuses huge blocks and too many functions as unsafe', () => {
    expect(parseFunctionPlot('y = x\n'.repeat(3000)).diagnostics[0]?.code).toBe(
      FUNCTION_PLOT_EXPRESSION_UNSAFE,
    );
    expect(parseFunctionPlot('y = x\n'.repeat(17)).diagnostics[0]).toMatchObject({
      code: FUNCTION_PLOT_EXPRESSION_UNSAFE,
      line: 17,
    });
  });

  it('warns about (and ignores) unsafe colours and unknown settings', () => {
    const result = parseFunctionPlot('y = x | color: red" onload="alert(1)\ncolour: blue');
    expect(result.plot?.expressions).toEqual([{ expression: 'x' }]);
    expect(result.diagnostics.map((item) => [item.severity, item.line])).toEqual([
      ['warning', 1],
      ['warning', 2],
    ]);
  });

  it('needs at least one function and valid intervals', () => {
    expect(parseFunctionPlot('grid: true').diagnostics[0]?.code).toBe(FUNCTION_PLOT_PARSE_FAILED);
    expect(parseFunctionPlot('y = x\ndomain: 5, 1').diagnostics[0]).toMatchObject({ line: 2, column: 9 });
  });
});

describe('samplePlot and renderFunctionPlotSvg', () => {
  it('samples known values and breaks the line at poles', () => {
    const plot = parseFunctionPlot('y = x^2\ny = 1/x\ndomain: -2, 2').plot;
    if (!plot) throw new Error('plot expected');
    const sampled = samplePlot(plot, 4);
    expect(sampled.series[0]?.segments[0]).toEqual([
      [-2, 4],
      [-1, 1],
      [0, 0],
      [1, 1],
      [2, 4],
    ]);
    expect(sampled.series[1]?.segments.length).toBe(2);
  });

  it('draws a self-contained SVG with the labels escaped', () => {
    const plot = parseFunctionPlot('y = sin(x) | label: <script>alert(1)</script>\nx-label: a & b').plot;
    if (!plot) throw new Error('plot expected');
    const result = renderFunctionPlotSvg(plot, { theme: 'dark', width: 500, height: 300 });
    expect(result).toMatchObject({ mimeType: 'image/svg+xml', width: 500, height: 300, warnings: [] });
    const svg = String(result.content);
    expect(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg"')).toBe(true);
    expect(svg).not.toMatch(/<script|onload|javascript:|foreignObject/i);
    expect(svg).toContain('&#60;script&#62;alert(1)&#60;/script&#62;');
    expect(svg).toContain('a &#38; b');
    expect(svg).toContain('#111827');
  });

  it('warns when a function has no finite value in the domain', () => {
    const plot = parseFunctionPlot('y = sqrt(x)\ndomain: -3, -1').plot;
    if (!plot) throw new Error('plot expected');
    expect(renderFunctionPlotSvg(plot).warnings).toEqual(['y = sqrt(x) has no finite value in the domain.']);
  });
});

describe('function-plot parameters', () => {
  it('declares parameters on param: lines, before or after the functions using them', () => {
    const result = parseFunctionPlot(
      ['y = a * sin(k * x) + b | label: wave', 'param: a = 2, k = 0.5', 'parameters: b = -1.5e0'].join('\n'),
    );
    expect(result.diagnostics).toEqual([]);
    expect(result.plot?.parameters).toEqual([
      { name: 'a', value: 2 },
      { name: 'k', value: 0.5 },
      { name: 'b', value: -1.5 },
    ]);
    const [wave] = compilePlotFunctions(result.plot!);
    expect(wave?.(Math.PI)).toBeCloseTo(2 * Math.sin(Math.PI / 2) - 1.5, 12);
    expect(wave?.(0)).toBeCloseTo(-1.5, 12);
  });

  it('samples and draws with the parameter values', () => {
    const { plot } = parseFunctionPlot('y = m * x + c\nparam: m = 3, c = 1\ndomain: 0, 4');
    const sampled = samplePlot(plot!, 4);
    expect(sampled.series[0]?.segments).toEqual([
      [
        [0, 1],
        [1, 4],
        [2, 7],
        [3, 10],
        [4, 13],
      ],
    ]);
    const svg = renderFunctionPlotSvg(plot!, { width: 320, height: 200 });
    expect(svg.warnings).toEqual([]);
    expect(svg.content).toMatch(/<path d="M[\d.]+ [\d.]+L/);
  });

  it('keeps a plot without parameters free of the field', () => {
    expect(parseFunctionPlot('y = x').plot).not.toHaveProperty('parameters');
  });

  it.each([
    ['param: a = abc', FUNCTION_PLOT_PARSE_FAILED, 8, /needs a finite number/],
    ['param: a = 1e999', FUNCTION_PLOT_PARSE_FAILED, 8, /finite number/],
    ['param: a', FUNCTION_PLOT_PARSE_FAILED, 8, /name = number/],
    ['param: a = 1, a = 2', FUNCTION_PLOT_PARSE_FAILED, 15, /declared twice/],
    ['param: x = 1', FUNCTION_PLOT_PARSE_FAILED, 8, /reserved/],
    ['param:   pi = 3', FUNCTION_PLOT_PARSE_FAILED, 10, /reserved/],
    ['param: sin = 3', FUNCTION_PLOT_PARSE_FAILED, 8, /reserved/],
    ['param: 2a = 3', FUNCTION_PLOT_PARSE_FAILED, 8, /not a parameter name/],
    ['param: a = 1,  constructor = 2', FUNCTION_PLOT_EXPRESSION_UNSAFE, 16, /cannot be a parameter/],
    ['param: __proto__ = 2', FUNCTION_PLOT_EXPRESSION_UNSAFE, 8, /cannot be a parameter/],
  ])('refuses %j with a located diagnostic', (line, code, column, message) => {
    const result = parseFunctionPlot(`y = x\n${line}`);
    expect(result.plot).toBeUndefined();
    const error = result.diagnostics.find((item) => item.severity === 'error');
    expect(error).toMatchObject({ code, line: 2, column });
    expect(error?.message).toMatch(message);
  });

  it('refuses an undeclared name in an expression at its column', () => {
    const result = parseFunctionPlot('param: a = 1\ny = a * x + b');
    expect(result.plot).toBeUndefined();
    expect(result.diagnostics).toEqual([
      expect.objectContaining({ code: FUNCTION_PLOT_EXPRESSION_UNSAFE, line: 2, column: 13 }),
    ]);
  });

  it('caps the number of parameters', () => {
    const names = Array.from({ length: MAX_PLOT_PARAMETERS + 1 }, (_, index) => `p${index} = ${index}`);
    const result = parseFunctionPlot(`y = x\nparam: ${names.join(', ')}`);
    expect(result.plot).toBeUndefined();
    expect(result.diagnostics).toEqual([
      expect.objectContaining({ code: FUNCTION_PLOT_EXPRESSION_UNSAFE, line: 2 }),
    ]);
  });

  it('binds parameters through the evaluator only: a plot cannot smuggle a global in', () => {
    const plot = {
      version: 1 as const,
      expressions: [{ expression: 'globalThis' }],
      axes: { grid: true },
      parameters: [{ name: 'a', value: 1 }],
    };
    expect(() => compilePlotFunctions(plot)).toThrow(/Unknown name "globalThis"/);
  });
});

describe('a mistyped setting or option', () => {
  it('is named with the setting the student most likely meant, and the plot is still drawn', () => {
    const result = parseFunctionPlot('y = 2x\ndomian: [0, 5]\nxlable: t\ny = x | lable: line\nzoom: 2');
    expect(result.plot?.expressions.map((entry) => entry.expression)).toEqual(['2x', 'x']);
    expect(result.plot?.domain).toBeUndefined();
    expect(result.diagnostics.map(({ severity, message, line }) => [severity, message, line])).toEqual([
      ['warning', 'Unknown setting "domian" is ignored; did you mean "domain"?', 2],
      ['warning', 'Unknown setting "xlable" is ignored; did you mean "x-label"?', 3],
      ['warning', 'Unknown option "lable: line" is ignored; did you mean "label"?', 4],
      ['warning', 'Unknown setting "zoom" is ignored.', 5],
    ]);
  });

  it('is matched only when close: one or two slips, never a different word', () => {
    expect(closestName('domian', ['domain', 'range'])).toBe('domain');
    expect(closestName('rnge', ['domain', 'range'])).toBe('range');
    expect(closestName('gird', ['grid'])).toBe('grid');
    expect(closestName('size', ['domain', 'range', 'grid'])).toBeUndefined();
    expect(closestName('x', ['grid'])).toBeUndefined();
  });
});

describe('bars in a plot line: |x| and labels such as |G(jw)|', () => {
  it('keeps a label with bars whole and draws the expression before it', () => {
    const result = parseFunctionPlot(
      'param: zeta = 0.2\ny = 1/sqrt((1-x^2)^2 + (2*zeta*x)^2) | label: 幅频 |G(jw)|\ndomain: 0, 3',
    );
    expect(result.diagnostics).toEqual([]);
    expect(result.plot?.expressions).toEqual([
      { expression: '1/sqrt((1-x^2)^2 + (2*zeta*x)^2)', label: '幅频 |G(jw)|' },
    ]);
  });

  it('reads |x| as abs(x), with options after it', () => {
    const result = parseFunctionPlot('y = |x| | label: |x| | color: red\ny = 2|x - 1|');
    expect(result.diagnostics).toEqual([]);
    expect(result.plot?.expressions).toEqual([
      { expression: '|x|', label: '|x|', color: 'red' },
      { expression: '2|x - 1|' },
    ]);
    const [abs, shifted] = compilePlotFunctions(result.plot!);
    expect(abs?.(-4)).toBe(4);
    expect(shifted?.(-1)).toBe(4);
  });

  it('refuses an unmatched bar as a syntax error at the bar, not as an empty expression', () => {
    const result = parseFunctionPlot('y = |x');
    expect(result.plot).toBeUndefined();
    expect(result.diagnostics).toEqual([
      { severity: 'error', code: FUNCTION_PLOT_PARSE_FAILED, message: 'Unexpected "|".', line: 1, column: 5 },
    ]);
  });

  it('still names a mistyped option after a bar', () => {
    const result = parseFunctionPlot('y = |x| | lable: 绝对值');
    expect(result.plot?.expressions).toEqual([{ expression: '|x|' }]);
    expect(result.diagnostics).toEqual([
      expect.objectContaining({
        severity: 'warning',
        message: 'Unknown option "lable: 绝对值" is ignored; did you mean "label"?',
        column: 10,
      }),
    ]);
  });
});

describe('domain and range bounds as constant expressions', () => {
  it.each([
    ['0, 2pi', [0, 2 * Math.PI]],
    ['0, 2*pi', [0, 2 * Math.PI]],
    ['[-pi/2, pi/2]', [-Math.PI / 2, Math.PI / 2]],
    ['-e, e^2', [-Math.E, Math.E ** 2]],
    ['0, max(1, 2)', [0, 2]],
    ['-5, 5', [-5, 5]],
    ['1e-3, 1e3', [0.001, 1000]],
  ])('reads domain: %s', (value, interval) => {
    const result = parseFunctionPlot(`y = sin(x)\ndomain: ${value}\nrange: ${value}`);
    expect(result.diagnostics).toEqual([]);
    expect(result.plot?.domain?.[0]).toBeCloseTo(interval[0]!, 12);
    expect(result.plot?.domain?.[1]).toBeCloseTo(interval[1]!, 12);
    expect(result.plot?.range).toEqual(result.plot?.domain);
  });

  it.each(['2pi, 0', '0', '0, 1, 2', '0,', 'pi, pi'])('refuses domain: %s as an interval error', (value) => {
    const result = parseFunctionPlot(`y = x\ndomain: ${value}`);
    expect(result.plot).toBeUndefined();
    expect(result.diagnostics).toEqual([
      {
        severity: 'error',
        code: FUNCTION_PLOT_PARSE_FAILED,
        message: 'domain needs two numbers, low before high: "-5, 5".',
        line: 2,
        column: 9,
      },
    ]);
  });

  it('names what is wrong inside a bound, at its column', () => {
    expect(parseFunctionPlot('y = x\ndomain: 0, 2T').diagnostics[0]).toMatchObject({
      code: FUNCTION_PLOT_EXPRESSION_UNSAFE,
      message: expect.stringMatching(/^Unknown name "T"/),
      line: 2,
      column: 13,
    });
    expect(parseFunctionPlot('y = x\nrange: 0, (1').diagnostics[0]).toMatchObject({
      code: FUNCTION_PLOT_PARSE_FAILED,
      line: 2,
    });
  });
});

describe('full-width punctuation from a Chinese input method', () => {
  it('reads （ ） ： ， － ｜ and 、 as their ASCII forms, labels as written', () => {
    const result = parseFunctionPlot(
      [
        'y = sin（x） ｜ label：正弦（x）',
        'y = －x＋１',
        'domain：0，2pi',
        'range: －2、2',
        'x-label：时间（s）',
        'param：a ＝ 2',
        'y = a|x|',
      ].join('\n'),
    );
    expect(result.diagnostics).toEqual([]);
    expect(result.plot).toMatchObject({
      expressions: [
        { expression: 'sin(x)', label: '正弦（x）' },
        { expression: '-x+1' },
        { expression: 'a|x|' },
      ],
      domain: [0, 2 * Math.PI],
      range: [-2, 2],
      axes: { xLabel: '时间（s）' },
      parameters: [{ name: 'a', value: 2 }],
    });
  });

  it('keeps columns those of the line as written', () => {
    expect(parseFunctionPlot('y = sin（x）＋').diagnostics[0]).toMatchObject({ line: 1, column: 12 });
  });

  it.each([
    ['y = x²', '²', 6],
    ['y = sin(ωx)', 'ω', 9],
    ['y = x【1】', '【', 6],
    ['y = x^2 # parabola', '#', 9],
  ])('refuses %j as a syntax error naming the character', (line, character, column) => {
    expect(parseFunctionPlot(line).diagnostics).toEqual([
      {
        severity: 'error',
        code: FUNCTION_PLOT_PARSE_FAILED,
        message: `Unexpected character "${character}".`,
        line: 1,
        column,
      },
    ]);
  });

  it('still refuses code as unsafe', () => {
    expect(parseFunctionPlot('y = x．constructor').diagnostics[0]).toMatchObject({
      code: FUNCTION_PLOT_EXPRESSION_UNSAFE,
      message: 'Unexpected character ".".',
    });
  });
});
