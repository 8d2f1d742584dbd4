import { describe, expect, it } from 'vitest';
import { texToOmml } from './tex-omml';
import { childElements, isElement, parseXml, TEXT_NODE } from './xml-dom';

describe('texToOmml', () => {
  it('writes TeX as Office Math: fractions, scripts and roots as Word structures', () => {
    const omml = texToOmml('\\frac{a}{b} + \\sqrt{x^2}', false);
    expect(omml).toMatch(
      /^<m:oMath xmlns:m="http:\/\/schemas.openxmlformats.org\/officeDocument\/2006\/math"/,
    );
    expect(omml).toContain('<m:f>');
    expect(omml).toContain('<m:rad>');
    expect(omml).toContain('<m:sSup>');
    // The TeX source annotation is not written as text.
    expect(omml).not.toContain('\\frac');
  });

  it('throws for TeX KaTeX cannot parse', () => {
    expect(() => texToOmml('\\frac{1}{', true)).toThrow(/KaTeX parse error/);
  });

  /** The text of the formula's runs, in order. */
  function runs(omml: string): string[] {
    return [...omml.matchAll(/<m:t\b[^>]*>([^<]*)<\/m:t>|<m:t\/>/g)].map((match) => match[1] ?? '');
  }

  it('keeps TeX spacing as Unicode spaces Word shows (\\quad between two equations)', () => {
    const text = runs(texToOmml('\\dot{x} = Ax + Bu, \\quad y = Cx', true)).join('');
    expect(text).toMatch(/Bu,\u2003y=Cx$/);
    expect(runs(texToOmml('a \\qquad b', false)).join('')).toBe('a\u2003\u2003b');
    expect(runs(texToOmml('a \\, b', false)).join('')).toBe('a\u2009b');
    expect(runs(texToOmml('a \\: b', false)).join('')).toBe('a\u205fb');
    expect(runs(texToOmml('a \\; b', false)).join('')).toBe('a\u2004b');
    expect(runs(texToOmml('a ~ b', false)).join('')).toBe('a\u00a0b');
    expect(runs(texToOmml('a \\enspace b', false)).join('')).toBe('a\u2002b');
  });

  it('writes double-struck, script and fraktur letters as the mathematical letters Word shows (ℝ, ℱ, 𝔤)', () => {
    /** Each run's style and text, in order. */
    const styled = (omml: string) =>
      [
        ...omml.matchAll(
          /<m:r>(?:<m:rPr>(?:<m:sty m:val="(\w+)"\/>)?<\/m:rPr>)?(?:<w:rPr>.*?<\/w:rPr>)?<m:t\b[^>]*>([^<]*)<\/m:t><\/m:r>/g,
        ),
      ].map(([, style, text]) => `${style ?? ''}:${text}`);
    expect(styled(texToOmml('\\mathbb{R}', false))).toEqual(['p:ℝ']);
    expect(styled(texToOmml('\\mathcal{F}', false))).toEqual(['p:ℱ']);
    expect(styled(texToOmml('\\mathfrak{g}', false))).toEqual(['p:\u{1d524}']);
    expect(styled(texToOmml('\\mathbb{E}[X] \\in \\mathbb{C}', false))).toEqual([
      'p:\u{1d53c}',
      ':[X]∈',
      'p:ℂ',
    ]);
    expect(styled(texToOmml('\\mathcal{A} \\subset \\mathscr{L}', false))).toEqual([
      'p:\u{1d49c}',
      ':⊂',
      'p:ℒ',
    ]);
    expect(styled(texToOmml('\\mathbb{1} + \\mathsf{A} + \\mathtt{t}', false))).toEqual([
      'p:\u{1d7d9}',
      ':+',
      'p:\u{1d5a0}',
      ':+',
      'p:\u{1d69d}',
    ]);
    // Bold is Office Math's own run style (bold upright), as Word writes it.
    expect(styled(texToOmml('\\mathbf{x} = \\mathbf{A}y', false))).toEqual(['b:x', ':=', 'b:A', ':y']);
    // Scripts keep the letter they sit on.
    const power = texToOmml('\\mathbb{R}^n', true);
    expect(power).toMatch(/<m:sSup>[\s\S]*<m:e><m:r><m:rPr><m:sty m:val="p"\/><\/m:rPr><m:t[^>]*>ℝ<\/m:t>/);
    expect(schemaProblems(parseXml(power))).toEqual([]);
  });

  it('leaves out a negative space and keeps no placeholder characters', () => {
    const omml = texToOmml('a \\! b + \\text{if } x', false);
    expect(runs(omml).join('')).not.toMatch(/[\uE000-\uF8FF]/);
    expect(runs(omml).join('')).toMatch(/^ab/);
  });
});

/** The parts of Office Math the schema (ECMA-376 shared-math) constrains and mathml2omml got wrong. */
function schemaProblems(parentNode: Node, parent = 'document'): string[] {
  const problems: string[] = [];
  const names = (node: Element) =>
    Array.from(node.childNodes).map((child) => (isElement(child) ? child.nodeName : '#text'));
  for (const node of Array.from(parentNode.childNodes)) {
    if (node.nodeType === TEXT_NODE) {
      if (parent !== 'm:t') problems.push(`text "${node.textContent}" directly in <${parent}>`);
      continue;
    }
    if (!isElement(node)) continue;
    if (node.nodeName === 'm:nary') {
      const parts = names(node).filter((name) => name !== 'm:naryPr');
      if (parts.join() !== 'm:sub,m:sup,m:e') problems.push(`m:nary holds ${names(node).join()}`);
    }
    if (node.nodeName === 'm:r') {
      const order = names(node).filter((name) => name === 'm:rPr' || name === 'w:rPr');
      if (order.join() === 'w:rPr,m:rPr') problems.push('w:rPr before m:rPr');
    }
    if (node.nodeName === 'm:rPr') {
      const children = names(node);
      if (children.includes('m:nor') && children.includes('m:sty')) problems.push('m:nor with m:sty');
    }
    if (node.nodeName === 'm:sty' && !['p', 'b', 'i', 'bi'].includes(node.getAttribute('m:val') ?? ''))
      problems.push(`m:sty ${node.getAttribute('m:val')}`);
    problems.push(...schemaProblems(node, node.nodeName));
  }
  return problems;
}

function elements(tree: Document, name: string): Element[] {
  return Array.from(tree.getElementsByTagName(name));
}

/** The text a reader sees in a part, without spacing and function-application marks. */
function visible(node: Node | undefined): string {
  return (node?.textContent ?? '').replace(/[\s\u2061\u2009\u205f\u2004\u2003\u00a0]/g, '');
}

function part(nary: Element | undefined, name: string): Element | undefined {
  return nary && childElements(nary).find((child) => child.nodeName === name);
}

describe('texToOmml: big operators (∫ ∑ ∏ ∮) keep their whole body in <m:e>', () => {
  const cases: ReadonlyArray<{
    tex: string;
    operator: string;
    sub: string;
    sup: string;
    body: string;
    after?: string;
  }> = [
    {
      tex: String.raw`a_k = \frac{1}{T}\int_T x(t) e^{-jk\omega_0 t}\,dt`,
      operator: '∫',
      sub: 'T',
      sup: '',
      body: 'x(t)e−jkω0tdt',
    },
    { tex: String.raw`\int_T x(t)\,dt`, operator: '∫', sub: 'T', sup: '', body: 'x(t)dt' },
    {
      tex: String.raw`y(t) = \int_{-\infty}^{\infty}x(\tau)h(t-\tau)\,d\tau`,
      operator: '∫',
      sub: '−∞',
      sup: '∞',
      body: 'x(τ)h(t−τ)dτ',
    },
    { tex: String.raw`\sum_k a_k x(t)`, operator: '∑', sub: 'k', sup: '', body: 'akx(t)' },
    {
      tex: String.raw`\sum_{k=1}^{n} k^2 = \frac{n(n+1)(2n+1)}{6}`,
      operator: '∑',
      sub: 'k=1',
      sup: 'n',
      body: 'k2',
      after: '=n(n+1)(2n+1)6',
    },
    { tex: String.raw`\int x\,dx`, operator: '∫', sub: '', sup: '', body: 'xdx' },
    { tex: String.raw`\sum a_n`, operator: '∑', sub: '', sup: '', body: 'an' },
    { tex: String.raw`\oint_C f(z)\,dz = 0`, operator: '∮', sub: 'C', sup: '', body: 'f(z)dz', after: '=0' },
    { tex: String.raw`\prod_{k=1}^{n} (1 + x_k)`, operator: '∏', sub: 'k=1', sup: 'n', body: '(1+xk)' },
    { tex: String.raw`\iint_D f(x,y)\,dA`, operator: '∬', sub: 'D', sup: '', body: 'f(x,y)dA' },
    {
      tex: String.raw`\left(\sum_k a_k\right)^2`,
      operator: '∑',
      sub: 'k',
      sup: '',
      body: 'ak',
      after: ')2',
    },
    {
      tex: String.raw`\sum_k a_k, \quad \int_0^1 g`,
      operator: '∑',
      sub: 'k',
      sup: '',
      body: 'ak',
      after: ',01g',
    },
  ];

  for (const { tex, operator, sub, sup, body, after } of cases)
    for (const display of [true, false])
      it(`${tex} (${display ? 'display' : 'inline'})`, () => {
        const omml = texToOmml(tex, display);
        const tree = parseXml(omml);
        expect(schemaProblems(tree)).toEqual([]);
        const nary = elements(tree, 'm:nary')[0];
        const character = part(part(nary, 'm:naryPr'), 'm:chr')?.getAttribute('m:val');
        expect(character).toBe(operator);
        expect(visible(part(nary, 'm:sub'))).toBe(sub);
        expect(visible(part(nary, 'm:sup'))).toBe(sup);
        expect(visible(part(nary, 'm:e'))).toBe(body);
        // An empty limit is hidden, so Word draws no empty box for it.
        const hidden = (name: string) => part(part(nary, 'm:naryPr'), name)?.getAttribute('m:val');
        if (sub === '') expect(hidden('m:subHide')).toBe('on');
        if (sup === '') expect(hidden('m:supHide')).toBe('on');
        if (after !== undefined) expect(visible(tree.documentElement).endsWith(after)).toBe(true);
      });

  it('gives nested operators each their own body (a double integral)', () => {
    const tree = parseXml(texToOmml(String.raw`\int_0^1\int_0^1 f(x,y)\,dx\,dy = 1`, true));
    expect(schemaProblems(tree)).toEqual([]);
    const [outer, inner] = elements(tree, 'm:nary');
    expect(inner).toBeDefined();
    expect(part(outer, 'm:e')?.firstChild).toBe(inner);
    expect(visible(part(inner, 'm:e'))).toBe('f(x,y)dxdy');
    expect(visible(tree.documentElement).endsWith('=1')).toBe(true);
  });

  it('keeps every letter of a limit, and of formulas with no big operator', () => {
    for (const [tex, text] of [
      [String.raw`\lim_{x\to 0} \frac{\sin x}{x} = 1`, 'limx→0sinxx=1'],
      [String.raw`\lim_{n\to\infty} \left(1 + \frac{1}{n}\right)^n = e`, 'limn→∞(1+1n)n=e'],
      [String.raw`A \cap B \cup C`, 'A∩B∪C'],
    ] as const) {
      const tree = parseXml(texToOmml(tex, true));
      expect(schemaProblems(tree)).toEqual([]);
      expect(visible(tree.documentElement)).toBe(text);
      expect(elements(tree, 'm:nary')).toEqual([]);
    }
  });

  it('writes well-formed XML for <, > and & in a formula', () => {
    const omml = texToOmml(String.raw`a < b > c \& \text{x < y}`, false);
    const tree = parseXml(omml);
    expect(schemaProblems(tree)).toEqual([]);
    expect(visible(tree.documentElement)).toBe('a<b>c&x<y');
  });

  it('writes upright letters (\\mathrm{d}, ∞) with a style Word reads', () => {
    const tree = parseXml(texToOmml(String.raw`\int_0^\infty e^{-x}\,\mathrm{d}x`, true));
    expect(schemaProblems(tree)).toEqual([]);
    expect(visible(part(elements(tree, 'm:nary')[0], 'm:e'))).toBe('e−xdx');
  });
});
