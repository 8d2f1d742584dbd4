import { describe, expect, it } from 'vitest';
import { documentFromMarkdown } from '../../core/markdown/document-ast';
import { ExportError } from '../exporter';
import { FOOTNOTE_HANDOUT as FOOTNOTES, FOOTNOTE_LIST_HANDOUT, testExportContext } from '../test-context';
import { htmlExporter } from './html-exporter';

const NOTE = `---
author: 李雷
---
# 操作系统复习

进程调度 uses $O(n \\log n)$ time.

$$
\\sum_{i=1}^n i = \\frac{n(n+1)}{2}
$$

| 算法 | 平均等待 |
|:--|--:|
| FCFS | 10 |

\`\`\`function-plot
y = sin(x) | label: sine
\`\`\`

<img src="x" onerror="alert(1)"><script>alert(2)</script><a href="javascript:alert(3)">bad</a>
[ok](https://example.com) and [[Other]].
`;

async function exportHtml(markdown: string, ...args: Parameters<typeof testExportContext>) {
  const result = await htmlExporter.export(
    documentFromMarkdown(markdown, '操作系统复习'),
    testExportContext(...args),
  );
  return { html: new TextDecoder().decode(result.data), warnings: result.warnings };
}

const cleanSvg =
  '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10"/></svg>';

describe('htmlExporter', () => {
  it('writes one self-contained, sanitized page with MathML, the table, the plot and the Chinese text', async () => {
    const { html, warnings } = await exportHtml(NOTE);
    expect(warnings).toEqual([]);
    expect(html).toMatch(/^<!doctype html>\n<html lang="zh-CN">/);
    expect(html).toContain('<title>操作系统复习</title>');
    // The note opens with its title as a heading: that heading is printed, the title not again.
    expect(html.match(/<h1[^>]*>操作系统复习<\/h1>/g)).toHaveLength(1);
    expect(html).toContain('进程调度 uses <span class="katex"><math');
    expect(html).toContain('<annotation encoding="application/x-tex">O(n \\log n)</annotation>');
    expect(html).toMatch(/<div class="math-block">(?:<span[^>]*>)*<math[^>]*display="block"/);
    expect(html).toContain('<th style="text-align:left">算法</th>');
    expect(html).toContain('<td style="text-align:right">10</td>');
    expect(html).toMatch(/<figure class="function-plot"><svg xmlns="http:\/\/www.w3.org\/2000\/svg"/);
    expect(html).toContain('<a href="https://example.com" rel="noopener noreferrer">ok</a>');
    expect(html).toContain('<span class="wikilink" title="Other">Other</span>');
    // The note's raw HTML lost everything that could run.
    expect(html).not.toMatch(/<script|onerror|javascript:/i);
    // Nothing is fetched: no external stylesheet, script or font.
    expect(html).not.toMatch(/<link|@import|src="http/i);
    expect(html).not.toContain('李雷');
  });

  it('marks highlights, draws pictures at the size Obsidian wrote and titles untitled callouts in the note’s language', async () => {
    const png = 'data:image/png;base64,iVBORw0KGgo=';
    const { html } = await exportHtml(
      `先看 ==重点 \`code\`== 再说。\n\n![图|200](${png}) ![框|120x90](${png})\n\n> [!tip]\n> 先复习。\n\n> [!recipe]\n> 步骤\n`,
    );
    expect(html).toContain('先看 <mark>重点 </mark><mark><code>code</code></mark> 再说。');
    expect(html).toMatch(/<img src="data:[^"]*" alt="图" width="200" \/>/);
    expect(html).toMatch(
      /<img src="data:[^"]*" alt="框" width="120" height="90" style="aspect-ratio:\s*120 \/ 90;?" \/>/,
    );
    expect(html).toContain('<strong>提示</strong>');
    expect(html).toContain('<strong>Recipe</strong>');
    expect(html).toMatch(/mark\{background:var\(--color-highlight,var\(--color-warning-soft,#fff4d6\)\)/);
  });

  it('writes $$…$$ inside a paragraph line as display MathML, a centred block as in the preview', async () => {
    const { html, warnings } = await exportHtml('公式如下 $$E=mc^2$$ 之后\n', { include_title: false });
    expect(warnings).toEqual([]);
    expect(html).toMatch(/<p>公式如下 (?:<span[^>]*>)*<math[^>]*display="block"/);
    expect(html).toContain('之后</p>');
  });

  it('adds metadata, leaves out the title and follows the dark theme when asked', async () => {
    const { html } = await exportHtml(NOTE, {
      include_title: false,
      include_metadata: true,
      theme_id: 'dark',
    });
    expect(html).not.toContain('<h1 class="title">');
    expect(html).toContain('<dl class="metadata"><dt>author</dt><dd>李雷</dd></dl>');
    expect(html).toContain('background:#111827');
  });

  it("embeds the resolved theme's stylesheet after the base one, unable to close its element", async () => {
    const context = {
      ...testExportContext({ theme_id: 'ink' }),
      theme: {
        theme_id: 'ink',
        is_dark: true,
        css: ':root{--color-bg:#0b0c10}\n.x{content:"</style><script>alert(1)</script>"}',
      },
    };
    const result = await htmlExporter.export(documentFromMarkdown('# Ink', 'Ink'), context);
    const html = new TextDecoder().decode(result.data);
    expect(html).toContain('background:#111827');
    expect(html.indexOf(':root{--color-bg:#0b0c10}')).toBeGreaterThan(html.indexOf('background:#111827'));
    expect(html.match(/<\/style>/gi)).toHaveLength(1);
    // The one closing tag is the exporter's own: the theme's text stays style text.
    expect(html).toMatch(/<\/script>"}<\/style>\n<\/head>/);
    expect(html).toContain('<article class="markdown-preview">');
  });

  it('inlines the page-rendered Mermaid SVG and refuses one that carries script', async () => {
    const source = '```mermaid\ngraph TD; A-->B\n```\n';
    const good = await exportHtml(
      source,
      {},
      { render: async () => ({ svg: cleanSvg, width: 10, height: 10, warnings: [] }) },
    );
    expect(good.html).toContain(`<figure class="mermaid">${cleanSvg}</figure>`);

    for (const payload of [
      '<svg><script>alert(1)</script></svg>',
      '<svg onload="alert(1)"></svg>',
      '<svg><a href="javascript:alert(1)"><text>x</text></a></svg>',
      '<svg><foreignObject><div>x</div></foreignObject></svg>',
    ]) {
      const bad = await exportHtml(
        source,
        {},
        { render: async () => ({ svg: payload, width: 1, height: 1, warnings: [] }) },
      );
      expect(bad.html).not.toContain(payload);
      expect(bad.html).toContain('<pre><code>graph TD; A--&gt;B\n</code></pre>');
      expect(bad.warnings).toEqual([
        expect.stringMatching(/^MERMAID_SVG_UNSAFE: Diagram \(line 1\) kept as source/),
      ]);
    }
  });

  it('keeps a broken plot as source with a located warning', async () => {
    const { html, warnings } = await exportHtml('text\n\n```function-plot\ny = x\ny = constructor\n```\n');
    expect(html).toContain('<pre><code>y = x\ny = constructor\n</code></pre>');
    expect(html).toContain('data-error-code="FUNCTION_PLOT_EXPRESSION_UNSAFE"');
    expect(warnings).toEqual([
      expect.stringMatching(
        /^FUNCTION_PLOT_EXPRESSION_UNSAFE: Function plot \(line 5, column 5\) kept as source/,
      ),
    ]);
  });

  it('says why a plot was not drawn in the document’s language, Chinese for a Chinese note', async () => {
    const chinese = await exportHtml('控制笔记\n\n```function-plot\ny = sin(x\n```\n');
    expect(chinese.html).toContain(
      '<p class="render-error" data-error-code="FUNCTION_PLOT_PARSE_FAILED">函数图像无法绘制：末尾缺少“)”。</p>',
    );
    expect(chinese.html).not.toContain('Expected ")"');
    const result = await htmlExporter.export(
      documentFromMarkdown('Control notes\n\n```function-plot\ny = sin(x\n```\n', 'Control'),
      testExportContext(),
    );
    const english = new TextDecoder().decode(result.data);
    expect(english).toContain('<html lang="en">');
    expect(english).toContain('Plot could not be drawn: Expected ")" but found the end of the expression.');
    // A Chinese title makes the page Chinese, and its messages with it.
    const titled = await exportHtml('Control notes\n\n```function-plot\ny = sin(x\n```\n');
    expect(titled.html).toContain('<html lang="zh-CN">');
    expect(titled.html).toContain('函数图像无法绘制：末尾缺少“)”。');
  });

  it('fails with EXPORT_RENDER_FAILED when diagrams cannot be drawn at all', async () => {
    const run = exportHtml('```mermaid\ngraph TD; A-->B\n```\n');
    await expect(run).rejects.toBeInstanceOf(ExportError);
    await expect(run).rejects.toMatchObject({ code: 'EXPORT_RENDER_FAILED' });
  });

  it('colours fenced code in the code theme, inline, and `none` keeps it plain', async () => {
    const note = 'x\n\n```python\ndef f():\n    return "<hi>"\n```\n\n```brainfuck\n+[-]\n```\n';
    const { html: light } = await exportHtml(note);
    expect(light).toContain('<span style="color:#d73a49">def</span>');
    expect(light).toContain('<span style="color:#032f62">&quot;&lt;hi&gt;&quot;</span>');
    // As light as the page: the page's own code background stays.
    expect(light).toContain('<pre class="code-theme-github-light"><code class="language-python">');
    // A language without a grammar keeps its text uncoloured.
    expect(light).toContain('<code class="language-brainfuck">+[-]\n</code></pre>');
    // Dark code on a light page brings its own background, or it would not read.
    const { html: dark } = await exportHtml(note, { code_theme: 'github-dark' });
    expect(dark).toContain('<span style="color:#ff7b72">def</span>');
    expect(dark).toContain('<pre class="code-theme-github-dark" style="background:#0d1117;color:#c9d1d9">');
    expect(dark).toContain('style="color:inherit;background:none">+[-]\n</code></pre>');
    // ...and light code on a dark page likewise.
    const { html: lightOnDark } = await exportHtml(note, { theme_id: 'dark' });
    expect(lightOnDark).toContain('style="background:#f6f8fa;color:#24292e"');
    const { html: darkOnDark } = await exportHtml(note, { theme_id: 'dark', code_theme: 'github-dark' });
    expect(darkOnDark).toContain('<pre class="code-theme-github-dark"><code class="language-python">');
    const { html: plain } = await exportHtml(note, { code_theme: 'none' });
    expect(plain).toContain(
      '<pre><code class="language-python">def f():\n    return "&lt;hi&gt;"\n</code></pre>',
    );
    expect(plain).not.toContain('#d73a49');
  });

  it('keeps a fence that tries to close the code and inject markup as text', async () => {
    const { html } = await exportHtml('```python\n"</span></code></pre><script>alert(1)</script>"\n```\n');
    expect(html).not.toMatch(/<script/i);
    expect(html).toContain('&lt;/span&gt;&lt;/code&gt;&lt;/pre&gt;&lt;script&gt;');
  });

  it('stops when cancelled', async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(
      exportHtml('```function-plot\ny = x\n```\n', {}, undefined, controller.signal),
    ).rejects.toThrow();
  });

  it('prints a title the note already opens with once, and the page keeps it as its title', async () => {
    const title = 'Process Scheduling 总结';
    const render = async (markdown: string) =>
      new TextDecoder().decode(
        (await htmlExporter.export(documentFromMarkdown(markdown, title), testExportContext())).data,
      );
    const repeated = await render('#  process   **scheduling** 总结\n\n正文。\n');
    expect(repeated).toContain(`<title>${title}</title>`);
    expect(repeated).not.toContain('<h1 class="title">');
    expect(repeated.match(/<h1[^>]*>/g)).toHaveLength(1);
    const distinct = await render('# 第一节\n\n正文。\n');
    expect(distinct).toContain(`<h1 class="title">${title}</h1>`);
  });

  it('sets the page size for printing, as the PDF and DOCX do', async () => {
    expect((await exportHtml('x', { page_size: 'Letter' })).html).toContain('@page{size:letter}');
    expect((await exportHtml('x', { page_size: 'A5' })).html).toContain('@page{size:A5}');
  });

  describe('footnotes', () => {
    it('leaves no empty bullet where a list item held only a footnote definition', async () => {
      const { html } = await exportHtml(FOOTNOTE_LIST_HANDOUT, { include_title: false });
      const [body = '', section = ''] = html.split('<section class="footnotes">');
      expect(body).not.toMatch(/<li>\s*<\/li>/);
      expect(body.match(/<ul>/g)).toHaveLength(1);
      expect(body).toContain('<ul>\n<li>真正的要点</li>\n</ul>');
      expect(body).toMatch(/<p>参考：<\/p>\n$/);
      expect(section.match(/<li id="fn-/g)).toHaveLength(3);
      expect(section).toContain('混在要点里的脚注。');
    });

    const reference = (number: number, id: string) =>
      new RegExp(`<sup class="footnote-ref"><a href="#fn-${number}" id="${id}"[^>]*>${number}</a></sup>`);

    it('sets references as superscript numbers in order of first reference, linking to the notes at the end', async () => {
      const { html, warnings } = await exportHtml(FOOTNOTES, { include_title: false });
      expect(warnings).toEqual([]);
      const [body = '', section = ''] = html.split('<section class="footnotes">');
      expect(body).toMatch(reference(1, 'fnref-1'));
      expect(body).toMatch(reference(2, 'fnref-2'));
      expect(body).toMatch(reference(3, 'fnref-3'));
      // A second reference reuses the number, with an anchor of its own to come back to.
      expect(body).toMatch(reference(1, 'fnref-1-2'));
      // A reference to a label nothing defines stays as typed.
      expect(body).toContain('未定义的[^missing]照原样。');
      // The definitions are not left where they were written, nor printed as typed.
      expect(html).not.toContain('[^1]');
      expect(html).not.toContain('[^fcfs]');
      expect(body).not.toContain('先来先服务');

      const items = [...section.matchAll(/<li id="fn-(\d+)"><p>(.*?)<\/p><\/li>/g)].map((m) => [m[1], m[2]]);
      expect(items.map(([number]) => number)).toEqual(['1', '2', '3', '4']);
      expect(items[0]?.[1]).toMatch(
        /^先来先服务。 <a href="#fnref-1" class="footnote-back"[^>]*>↩\uFE0E<\/a> <a href="#fnref-1-2" class="footnote-back"[^>]*>↩\uFE0E<sup>2<\/sup><\/a>$/,
      );
      expect(items[1]?.[1]).toMatch(/^Round robin：每个进程轮流使用 <span class="katex"><math/);
      expect(items[1]?.[1]).toContain('<strong>公平</strong>');
      expect(items[2]?.[1]).toMatch(
        /^Tanenbaum, <em>Modern Operating Systems<\/em>, see <a href="https:\/\/example.com\/mos"[^>]*>the book<\/a>\./,
      );
      expect(items[2]?.[1]).toMatch(/<a href="#fnref-3" class="footnote-back"/);
      // Defined but never referenced: listed last, with nothing to go back to.
      expect(items[3]?.[1]).toBe('没有被引用的脚注。');
    });

    it('numbers named and numbered labels alike and writes no section for a note without footnotes', async () => {
      const { html } = await exportHtml('See[^note] and[^2].\n\n[^2]: Two.\n[^note]: Named.\n');
      expect(html).toMatch(reference(1, 'fnref-1'));
      expect(html).toMatch(/<li id="fn-1"><p>Named\./);
      expect(html).toMatch(/<li id="fn-2"><p>Two\./);
      const { html: none } = await exportHtml('Plain text, a [^dangling] one.\n');
      expect(none).not.toContain('class="footnotes"');
      expect(none).toContain('a [^dangling] one.');
    });
  });
});
