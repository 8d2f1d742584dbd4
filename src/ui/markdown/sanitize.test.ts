// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderMarkdownSafe } from './render-markdown';
import { createSanitizer, loadRemoteImage, sanitizeHtml } from './sanitize';

const sanitizer = createSanitizer(window);

function parse(html: string): Document {
  return new DOMParser().parseFromString(html, 'text/html');
}

/** Every attribute value in the output, for "no javascript: anywhere" checks. */
function attributeValues(doc: Document): string[] {
  return Array.from(doc.querySelectorAll('*')).flatMap((element) =>
    Array.from(element.attributes, (attribute) => `${attribute.name}=${attribute.value}`),
  );
}

function expectNoActiveContent(html: string): void {
  const doc = parse(html);
  expect(doc.querySelectorAll('script, style, iframe, object, embed, form, foreignObject')).toHaveLength(0);
  for (const value of attributeValues(doc)) {
    expect(value).not.toMatch(/^on/i);
    expect(value).not.toMatch(/=\s*(?:javascript|vbscript):/i);
    expect(value).not.toMatch(/=\s*data:text/i);
  }
}

describe('XSS suite (renderMarkdownSafe)', () => {
  it.each([
    ['img onerror', '<img src=x onerror=alert(1)>'],
    ['markdown javascript: link', '[x](javascript:alert(1))'],
    ['mixed-case javascript: href', '<a href="JaVaScRiPt:alert(1)">x</a>'],
    ['entity-encoded javascript: href', '<a href="&#106;avascript&#58;alert(1)">x</a>'],
    ['javascript: with embedded whitespace', '<a href=" java\tscript:alert(1)">x</a>'],
    ['vbscript: href', '<a href="vbscript:msgbox(1)">x</a>'],
    ['svg script', '<svg><script>alert(1)</script></svg>'],
    ['svg onload', '<svg onload="alert(1)"><circle r="1"/></svg>'],
    ['iframe', '<iframe src="https://evil.example"></iframe>'],
    ['iframe srcdoc', '<iframe srcdoc="<script>alert(1)</script>"></iframe>'],
    ['style element', '<style>body { display: none }</style>'],
    ['form', '<form action="https://evil.example"><input name="password"><button>go</button></form>'],
    ['object and embed', '<object data="x.swf"></object><embed src="x.swf">'],
    ['mXSS via MathML', '<math><mtext><table><mglyph><style><img src=x onerror=alert(1)>'],
    ['mXSS via noscript', '<noscript><p title="</noscript><img src=x onerror=alert(1)>">'],
    ['markdown data:text/html link', '[x](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)'],
    ['raw data:text/html link', '<a href="data:text/html,<script>alert(1)</script>">x</a>'],
    ['svg data: image', '<img src="data:image/svg+xml,<svg onload=alert(1)>">'],
    ['event handler on allowed tag', '<p onclick="alert(1)" onmouseover="alert(1)">hi</p>'],
  ])('neutralizes %s', (_name, source) => {
    const html = renderMarkdownSafe(source);
    expectNoActiveContent(html);
    expect(html).not.toMatch(/onerror|onload|onclick/i);
    expect(html).not.toMatch(/href="\s*(?:javascript|vbscript|data):/i);
  });

  it('leaves no <img onerror> after the MathML mXSS payload, even when reparsed', () => {
    const once = renderMarkdownSafe('<math><mtext><table><mglyph><style><img src=x onerror=alert(1)>');
    const container = document.createElement('div');
    container.innerHTML = once;
    expect(container.querySelector('[onerror]')).toBeNull();
    expect(container.innerHTML).not.toContain('onerror');
  });

  it('adds rel="noopener noreferrer" and target="_blank" to external links', () => {
    const link = parse(renderMarkdownSafe('<a href="https://example.com">x</a>')).querySelector('a');
    expect(link?.getAttribute('href')).toBe('https://example.com');
    expect(link?.getAttribute('rel')).toBe('noopener noreferrer');
    expect(link?.getAttribute('target')).toBe('_blank');
  });

  it('adds rel but no target to in-app links, and drops a note-supplied target', () => {
    const doc = parse(renderMarkdownSafe('[[Page]] [rel](./other.md) <a href="#x" target="_top">t</a>'));
    for (const link of Array.from(doc.querySelectorAll('a'))) {
      expect(link.getAttribute('rel')).toBe('noopener noreferrer');
      expect(link.hasAttribute('target')).toBe(false);
    }
  });

  it('keeps raster data: images; a remote image becomes a placeholder naming its host', () => {
    const png = 'data:image/png;base64,iVBORw0KGgo=';
    const doc = parse(
      renderMarkdownSafe(
        `![a](${png}) <img src="https://example.com/a.webp" alt="b"> ![x](//evil.test/?q=secret)`,
      ),
    );
    expect(Array.from(doc.querySelectorAll('img'), (img) => img.getAttribute('src'))).toEqual([png]);
    const placeholders = Array.from(doc.querySelectorAll('.remote-image'));
    expect(placeholders.map((node) => node.textContent)).toEqual(['🖼 example.com', '🖼 evil.test']);
    expect(placeholders[0]!.getAttribute('data-remote-src')).toBe('https://example.com/a.webp');
    loadRemoteImage(placeholders[0]!);
    expect(doc.querySelector('img[src="https://example.com/a.webp"]')?.getAttribute('alt')).toBe('b');
  });
});

describe('what the sanitizer keeps', () => {
  it('keeps KaTeX HTML and MathML, including semantics and annotation', () => {
    const doc = parse(renderMarkdownSafe('$\\sqrt{x^2}$'));
    expect(doc.querySelector('.katex .katex-html [style]')).not.toBeNull();
    expect(doc.querySelector('.katex-mathml math semantics annotation')?.textContent).toBe('\\sqrt{x^2}');
    expect(doc.querySelector('.katex svg path')).not.toBeNull();
  });

  it('keeps highlight.js spans and the preview data attributes', () => {
    const html = renderMarkdownSafe('# T\n\n```js\nlet x = 1;\n```\n\n```mermaid\nA-->B\n```\n\n[[Page]]');
    const doc = parse(html);
    expect(doc.querySelector('code.hljs span.hljs-keyword')).not.toBeNull();
    expect(doc.querySelector('h1')?.getAttribute('data-source-line')).toBe('0');
    expect(doc.querySelector('.mermaid-block')?.getAttribute('data-mermaid-source')).toBe('A--%3EB%0A');
    expect(doc.querySelector('a.wikilink')?.getAttribute('data-wikilink')).toBe('Page');
  });

  it('keeps task-list checkboxes, disabled, and removes every other input', () => {
    const doc = parse(
      renderMarkdownSafe(
        '- [x] done\n\n<input type="checkbox"> <input type="text" value="x"> <input type="password">',
      ),
    );
    const inputs = Array.from(doc.querySelectorAll('input'));
    expect(inputs.map((input) => input.getAttribute('type'))).toEqual(['checkbox', 'checkbox']);
    expect(inputs.every((input) => input.hasAttribute('disabled'))).toBe(true);
  });

  it('keeps a stored picture as its attachment id, without a src to load', () => {
    const doc = parse(
      renderMarkdownSafe(
        '![板书 board](attachment:attachment_01ab) ![bad](attachment:../x) <img data-note-image="forged" src="x.png">',
      ),
    );
    const images = Array.from(doc.querySelectorAll('img'));
    expect(images.map((image) => image.getAttribute('data-note-image'))).toEqual([
      'attachment_01ab',
      null,
      null,
    ]);
    expect(images[0]?.hasAttribute('src')).toBe(false);
    expect(images[0]?.getAttribute('alt')).toBe('板书 board');
    // Not an id: the link stays what it was, and DOMPurify drops the unknown scheme.
    expect(images[1]?.getAttribute('src')).toBeNull();
    expect(images[2]?.getAttribute('src')).toBe('x.png');
  });

  it('drops data attributes the preview does not emit', () => {
    const doc = parse(sanitizer.sanitizeHtml('<div data-action="delete-all" data-source-line="3">x</div>'));
    expect(doc.querySelector('div')?.hasAttribute('data-action')).toBe(false);
    expect(doc.querySelector('div')?.getAttribute('data-source-line')).toBe('3');
  });

  it('drops inline styles that fetch or overlay the app', () => {
    const doc = parse(
      sanitizer.sanitizeHtml(
        '<p style="color:red">a</p><p style="background:url(https://t.example/p)">b</p><div style="position: fixed; inset: 0">c</div>',
      ),
    );
    expect(Array.from(doc.querySelectorAll('p, div'), (element) => element.getAttribute('style'))).toEqual([
      'color:red',
      null,
      null,
    ]);
  });
});

describe('sanitizeSvg', () => {
  it('removes scripts, handlers, foreignObject and external CSS but keeps the drawing', () => {
    const dirty =
      '<svg xmlns="http://www.w3.org/2000/svg" id="m1" onload="alert(1)" viewBox="0 0 10 10">' +
      '<style>@import url(https://evil.example/x.css); #m1 .a { fill: url(https://t.example/p); stroke: url(#grad); }</style>' +
      '<script>alert(1)</script><foreignObject><div>html</div></foreignObject>' +
      '<a href="javascript:alert(1)"><text class="a" x="1" y="1">label</text></a>' +
      '<image href="data:image/svg+xml,<svg onload=alert(1)>"/><path d="M0 0L1 1" marker-end="url(#arrow)"/></svg>';
    const clean = sanitizer.sanitizeSvg(dirty);
    const doc = parse(clean);
    expect(doc.querySelector('svg')?.getAttribute('viewBox')).toBe('0 0 10 10');
    expect(doc.querySelector('text')?.textContent).toBe('label');
    expect(doc.querySelector('path')?.getAttribute('marker-end')).toBe('url(#arrow)');
    expect(doc.querySelectorAll('script, foreignObject')).toHaveLength(0);
    expect(clean).not.toMatch(/onload|javascript:|data:image\/svg|@import|https:\/\//i);
    expect(doc.querySelector('style')?.textContent).toContain('url(#grad)');
  });
});

describe('default sanitizeHtml', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('uses the page window', () => {
    expect(sanitizeHtml('<b onclick="x()">ok</b>')).toBe('<b>ok</b>');
  });

  it('refuses to run without a window rather than return unsanitized HTML', () => {
    vi.stubGlobal('window', undefined);
    expect(() => sanitizeHtml('<b>x</b>')).toThrow(/window/);
  });
});
