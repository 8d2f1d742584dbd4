// @vitest-environment jsdom
import { beforeEach, describe, expect, it, vi } from 'vitest';

const mermaidMock = vi.hoisted(() => ({
  // Called when `import('mermaid')` is resolved, i.e. when the chunk would load.
  loaded: vi.fn(),
  initialize: vi.fn(),
  render: vi.fn<(id: string, source: string) => Promise<{ svg: string }>>(),
}));

function mermaidModuleFactory() {
  mermaidMock.loaded();
  return { default: { initialize: mermaidMock.initialize, render: mermaidMock.render } };
}

const HOSTILE_SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" id="ID" onload="alert(1)" viewBox="0 0 100 50">' +
  '<script>alert(1)</script><foreignObject><div onclick="alert(2)">x</div></foreignObject>' +
  '<g class="node"><rect width="10" height="10" onmouseover="alert(3)"></rect><text>A</text></g></svg>';

// A fresh module graph per test: the lazy import, its cache and the render cache
// all start empty. vi.doMock (vi.mock without hoisting) re-registers the factory,
// so it runs again on each test's first `import('mermaid')` and `loaded` counts
// real chunk loads whatever order the tests run in.
async function loadModule() {
  vi.resetModules();
  vi.doMock('mermaid', mermaidModuleFactory);
  return import('./mermaid-blocks');
}

async function renderedPreview(markdown: string): Promise<HTMLElement> {
  const { renderMarkdownSafe } = await import('./render-markdown');
  const container = document.createElement('div');
  container.innerHTML = renderMarkdownSafe(markdown);
  document.body.replaceChildren(container);
  return container;
}

beforeEach(() => {
  mermaidMock.loaded.mockClear();
  mermaidMock.initialize.mockClear();
  mermaidMock.render.mockReset();
  mermaidMock.render.mockImplementation(async (id) => ({ svg: HOSTILE_SVG.replace('ID', id) }));
});

describe('renderMermaidBlocks', () => {
  it('never imports mermaid when the note has no diagrams', async () => {
    const { renderMermaidBlocks } = await loadModule();
    const container = await renderedPreview('# No diagrams\n\n```js\nlet x;\n```');
    await expect(renderMermaidBlocks(container)).resolves.toEqual({ rendered: 0, failed: 0 });
    expect(mermaidMock.loaded).not.toHaveBeenCalled();
    expect(mermaidMock.render).not.toHaveBeenCalled();
  });

  it('renders diagrams with strict settings and strips script, handlers and foreignObject', async () => {
    const { renderMermaidBlocks } = await loadModule();
    const container = await renderedPreview('```mermaid\ngraph TD\n  A-->B\n```');
    await expect(renderMermaidBlocks(container, { theme: 'dark' })).resolves.toEqual({
      rendered: 1,
      failed: 0,
    });

    expect(mermaidMock.loaded).toHaveBeenCalledTimes(1);
    expect(mermaidMock.initialize).toHaveBeenCalledWith(
      expect.objectContaining({
        startOnLoad: false,
        securityLevel: 'strict',
        htmlLabels: false,
        theme: 'dark',
      }),
    );
    expect(mermaidMock.render).toHaveBeenCalledWith(
      expect.stringMatching(/^notes-mermaid-\d+$/),
      'graph TD\n  A-->B\n',
    );

    const block = container.querySelector('.mermaid-block');
    const svg = block?.querySelector('.mermaid-diagram > svg');
    expect(svg?.getAttribute('viewBox')).toBe('0 0 100 50');
    expect(svg?.querySelector('rect')).not.toBeNull();
    expect(block?.querySelectorAll('script, foreignObject')).toHaveLength(0);
    expect(block?.innerHTML).not.toMatch(/onload|onclick|onmouseover|alert/);
    expect(block?.querySelector('pre')).toBeNull();
  });

  it('gives each diagram a unique id', async () => {
    const { renderMermaidBlocks } = await loadModule();
    const container = await renderedPreview('```mermaid\ngraph TD\nA\n```\n\n```mermaid\ngraph TD\nB\n```');
    await expect(renderMermaidBlocks(container)).resolves.toEqual({ rendered: 2, failed: 0 });
    const ids = mermaidMock.render.mock.calls.map(([id]) => id);
    expect(new Set(ids).size).toBe(2);
  });

  /** What Mermaid's flowchart parser throws for `graph TD` / `  A[Start] -->` (a two-line block). */
  function flowchartParseError(): Error {
    const error = new Error(
      'Parse error on line 4:\n... TD  A[Start] -->\n--------------------^\n' +
        "Expecting 'AMP', 'COLON', 'PIPE', 'NODE_STRING', got 'EOF'",
    );
    return Object.assign(error, {
      hash: { token: 'EOF', line: 3, loc: { first_line: 2, last_line: 4, first_column: 10, last_column: 0 } },
    });
  }

  it('keeps the source and says in words which line has the error; the token list folds away', async () => {
    mermaidMock.render.mockRejectedValue(flowchartParseError());
    const { renderMermaidBlocks, MERMAID_PARSE_FAILED } = await loadModule();
    const container = await renderedPreview('```mermaid\ngraph TD\n  A[Start] -->\n```');
    await expect(renderMermaidBlocks(container)).resolves.toEqual({ rendered: 0, failed: 1 });

    const block = container.querySelector('.mermaid-block');
    expect(block?.querySelector('pre')?.textContent).toBe('graph TD\n  A[Start] -->\n');
    const error = block?.querySelector('.mermaid-error');
    expect(error?.getAttribute('data-error-code')).toBe(MERMAID_PARSE_FAILED);
    expect(error?.querySelector('.mermaid-error-title')?.textContent).toBe(
      'This diagram has a syntax error on line 2: it ends where more was expected.',
    );
    const details = error?.querySelector('details');
    expect(details?.open).toBe(false);
    expect(details?.querySelector('summary')?.textContent).toBe('Details');
    expect(details?.querySelector('.mermaid-error-detail')?.textContent).toBe(
      "Expecting 'AMP', 'COLON', 'PIPE', 'NODE_STRING', got 'EOF'",
    );
  });

  it('heads a failed diagram with the words it is given', async () => {
    mermaidMock.render.mockRejectedValue(flowchartParseError());
    const { renderMermaidBlocks } = await loadModule();
    const container = await renderedPreview('```mermaid\ngraph TD\n  A[Start] -->\n```');
    await renderMermaidBlocks(container, {
      labels: {
        endsEarlyAt: (line) => `此图表第 ${line} 行有语法错误：内容不完整。`,
        details: '详细信息',
      },
    });
    const error = container.querySelector('.mermaid-error');
    expect(error?.querySelector('.mermaid-error-title')?.textContent).toBe(
      '此图表第 2 行有语法错误：内容不完整。',
    );
    expect(error?.querySelector('summary')?.textContent).toBe('详细信息');
  });

  it('says there is a syntax error, without a line, when the parser gave none', async () => {
    mermaidMock.render.mockRejectedValue(new Error('Parsing failed: unexpected character.'));
    const { renderMermaidBlocks } = await loadModule();
    const container = await renderedPreview('```mermaid\npie\n  x\n```');
    await renderMermaidBlocks(container, { labels: { syntax: '此图表有语法错误。' } });
    const error = container.querySelector('.mermaid-error');
    expect(error?.querySelector('.mermaid-error-title')?.textContent).toBe('此图表有语法错误。');
    expect(error?.querySelector('.mermaid-error-detail')?.textContent).toBe(
      'Parsing failed: unexpected character.',
    );
  });

  it('draws a diagram in a keyboard-scrollable area that knows the diagram’s own width', async () => {
    mermaidMock.render.mockResolvedValue({ svg: '<svg viewBox="0 0 1234.5 80"><rect/></svg>' });
    const { renderMermaidBlocks } = await loadModule();
    const container = await renderedPreview('```mermaid\ngraph LR\n  A-->B\n```');
    await renderMermaidBlocks(container, { labels: { diagram: '图表' } });
    const area = container.querySelector<HTMLElement>('.mermaid-diagram');
    expect(area?.tabIndex).toBe(0);
    expect(area?.getAttribute('role')).toBe('group');
    expect(area?.getAttribute('aria-label')).toBe('图表');
    expect(area?.style.getPropertyValue('--diagram-width')).toBe('1235px');
  });

  it.each([
    [
      'a line past the block, when Mermaid gives no location',
      new Error("Parse error on line 9:\nA -->\n-----^\nExpecting 'NODE_STRING', got 'EOF'"),
      "Parse error on line 2: Expecting 'NODE_STRING', got 'EOF'",
    ],
    [
      'a lexical error',
      new Error('Lexical error on line 2. Unrecognized text.\ngraph TD A --> B ]]\n-----------------^'),
      'Parse error on line 2: Unrecognized text.',
    ],
    [
      'a message of another parser, on one line',
      new Error('Parsing failed: Lexer error on line 2, column 7: unexpected character.\nMore.'),
      'Parsing failed: Lexer error on line 2, column 7: unexpected character. More.',
    ],
  ])('keeps %s within the block', async (_, error, message) => {
    const { parseFailure } = await loadModule();
    expect(parseFailure(error, 'graph TD\n  A -->\n').message).toBe(message);
  });

  it('reports a failed chunk load as a render failure without throwing, and retries next time', async () => {
    const { renderMermaidBlocks, MERMAID_RENDER_FAILED } = await loadModule();
    mermaidMock.loaded.mockImplementationOnce(() => {
      throw new Error('Failed to fetch dynamically imported module');
    });
    const container = await renderedPreview('```mermaid\ngraph TD\nA\n```');
    await expect(renderMermaidBlocks(container)).resolves.toEqual({ rendered: 0, failed: 1 });
    expect(container.querySelector('.mermaid-error')?.getAttribute('data-error-code')).toBe(
      MERMAID_RENDER_FAILED,
    );

    const again = await renderedPreview('```mermaid\ngraph TD\nA\n```');
    await expect(renderMermaidBlocks(again)).resolves.toEqual({ rendered: 1, failed: 0 });
  });

  it('does not re-render an unchanged diagram while the note is edited', async () => {
    const { renderMermaidBlocks } = await loadModule();
    const diagram = '```mermaid\ngraph TD\n  A-->B\n```';
    await renderMermaidBlocks(await renderedPreview(`# v1\n\n${diagram}`));
    const second = await renderedPreview(`# v2, more text\n\n${diagram}`);
    await expect(renderMermaidBlocks(second)).resolves.toEqual({ rendered: 1, failed: 0 });
    expect(mermaidMock.render).toHaveBeenCalledTimes(1);
    expect(second.querySelector('.mermaid-diagram svg')).not.toBeNull();

    // A different theme is a different picture.
    await renderMermaidBlocks(await renderedPreview(diagram), { theme: 'dark' });
    expect(mermaidMock.render).toHaveBeenCalledTimes(2);
  });

  it('skips placeholders it already processed', async () => {
    const { renderMermaidBlocks } = await loadModule();
    const container = await renderedPreview('```mermaid\ngraph TD\nA\n```');
    await renderMermaidBlocks(container);
    await expect(renderMermaidBlocks(container)).resolves.toEqual({ rendered: 0, failed: 0 });
  });

  it('stops without touching the DOM once aborted', async () => {
    const { renderMermaidBlocks } = await loadModule();
    const container = await renderedPreview('```mermaid\ngraph TD\nA\n```');
    const controller = new AbortController();
    mermaidMock.render.mockImplementation(async (id) => {
      controller.abort();
      return { svg: `<svg id="${id}"></svg>` };
    });
    await expect(renderMermaidBlocks(container, { signal: controller.signal })).resolves.toEqual({
      rendered: 0,
      failed: 0,
    });
    expect(container.querySelector('.mermaid-block pre')).not.toBeNull();
  });

  it('draws each new diagram in a task of its own: a keystroke between two aborts the rest', async () => {
    const { renderMermaidBlocks } = await loadModule();
    const container = await renderedPreview(
      ['```mermaid\ngraph TD\n  A-->B\n```', '```mermaid\ngraph TD\n  C-->D\n```'].join('\n\n'),
    );
    const controller = new AbortController();
    // Queued before the pass starts: it runs in the first gap the pass leaves, as a key event would.
    setTimeout(() => controller.abort(), 0);
    const pass = renderMermaidBlocks(container, { signal: controller.signal });
    await expect(pass).resolves.toEqual({ rendered: 0, failed: 0 });
    expect(mermaidMock.render).not.toHaveBeenCalled();
    expect(container.querySelectorAll('.mermaid-block pre')).toHaveLength(2);
  });

  it('reports an SVG the sanitizer empties as unsafe', async () => {
    mermaidMock.render.mockResolvedValue({ svg: '<script>alert(1)</script>' });
    const { renderMermaidBlocks, MERMAID_SVG_UNSAFE } = await loadModule();
    const container = await renderedPreview('```mermaid\ngraph TD\nA\n```');
    await expect(renderMermaidBlocks(container)).resolves.toEqual({ rendered: 0, failed: 1 });
    expect(container.querySelector('.mermaid-error')?.getAttribute('data-error-code')).toBe(
      MERMAID_SVG_UNSAFE,
    );
  });
});
