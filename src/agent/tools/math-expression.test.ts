import { describe, expect, it } from 'vitest';
import { MathExpressionError, evaluateExpression } from './math-expression';

describe('evaluateExpression', () => {
  it.each([
    ['1 + 2 * 3', 7],
    ['(1 + 2) * 3', 9],
    ['10 / 4', 2.5],
    ['10 % 4', 2],
    ['2 ^ 3 ^ 2', 512],
    ['2 ** 10', 1024],
    ['-2 ^ 2', -4],
    ['(-2) ^ 2', 4],
    ['2 ^ -1', 0.5],
    ['--3', 3],
    ['+4 - -1', 5],
    ['1.5e3 + .5', 1500.5],
    ['sqrt(16) + abs(-3)', 7],
    ['log(1000)', 3],
    ['log(8, 2)', 3],
    ['ln(e)', 1],
    ['exp(0)', 1],
    ['min(3, 1, 2) + max(3, 1, 2)', 4],
    ['round(2.5) + floor(1.9) + ceil(1.1)', 6],
    ['round(1.005, 2)', 1.01],
    ['cos(0) + sin(0) + tan(0)', 1],
    ['2 × 3 ÷ 4 − 1', 0.5],
    ['PI', Math.PI],
  ])('%s = %d', (expression, value) => {
    expect(evaluateExpression(expression)).toBeCloseTo(value, 10);
  });

  it.each([
    'constructor',
    'constructor.constructor("return process")()',
    'alert(1)',
    '__proto__',
    'toString()',
    'this',
    'process.exit()',
    'Math.PI',
    '1; 2',
    '[1]',
    '"1" + 1',
    'x => x',
    '`1`',
    '1 +',
    '(1 + 2',
    '1 2',
    'sqrt 4',
    'sqrt()',
    'min()',
    'log(1, 2, 3)',
    '',
    'valueOf',
    'hasOwnProperty(1)',
  ])('rejects %j', (expression) => {
    expect(() => evaluateExpression(expression)).toThrow(MathExpressionError);
  });

  it('names the unknown name and where it is', () => {
    expect(() => evaluateExpression('1 + alert(1)')).toThrow(/Unknown function "alert" at 5/);
  });

  it('refuses deep nesting and long input instead of overflowing the stack', () => {
    expect(() => evaluateExpression('('.repeat(200) + '1' + ')'.repeat(200))).toThrow(/nested too deeply/);
    expect(() => evaluateExpression('-'.repeat(500) + '1')).toThrow(/nested too deeply/);
    expect(() => evaluateExpression('1+'.repeat(600) + '1')).toThrow(/longer than/);
  });
});
