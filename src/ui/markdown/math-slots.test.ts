// @vitest-environment jsdom
import katex from 'katex';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { clearFormulaCache, renderMarkdown, renderMarkdownSafe } from './render-markdown';
import { sanitizeHtml } from './sanitize';

function reparsed(html: string): HTMLElement {
  const box = document.createElement('div');
  box.innerHTML = html;
  return box;
}

beforeEach(() => clearFormulaCache());
afterEach(() => vi.restoreAllMocks());

describe('renderMarkdownSafe: formulas filled in from the sanitized formula cache', () => {
  it.each([
    ['inline in a paragraph', 'Sum $\\sum_{k=0}^{n} k^2$ and $x$ twice: $x$.'],
    ['display block', '$$\n\\frac{a}{b}\n$$'],
    ['inline display', 'See $$e^{i\\pi}+1=0$$ here.'],
    ['heading, list, emphasis, link text', '# $a$\n\n- **$b$**\n- [$c$](https://example.com)'],
    ['table cell', '| a | b |\n|---|---|\n| $x$ | $\\sqrt{y}$ |'],
    ['beside raw HTML', '<em>$x$</em> <a href="#t">$y$</a> <div>\n\n$z$\n\n</div>'],
    ['a TeX error', '$\\frac{$ and $\\unknowncommand$'],
  ])('gives the same HTML as sanitizing everything at once: %s', (_name, source) => {
    expect(renderMarkdownSafe(source)).toBe(sanitizeHtml(renderMarkdown(source)));
  });

  it('renders an unchanged formula once while the text around it changes; a changed one afresh', () => {
    const render = vi.spyOn(katex, 'renderToString');
    renderMarkdownSafe('Paragraph with $x^2$ and words');
    renderMarkdownSafe('Paragraph with $x^2$ and words, more');
    const edited = renderMarkdownSafe('Paragraph with $x^2$ and words, more and more');
    expect(render).toHaveBeenCalledTimes(1);
    expect(reparsed(edited).querySelector('annotation')?.textContent).toBe('x^2');
    const changed = renderMarkdownSafe('Paragraph with $x^3$ and words, more and more');
    expect(render).toHaveBeenCalledTimes(2);
    expect(reparsed(changed).querySelector('annotation')?.textContent).toBe('x^3');
  });

  it('puts each formula in its own place, never one source’s output for another', () => {
    const box = reparsed(renderMarkdownSafe('$a$ then $b$\n\n$$c$$\n\n$a$'));
    expect(Array.from(box.querySelectorAll('annotation'), (node) => node.textContent)).toEqual([
      'a',
      'b',
      'c',
      'a',
    ]);
    expect(box.innerHTML).not.toContain('math-slot-');
  });

  it('fills no slot the note wrote itself, even one naming the nonce of this call', () => {
    const values = [new Uint8Array(12).fill(0), new Uint8Array(12).fill(0), new Uint8Array(12).fill(1)];
    vi.spyOn(crypto, 'getRandomValues').mockImplementation(
      <T extends ArrayBufferView | null>(array: T): T => {
        (array as unknown as Uint8Array).set(values.shift() ?? new Uint8Array(12).fill(2));
        return array;
      },
    );
    const forged = `<span class="math-slot-${'00'.repeat(12)}-0"></span>`;
    const box = reparsed(renderMarkdownSafe(`${forged} and $y$`));
    expect(Array.from(box.querySelectorAll('annotation'), (node) => node.textContent)).toEqual(['y']);
    expect(box.querySelector(`[class="math-slot-${'00'.repeat(12)}-0"]`)?.childElementCount).toBe(0);
  });

  it.each([
    ['img onerror beside a formula', '$x$ <img src=x onerror=alert(1)>'],
    ['javascript: \\href in TeX', '$\\href{javascript:alert(1)}{x}$ $\\url{javascript:alert(2)}$'],
    ['formula inside svg script', '<svg><script>$x$ alert(1)</script></svg>'],
    ['formula inside style', '<style>$x$</style> <p onclick="alert(1)">$y$</p>'],
    ['formula in MathML mXSS', '<math><mtext><table><mglyph><style>$x$<img src=x onerror=alert(1)>'],
    ['formula in svg', '<svg><g onload="alert(1)">$x$</g></svg>'],
    ['formula in noscript mXSS', '<noscript><p title="</noscript>$x$<img src=x onerror=alert(1)>">'],
  ])('leaves no active content: %s', (_name, source) => {
    for (let round = 0; round < 2; round += 1) {
      const box = reparsed(renderMarkdownSafe(source));
      expect(box.querySelectorAll('script, style, iframe, object, embed, form, foreignObject')).toHaveLength(
        0,
      );
      for (const element of box.querySelectorAll('*')) {
        for (const attribute of Array.from(element.attributes)) {
          expect(attribute.name).not.toMatch(/^on/i);
          expect(attribute.value).not.toMatch(/^\s*(?:javascript|vbscript):/i);
        }
      }
    }
  });
});
