import { describe, expect, it } from 'vitest';
import { compileExpression, evaluateExpression, ExpressionError } from './expression';

function errorOf(run: () => unknown): ExpressionError {
  try {
    run();
  } catch (error) {
    if (error instanceof ExpressionError) return error;
    throw error;
  }
  throw new Error('expected an ExpressionError');
}

describe('compileExpression', () => {
  it.each([
    ['x^2', 3, 9],
    ['sin(x)', Math.PI / 2, 1],
    ['2*x + 1', 4, 9],
    ['-x^2', 2, -4],
    ['sqrt(x) + abs(-x)', 4, 6],
    ['atan(x) * 4', 1, Math.PI],
    ['sign(x) * tanh(0)', -2, -0],
    ['log(x, 2)', 8, 3],
  ])('%s at x=%d is %d', (source, x, value) => {
    expect(compileExpression(source, { variables: ['x'] }).evaluate({ x })).toBeCloseTo(value, 10);
  });

  it('evaluates one compiled tree many times', () => {
    const square = compileExpression('x*x', { variables: ['x'] });
    expect([1, 2, 3].map((x) => square.evaluate({ x }))).toEqual([1, 4, 9]);
    expect(square.evaluate({})).toBeNaN();
  });

  it.each([
    'constructor',
    '__proto__',
    'globalThis',
    'import("data:text/javascript,1")',
    'eval("1")',
    'Function("return 1")()',
    'x.constructor',
    'x["constructor"]',
    'window',
    'process.exit()',
    'this',
    'x = 1',
    '`1`',
    'a => a',
  ])('rejects %j as unsafe', (source) => {
    expect(errorOf(() => compileExpression(source, { variables: ['x'] })).kind).toBe('unsafe');
  });

  it('rejects deep nesting and huge input as unsafe before the stack can overflow', () => {
    expect(errorOf(() => evaluateExpression('('.repeat(10_000) + '1' + ')'.repeat(10_000))).kind).toBe(
      'unsafe',
    );
    expect(errorOf(() => evaluateExpression('-'.repeat(500) + '1')).message).toMatch(/nested too deeply/);
    expect(errorOf(() => evaluateExpression('sin('.repeat(100) + '1' + ')'.repeat(100))).kind).toBe('unsafe');
    expect(errorOf(() => evaluateExpression('1+'.repeat(600) + '1')).kind).toBe('unsafe');
  });

  it('tells malformed arithmetic (syntax) from forbidden input, with the position', () => {
    const missing = errorOf(() => compileExpression('x +', { variables: ['x'] }));
    expect(missing.kind).toBe('syntax');
    expect(missing.position).toBe(3);
    const unknown = errorOf(() => compileExpression('1 + alert(1)'));
    expect(unknown.kind).toBe('unsafe');
    expect(unknown.position).toBe(4);
    expect(errorOf(() => compileExpression('(1 + 2')).kind).toBe('syntax');
  });

  it('refuses variable names that shadow the grammar or are not plain names', () => {
    expect(errorOf(() => compileExpression('1', { variables: ['sin'] })).kind).toBe('unsafe');
    expect(errorOf(() => compileExpression('1', { variables: ['a.b'] })).kind).toBe('unsafe');
  });

  it('reads variable values by own keys only, never through the prototype', () => {
    const fn = compileExpression('x', { variables: ['x'] });
    const inherited = Object.create({ x: 5 }) as Record<string, number>;
    expect(fn.evaluate(inherited)).toBeNaN();
  });
});
