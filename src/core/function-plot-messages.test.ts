import { describe, expect, it } from 'vitest';
import { formatPlotMessage, PLOT_MESSAGE_CODES, readPlotMessage } from './function-plot-messages';
import { parseFunctionPlot } from './function-plot';

describe('plot messages', () => {
  it.each(PLOT_MESSAGE_CODES)('read %s back into its code and params', (code) => {
    const params = {
      character: '.',
      found: ')',
      name: 'Say "hi". Then',
      functions: 'sin, cos',
      constants: 'pi, e',
      variables: 'x, a',
      count: '1',
      min: '1',
      max: '2',
      got: '3',
      value: 'two',
      setting: 'domain',
      meant: 'label',
    };
    const text = formatPlotMessage(code, params);
    const read = readPlotMessage(text);
    expect(read?.code).toBe(code);
    expect(formatPlotMessage(code, read?.params)).toBe(text);
  });

  it('leave a sentence they did not write unread', () => {
    expect(readPlotMessage('Something else.')).toBeUndefined();
  });

  it.each([
    ['y = 1/2x', 'bracketProduct', {}],
    ['y = sin(x', 'missingClosingBracket', {}],
    ['y = constructor.prototype', 'unexpectedCharacter', { character: '.' }],
    ['y = foo + 2', 'unknownNameOrVariable', { name: 'foo', variables: 'x' }],
    ['y = u(x)*exp(-x)', 'unknownFunctionGuess', { name: 'u', meant: 'step(x)' }],
    ['y = x\ndomain: 5, -5', 'interval', { setting: 'domain' }],
  ])('say what is wrong with %j once, the position in the line and column only', (source, code, params) => {
    const [error] = parseFunctionPlot(source).diagnostics;
    expect(error?.message).not.toMatch(/ at \d/);
    expect(readPlotMessage(error?.message ?? '')).toMatchObject({ code, params });
  });
});
