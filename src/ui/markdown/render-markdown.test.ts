// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { decodeMermaidSource } from './code-fence-plugin';
import { renderMarkdown } from './render-markdown';

function parse(html: string): Document {
  return new DOMParser().parseFromString(html, 'text/html');
}

function render(source: string): Document {
  return parse(renderMarkdown(source));
}

describe('renderMarkdown: CommonMark and GFM basics', () => {
  it('renders headings, lists, tables and code', () => {
    const doc = render(
      [
        '# Title',
        '## Sub',
        '',
        '- one',
        '- two',
        '',
        '1. first',
        '',
        '| a | b |',
        '|---|--:|',
        '| 1 | 2 |',
        '',
        '    indented code',
        '',
        'Some `inline` code.',
      ].join('\n'),
    );
    expect(doc.querySelector('h1')?.textContent).toBe('Title');
    expect(doc.querySelector('h2')?.textContent).toBe('Sub');
    expect(doc.querySelectorAll('ul > li')).toHaveLength(2);
    expect(doc.querySelector('ol > li')?.textContent).toBe('first');
    expect(doc.querySelectorAll('table th')).toHaveLength(2);
    expect(doc.querySelector('table td:last-child')?.getAttribute('style')).toBe('text-align:right');
    expect(doc.querySelector('pre > code')?.textContent).toBe('indented code\n');
    expect(doc.querySelector('p > code')?.textContent).toBe('inline');
  });

  it('linkifies bare URLs and keeps typographer off', () => {
    const html = renderMarkdown('See https://example.com -- "quoted"');
    expect(html).toContain('<a href="https://example.com">https://example.com</a>');
    expect(html).toContain('-- &quot;quoted&quot;');
  });

  it('does not render front matter', () => {
    const doc = render('---\ntitle: Secret plan\ntags: [a]\n---\n# Heading');
    expect(doc.body.textContent).not.toContain('Secret plan');
    expect(doc.querySelector('hr')).toBeNull();
    expect(doc.querySelector('h1')?.textContent).toBe('Heading');
  });

  it('treats an unclosed front matter fence as a thematic break', () => {
    expect(render('---\nnot metadata').querySelector('hr')).not.toBeNull();
  });
});

describe('renderMarkdown: data-source-line', () => {
  it('marks each block with its 0-based start line', () => {
    const doc = render('# Title\n\nA paragraph\nthat wraps.\n\n- item one\n- item two');
    expect(doc.querySelector('h1')?.getAttribute('data-source-line')).toBe('0');
    expect(doc.querySelector('p')?.getAttribute('data-source-line')).toBe('2');
    expect(doc.querySelector('ul')?.getAttribute('data-source-line')).toBe('5');
    expect(Array.from(doc.querySelectorAll('li'), (li) => li.getAttribute('data-source-line'))).toEqual([
      '5',
      '6',
    ]);
  });

  it('counts lines from the top of the note when front matter is present', () => {
    const doc = render('---\na: 1\n---\n\nText\n\n```js\nx\n```\n\n$$\nx\n$$');
    expect(doc.querySelector('p')?.getAttribute('data-source-line')).toBe('4');
    expect(doc.querySelector('pre')?.getAttribute('data-source-line')).toBe('6');
    expect(doc.querySelector('.math-block')?.getAttribute('data-source-line')).toBe('10');
  });
});

describe('renderMarkdown: math', () => {
  it('renders inline math with KaTeX (HTML and MathML)', () => {
    const doc = render('Energy $E=mc^2$ here.');
    const katex = doc.querySelector('p .katex');
    expect(katex).not.toBeNull();
    expect(katex?.querySelector('math annotation')?.textContent).toBe('E=mc^2');
    expect(katex?.querySelector('.katex-html')).not.toBeNull();
  });

  it('renders block math in display mode', () => {
    const doc = render('$$\n\\frac{a}{b}\n$$');
    expect(doc.querySelector('div.math-block > .katex-display .katex')).not.toBeNull();
    expect(doc.querySelector('annotation')?.textContent).toBe('\\frac{a}{b}');
  });

  it('renders single-line $$...$$ blocks and inline display math', () => {
    expect(render('$$x^2$$').querySelector('.math-block .katex-display')).not.toBeNull();
    expect(render('Inline $$y$$ display').querySelector('p .katex-display')).not.toBeNull();
  });

  it.each([
    ['$5 and $6', '$5 and $6'],
    ['costs $5', 'costs $5'],
    ['$ spaced $', '$ spaced $'],
    ['from $x$5 on', 'from $x$5 on'],
    ['escaped \\$x$', 'escaped $x$'],
    ['unclosed $$ here', 'unclosed $$ here'],
  ])('keeps %j as text', (source, text) => {
    const doc = render(source);
    expect(doc.querySelector('.katex')).toBeNull();
    expect(doc.body.textContent?.trim()).toBe(text);
  });

  it('shows KaTeX error markup for invalid TeX instead of throwing', () => {
    const doc = render('Bad $\\notacommand{x}$ and\n\n$$\n\\frac{\n$$');
    expect(doc.querySelectorAll('.katex-error').length).toBeGreaterThanOrEqual(1);
  });

  it('does not treat a half-typed $$ block as math', () => {
    const doc = render('$$\n\\sum\n\nrest of the note');
    expect(doc.querySelector('.katex')).toBeNull();
    expect(doc.body.textContent).toContain('rest of the note');
  });
});

describe('renderMarkdown: code fences', () => {
  it('highlights registered languages with hljs spans', () => {
    const doc = render('```ts\nconst answer: number = 42;\n```');
    const code = doc.querySelector('pre > code');
    expect(code?.className).toBe('hljs language-ts');
    expect(code?.querySelector('span.hljs-keyword')?.textContent).toBe('const');
    expect(code?.textContent).toBe('const answer: number = 42;\n');
  });

  it.each([
    ['js', 'const x = 1;'],
    ['python', 'def f(): return 1'],
    ['json', '{"a": 1}'],
    ['bash', 'echo "$HOME"'],
    ['html', '<div class="a"></div>'],
    ['css', '.a { color: red; }'],
    ['sql', 'SELECT * FROM notes;'],
    ['markdown', '# Heading'],
    ['java', 'public class A {}'],
    ['c', 'int main(void) { return 0; }'],
    ['cpp', 'std::vector<int> v;'],
    ['go', 'func main() {}'],
    ['rust', 'fn main() {}'],
    ['yaml', 'key: value'],
  ])('registers %s', (language, sample) => {
    const doc = render(`\`\`\`${language}\n${sample}\n\`\`\``);
    expect(doc.querySelector('pre > code')?.innerHTML).toMatch(/class="hljs-/);
  });

  it('escapes unknown languages as plain text', () => {
    const html = renderMarkdown('```cobol\n<script>alert(1)</script>\n```');
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).not.toContain('hljs-');
  });
});

describe('renderMarkdown: mermaid fences', () => {
  it('emits a placeholder with the escaped source and a <pre> fallback', () => {
    const source = 'graph TD\n  A["<b>x</b>"] --> B\n';
    const html = renderMarkdown(`Intro\n\n\`\`\`mermaid\n${source}\`\`\``);
    expect(html).not.toContain('<b>x</b>');
    expect(html).not.toContain('<svg');
    const block = parse(html).querySelector('div.mermaid-block');
    expect(block?.getAttribute('data-source-line')).toBe('2');
    expect(decodeMermaidSource(block?.getAttribute('data-mermaid-source') ?? '')).toBe(source);
    expect(block?.querySelector('pre')?.textContent).toBe(source);
  });
});

describe('renderMarkdown: wikilinks', () => {
  it('renders [[target]] and [[target|label]]', () => {
    const doc = render('See [[My Page]] and [[notes/a b|the label]].');
    const links = Array.from(doc.querySelectorAll('a.wikilink'));
    expect(links.map((link) => link.getAttribute('data-wikilink'))).toEqual(['My Page', 'notes/a b']);
    expect(links.map((link) => link.getAttribute('href'))).toEqual([
      '#/wiki/My%20Page',
      '#/wiki/notes%2Fa%20b',
    ]);
    expect(links.map((link) => link.textContent)).toEqual(['My Page', 'the label']);
  });

  it('links [[Note#Heading]] to the note, keeping the heading apart and in the address', () => {
    const doc = render('See [[Index#Index]], [[Plan#^b1|the block]] and [[#Here]].');
    const links = Array.from(doc.querySelectorAll('a.wikilink'));
    expect(links.map((link) => link.getAttribute('data-wikilink'))).toEqual(['Index', 'Plan', '']);
    expect(links.map((link) => link.getAttribute('data-wikilink-fragment'))).toEqual([
      'Index',
      '^b1',
      'Here',
    ]);
    // The address holds the whole target as one segment, as the router reads `#/wiki/Note%23Heading`.
    expect(links.map((link) => link.getAttribute('href'))).toEqual([
      '#/wiki/Index%23Index',
      '#/wiki/Plan%23%5Eb1',
      null,
    ]);
    // Unlabelled, they read as Obsidian shows them: "Note > Heading", or the heading alone.
    expect(links.map((link) => link.textContent)).toEqual(['Index > Index', 'the block', 'Here']);
  });

  it('keeps a title with a # in it whole in the address, read back as the link is', () => {
    const link = render('[[C# tips#Generics]]').querySelector('a.wikilink');
    expect(link?.getAttribute('href')).toBe('#/wiki/C%23%20tips%23Generics');
    expect(link?.getAttribute('data-wikilink')).toBe('C# tips');
  });

  it('escapes targets and labels', () => {
    const html = renderMarkdown('[[a"><img src=x onerror=alert(1)>|<b>x</b>]]');
    expect(html).not.toContain('<img');
    expect(html).not.toContain('<b>');
  });

  it('leaves empty or unclosed brackets alone', () => {
    expect(render('[[]] and [[open').querySelector('a')).toBeNull();
  });
});

describe('renderMarkdown: task lists', () => {
  it('renders disabled checkboxes', () => {
    const doc = render('- [ ] todo\n- [x] done\n- plain');
    const boxes = Array.from(
      doc.querySelectorAll<HTMLInputElement>('li.task-list-item > input[type="checkbox"]'),
    );
    expect(boxes).toHaveLength(2);
    expect(boxes.every((box) => box.disabled)).toBe(true);
    expect(boxes.map((box) => box.checked)).toEqual([false, true]);
    expect(doc.querySelector('ul')?.className).toBe('contains-task-list');
    expect(Array.from(doc.querySelectorAll('li'), (li) => li.textContent?.trim())).toEqual([
      'todo',
      'done',
      'plain',
    ]);
  });

  it('ignores brackets that are not at the start of an item', () => {
    expect(render('- see [ ] here\n\n[ ] not a list').querySelector('input')).toBeNull();
  });
});

describe('renderMarkdown: footnotes', () => {
  it('numbers references by first use and links them to their definitions and back', () => {
    const doc = render(
      'Paging[^p] and segmentation[^1].\n\n[^1]: 教材 p. 42\n[^p]: Paging splits memory\n  into **frames**.\n',
    );
    const references = [...doc.querySelectorAll('sup.footnote-ref a')];
    expect(references.map((link) => [link.getAttribute('data-footnote-ref'), link.textContent])).toEqual([
      ['p', '1'],
      ['1', '2'],
    ]);
    const definitions = [...doc.querySelectorAll('div.footnote')];
    expect(definitions.map((definition) => definition.getAttribute('data-footnote'))).toEqual(['1', 'p']);
    expect(definitions[0]?.querySelector('a.footnote-number')?.textContent).toBe('2');
    expect(definitions[0]?.textContent).toContain('教材 p. 42');
    expect(definitions[1]?.querySelector('strong')?.textContent).toBe('frames');
  });

  it('keeps a one-word definition (markdown-it would take it for a link definition and show nothing)', () => {
    const doc = render('See[^1].\n\n[^1]: Tanenbaum\n');
    expect(doc.querySelector('div.footnote')?.textContent).toContain('Tanenbaum');
    expect(doc.querySelector('sup.footnote-ref')?.textContent).toBe('1');
  });

  it('leaves a reference without a definition, and one in code, as written', () => {
    const doc = render('Missing[^x] and `[^1]`.\n\n[^1]: defined\n');
    expect(doc.querySelector('p')?.textContent).toBe('Missing[^x] and [^1].');
    expect(doc.querySelectorAll('sup.footnote-ref')).toHaveLength(0);
  });
});
