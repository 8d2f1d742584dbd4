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

describe('implicit multiplication, as students write it', () => {
  const at = (source: string, x: number, variables = ['x']) =>
    compileExpression(source, { variables }).evaluate({ x, a: 3 });

  it.each([
    ['2x', 4, 8],
    ['3(x+1)', 2, 9],
    ['2sin(x)', Math.PI / 2, 2],
    ['x(x-1)', 5, 20],
    ['(x+1)(x-1)', 3, 8],
    ['(x+1)x', 2, 6],
    ['2 x', 4, 8],
    ['-2x^2', 3, -18],
    ['2x^2 + 3x - 1', 2, 13],
    ['2pi', 1, 2 * Math.PI],
    ['(e^2)x', 1, Math.E ** 2],
    ['2x/4', 4, 2],
    ['max(2x, 1)', 3, 6],
  ])('%s at x=%d is %d', (source, x, value) => {
    expect(at(source, x)).toBeCloseTo(value, 10);
  });

  it('multiplies a declared parameter written before a bracket, as with x', () => {
    expect(at('a(x+1)', 1, ['x', 'a'])).toBe(6);
  });

  it('never splits a name: sin, xy and ax stay one name each', () => {
    expect(at('sin(x)', Math.PI / 2)).toBe(1);
    expect(errorOf(() => compileExpression('xy', { variables: ['x', 'y'] })).message).toMatch(
      /^Unknown name "xy"/,
    );
    expect(errorOf(() => compileExpression('ax', { variables: ['x', 'a'] })).message).toMatch(
      /^Unknown name "ax"/,
    );
  });

  it.each([
    ['2 3', /^Put "\*" between "2" and "3" at 3/],
    ['cos(2pi 3)', /^Put "\*" between "pi" and "3" at 9/],
    ['sin x', /^Expected "\(" but found "x" at 5/],
    ['1/2x', /^Write the product after "\/" or "%" in brackets, e\.g\. 1\/\(2x\) or \(1\/2\)x, at 4/],
    ['(x+1)/2(x-1)', /in brackets, e\.g\. 1\/\(2x\)/],
    ['e^2x', /^Write the exponent in brackets, e\.g\. e\^\(2x\) or \(e\^2\)x, at 4/],
    ['-x^2(x+1)', /^Write the exponent in brackets/],
  ])('still refuses %j, which is a typo or ambiguous', (source, message) => {
    const error = errorOf(() => compileExpression(source, { variables: ['x', 'y'] }));
    expect(error.kind).toBe('syntax');
    expect(error.message).toMatch(message);
  });
});

describe('expression errors for callers that word them', () => {
  it.each([
    ['1/2x', 'bracketProduct', {}],
    ['e^2x', 'bracketExponent', {}],
    ['sin(x', 'missingClosingBracket', {}],
    ['sin x', 'expectedOpeningBracket', { name: 'sin', found: 'x' }],
    ['x +', 'missingOperand', {}],
    ['x + )', 'expectedOperand', { found: ')' }],
    ['x )', 'unexpectedToken', { found: ')' }],
    ['a.b', 'unexpectedCharacter', { character: '.' }],
    ['foo', 'unknownNameOrVariable', { name: 'foo', variables: 'x' }],
    ['foo(x)', 'unknownFunction', { name: 'foo' }],
    ['sin(x, 2)', 'argumentCount', { name: 'sin', count: 1, got: 2 }],
    [' ', 'emptyExpression', {}],
  ])('name %j as %s with its params, the message unchanged', (source, code, params) => {
    const error = errorOf(() => compileExpression(source, { variables: ['x'] }));
    expect(error.code).toBe(code);
    expect(error.params).toMatchObject(params);
  });
});

describe('|x| as students write absolute value', () => {
  const at = (source: string, x: number) => compileExpression(source, { variables: ['x'] }).evaluate({ x });

  it.each([
    ['|x|', -3, 3],
    ['2|x|', -3, 6],
    ['x|x|', -2, -4],
    ['|x|^2', -3, 9],
    ['|x|+|x-1|', 0, 1],
    ['|x - |x||', -2, 4],
    ['||x||', -2, 2],
    ['|sin(x)|', -Math.PI / 2, 1],
    ['(|x| + 1)|x|', -2, 6],
  ])('%s at x=%d is %d', (source, x, value) => {
    expect(at(source, x)).toBeCloseTo(value, 10);
  });

  it.each([
    ['|x', 0],
    ['x|', 1],
    ['|x|+|x', 4],
  ])('refuses the unmatched bar in %j as syntax, pointing at it and at abs(x)', (source, position) => {
    const error = errorOf(() => compileExpression(source, { variables: ['x'] }));
    expect(error).toMatchObject({
      kind: 'syntax',
      code: 'unexpectedToken',
      position,
      params: { found: '|' },
    });
    expect(error.message).toMatch(/write \|x\| or abs\(x\)/);
  });

  it('keeps the usual order rules around bars: 1/2|x| and sin|x| are refused', () => {
    expect(errorOf(() => at('1/2|x|', 1)).code).toBe('bracketProduct');
    expect(errorOf(() => at('sin|x|', 1)).code).toBe('expectedOpeningBracket');
  });
});

describe('characters typed by slip', () => {
  it.each(['（', '）', '，', 'ω', '²', '#', '【'])(
    'refuses %j as syntax, naming the character',
    (character) => {
      const error = errorOf(() => compileExpression(`sin${character}x`, { variables: ['x'] }));
      expect(error).toMatchObject({ kind: 'syntax', code: 'unexpectedCharacter', params: { character } });
    },
  );

  it('reads π as the constant pi, 2π as a product', () => {
    expect(evaluateExpression('2π')).toBeCloseTo(2 * Math.PI, 12);
    expect(evaluateExpression('-π/2')).toBeCloseTo(-Math.PI / 2, 12);
  });
});

describe('products after a constant or a name, as on a graphing calculator', () => {
  const at = (source: string, x: number) =>
    compileExpression(source, { variables: ['x', 'a'] }).evaluate({ x, a: 3 });

  it.each([
    ['cos(2pi x)', 0.25, Math.cos(Math.PI / 2)],
    ['cos(2πx)', 0.5, -1],
    ['pi x', 2, 2 * Math.PI],
    ['πx', 1, Math.PI],
    ['x pi', 1, Math.PI],
    ['2pi x + 1', 1, 2 * Math.PI + 1],
    ['a x', 2, 6],
    ['x x', 3, 9],
    ['3x', 2, 6],
    ['2(x+1)', 1, 4],
    ['(x+1)(x-1)', 3, 8],
    ['2 sin(x)', Math.PI / 2, 2],
    ['e x', 1, Math.E],
    ['e^(-x)cos(2pi x)', 1, Math.exp(-1)],
    ['e^(-x) x', 2, 2 * Math.exp(-2)],
    ['exp(x)', 1, Math.E],
  ])('%s at x=%d is %d', (source, x, value) => {
    expect(at(source, x)).toBeCloseTo(value, 10);
  });

  it.each([
    ['xpi', 'x*pi'],
    ['pix', 'pi*x'],
    ['ex', 'e*x'],
    ['ax', 'a*x'],
    ['2pix', 'pi*x'],
    ['sinx', 'sin(x)'],
    ['cospix', 'cos(pi*x)'],
  ])('refuses the glued name in %j, saying it meant %s', (source, meant) => {
    const error = errorOf(() => compileExpression(source, { variables: ['x', 'a'] }));
    expect(error).toMatchObject({ kind: 'unsafe', code: 'unknownNameGuess', params: { meant } });
    expect(error.message).toContain(`did you mean ${meant}?`);
  });

  it('still refuses an exponent that a factor runs on from: e^-x cos(x), e^2x', () => {
    expect(errorOf(() => at('e^-x cos(x)', 1)).code).toBe('bracketExponent');
    expect(errorOf(() => at('e^2x', 1)).code).toBe('bracketExponent');
    expect(errorOf(() => at('e^(2)^(x)x', 1)).code).toBe('bracketExponent');
  });
});

describe('LaTeX braces group as brackets', () => {
  const at = (source: string, x: number) => compileExpression(source, { variables: ['x'] }).evaluate({ x });

  it.each([
    ['e^{-x}', 1, Math.exp(-1)],
    ['e^{-x}cos(2pi x)', 1, Math.exp(-1)],
    ['2{x+1}', 1, 4],
    ['x^{2}', 3, 9],
  ])('%s at x=%d is %d', (source, x, value) => {
    expect(at(source, x)).toBeCloseTo(value, 10);
  });

  it('refuses an unclosed or mismatched brace, and braces as a call’s brackets', () => {
    expect(errorOf(() => at('e^{-x', 1)).code).toBe('closingBrace');
    expect(errorOf(() => at('e^{-x)', 1)).code).toBe('closingBrace');
    expect(errorOf(() => at('(x}', 1)).code).toBe('expectedClosingBracket');
    expect(errorOf(() => at('sin{x}', 1)).code).toBe('expectedOpeningBracket');
  });
});

describe('steps, conditions and piecewise functions', () => {
  const at = (source: string, x: number) => compileExpression(source, { variables: ['x'] }).evaluate({ x });

  it.each([
    ['step(x)', -1, 0],
    ['step(x)', 0, 1],
    ['step(x)', 2, 1],
    ['heaviside(x - 1)', 0.5, 0],
    ['step(x)*exp(-x)', 1, Math.exp(-1)],
    ['x < 0', -1, 1],
    ['x < 0', 0, 0],
    ['x >= 0', 0, 1],
    ['x ≤ 1', 1, 1],
    ['x ≥ 1', 0, 0],
    ['0 < x < 1', 0.5, 1],
    ['0 < x < 1', 1.5, 0],
    ['(x > 0)*x', 2, 2],
    ['piecewise(x < 0, 0, exp(-x))', -1, 0],
    ['piecewise(x < 0, 0, exp(-x))', 1, Math.exp(-1)],
    ['piecewise(x < -1, -1, x < 1, x, 1)', 0.5, 0.5],
    ['piecewise(x < -1, -1, x < 1, x, 1)', 3, 1],
    ['min(x, 1) + max(x, 0) + abs(x) + sign(x)', -2, -2 + 0 + 2 - 1],
  ])('%s at x=%d is %d', (source, x, value) => {
    expect(at(source, x)).toBeCloseTo(value, 10);
  });

  it('leaves a piecewise function without an otherwise undrawn where no condition holds', () => {
    expect(at('piecewise(x < 0, 1)', 1)).toBeNaN();
  });

  it('answers the programmer’s ?: with the piecewise form', () => {
    const error = errorOf(() => at('x < 0 ? 0 : exp(-x)', 1));
    expect(error).toMatchObject({ kind: 'unsafe', code: 'conditionalHint', position: 6 });
    expect(error.message).toContain('piecewise(x < 0, 0, x)');
  });

  it.each([
    ['u(x)', 'step(x)'],
    ['H(x)', 'step(x)'],
    ['sgn(x)', 'sign(x)'],
    ['arcsin(x)', 'asin(x)'],
    ['sine(x)', 'sin(x)'],
    ['sqr(x)', 'sqrt(x)'],
    ['if(x < 0, 1, 2)', 'piecewise(x < 0, 0, x)'],
  ])('names the function %j most likely meant: %s', (source, meant) => {
    const error = errorOf(() => at(source, 1));
    expect(error).toMatchObject({ kind: 'unsafe', code: 'unknownFunctionGuess', params: { meant } });
    expect(error.message).toMatch(/^Unknown function ".+" at 1; did you mean /);
  });

  it('lists the functions when an unknown one resembles none', () => {
    const error = errorOf(() => at('frobnicate(x)', 1));
    expect(error).toMatchObject({ kind: 'unsafe', code: 'unknownFunction' });
    expect(error.message).toContain('step, heaviside, piecewise');
  });
});
