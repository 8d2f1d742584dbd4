import { unzipSync } from 'fflate';
import mammoth from 'mammoth';
import { describe, expect, it } from 'vitest';
import { documentFromMarkdown } from '../../core/markdown/document-ast';
import type { MermaidStaticPort } from '../static-render';
import {
  FOOTNOTE_HANDOUT as FOOTNOTES,
  FOOTNOTE_LIST_HANDOUT,
  testExportContext,
  testRasterizer,
} from '../test-context';
import { docxExporter } from './docx-exporter';

// A 2×2 red PNG.
const PNG =
  'iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAFklEQVR4nGP4z8DAwMDAxMDAwMDAAAANHQEDasKb6QAAAABJRU5ErkJggg==';

const NOTE = `# 操作系统复习

进程调度 is **important** and *subtle*; see [the docs](https://example.com/docs).

## Policies

- FCFS
- SJF
  - nested

1. first
2. second

| 算法 | 平均等待 |
|:--|--:|
| FCFS | 10 |

![red dot](data:image/png;base64,${PNG})

\`\`\`function-plot
y = x^2
\`\`\`

\`\`\`ts
const x = 1;
\`\`\`
`;

async function toHtml(data: Uint8Array): Promise<string> {
  const result = await mammoth.convertToHtml({ buffer: Buffer.from(data) });
  return result.value;
}

describe('docxExporter', () => {
  it('writes real Word headings, lists, tables, links, code and images that a DOCX reader gets back', async () => {
    const result = await docxExporter.export(documentFromMarkdown(NOTE, '复习'), testExportContext());
    expect(result.warnings).toEqual([
      'DOCX: diagrams and plots are SVG images; Word versions before 2016 show a blank box instead.',
    ]);
    const html = await toHtml(result.data);
    expect(html).toContain('<h1>操作系统复习</h1>');
    expect(html).toContain('<h2>Policies</h2>');
    expect(html).toContain('<strong>important</strong>');
    expect(html).toContain('<em>subtle</em>');
    expect(html).toContain('<a href="https://example.com/docs">the docs</a>');
    expect(html).toMatch(/<ul><li>FCFS<\/li><li>SJF<ul><li>nested<\/li><\/ul><\/li><\/ul>/);
    expect(html).toContain('<ol><li>first</li><li>second</li></ol>');
    expect(html).toMatch(
      /<table><thead><tr><th><p><strong>算法<\/strong><\/p><\/th><th><p><strong>平均等待<\/strong><\/p><\/th><\/tr><\/thead><tbody><tr><td><p>FCFS<\/p><\/td><td><p>10<\/p><\/td><\/tr><\/tbody><\/table>/,
    );
    // The PNG from the note and the plot (with its raster fallback) are both images.
    expect(html.match(/<img /g)?.length).toBe(2);
    expect(html).toContain(`src="data:image/png;base64,${PNG}"`);
    expect(html).toContain('const x = 1;');
  });

  it('embeds diagrams and plots as the PNG the page drew beside their SVG', async () => {
    const mermaid: MermaidStaticPort = {
      render: async () => ({
        svg: '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 160 90"><rect width="160" height="90"/></svg>',
        width: 160,
        height: 90,
        warnings: [],
      }),
    };
    const rasterizer = testRasterizer([40, 90, 160]);
    const result = await docxExporter.export(
      documentFromMarkdown('```mermaid\ngraph TD; A-->B\n```\n\n```function-plot\ny = x^2\n```\n', 'x'),
      { ...testExportContext({}, mermaid), rasterizer },
    );
    expect(result.warnings).toEqual([]);
    expect(rasterizer.calls.map((call) => [call.width, call.scale])).toEqual([
      [160, 2],
      [expect.any(Number), 2],
    ]);
    const media = Object.entries(unzipSync(result.data)).filter(([name]) => name.startsWith('word/media/'));
    const pngs = media.filter(([name]) => name.endsWith('.png')).map(([, data]) => data);
    expect(media.filter(([name]) => name.endsWith('.svg'))).toHaveLength(2);
    // The page's PNGs, not the blank 1×1 fallback: the diagram at 320 px wide, and the plot.
    const widths = pngs.map((data) => new DataView(data.buffer, data.byteOffset).getUint32(16)).sort();
    expect(widths).toHaveLength(2);
    expect(widths).toContain(320);
    expect(Math.min(...widths)).toBeGreaterThan(100);
    const html = await toHtml(result.data);
    expect(html.match(/<img [^>]*src="data:image\/png;base64,/g)).toHaveLength(2);
  });

  it('says under a diagram or plot kept as source why, in the language of the note, as the HTML does', async () => {
    const broken: MermaidStaticPort = {
      render: () =>
        Promise.reject(
          Object.assign(new Error("Parse error on line 2: Expecting 'AMP', 'COLON', got 'EOF'"), {
            code: 'MERMAID_PARSE_FAILED',
          }),
        ),
    };
    const note = '```mermaid\ngraph LR\n  A -->\n```\n\n```function-plot\ny = sin(x\n```\n';
    const chinese = await toHtml(
      (await docxExporter.export(documentFromMarkdown(note, '控制理论'), testExportContext({}, broken))).data,
    );
    expect(chinese).toContain('此图表第 2 行有语法错误：内容不完整，后面还应有内容。');
    expect(chinese).toContain('函数图像无法绘制：末尾缺少“)”。');
    expect(chinese).not.toContain('Expecting');
    const english = await toHtml(
      (await docxExporter.export(documentFromMarkdown(note, 'Control'), testExportContext({}, broken))).data,
    );
    expect(english).toContain('This diagram has a syntax error on line 2: it ends where more was expected.');
    expect(english).toContain('Plot could not be drawn: Expected ")" but found the end of the expression.');
  });

  it('writes formulas as Word equations (Office Math), inline and displayed, with the text around them intact', async () => {
    const result = await docxExporter.export(
      documentFromMarkdown('Energy $E=mc^2$ here.\n\n$$\n\\frac{1}{\\sqrt{2}}\n$$\n\nAfter 之后\n', 'x'),
      testExportContext({ include_title: false }),
    );
    expect(result.warnings).toEqual([]);
    const xml = new TextDecoder().decode(unzipSync(result.data)['word/document.xml']);
    // The inline formula sits inside its paragraph, between the runs around it.
    expect(xml).toMatch(
      /Energy <\/w:t><\/w:r><m:oMath [^>]*>[\s\S]*?<m:sSup>[\s\S]*?<\/m:oMath><w:r>(?:<w:rPr\/>)?<w:t[^>]*> here\.<\/w:t>/,
    );
    // The displayed one is its own equation paragraph, a fraction over a root.
    expect(xml).toMatch(
      /<w:p>(?:<w:pPr\/>)?<m:oMathPara><m:oMath [^>]*><m:f>[\s\S]*<m:rad>[\s\S]*<\/m:oMath><\/m:oMathPara><\/w:p>/,
    );
    expect(xml).not.toContain('Formula (TeX)');
    expect(xml).not.toContain('\\frac');
    const html = await toHtml(result.data);
    expect(html).toContain('Energy');
    expect(html).toContain('here.');
    expect(html).toContain('After 之后');
  });

  it('writes $$…$$ inside a paragraph line as a displayed equation of its own, between the text, as the preview centres it', async () => {
    const result = await docxExporter.export(
      documentFromMarkdown('公式如下 $$\\frac{1}{\\sqrt{2}}$$ 之后\n', 'x'),
      testExportContext({ include_title: false }),
    );
    expect(result.warnings).toEqual([]);
    const xml = new TextDecoder().decode(unzipSync(result.data)['word/document.xml']);
    expect(xml).toMatch(
      /<w:t[^>]*>公式如下<\/w:t><\/w:r><\/w:p><w:p>(?:<w:pPr\/>)?<m:oMathPara><m:oMath [^>]*><m:f>[\s\S]*?<\/m:oMath><\/m:oMathPara><\/w:p><w:p>(?:<w:pPr\/>)?<w:r>(?:<w:rPr\/>)?<w:t[^>]*>之后<\/w:t>/,
    );
  });

  it('writes task list items as Word checkbox controls in their state, with the item text still readable', async () => {
    const result = await docxExporter.export(
      documentFromMarkdown('- [x] 买牛奶 done\n- [ ] call Bob\n  - [X] nested done\n- plain item\n', 'x'),
      testExportContext({ include_title: false }),
    );
    expect(result.warnings).toEqual([]);
    const xml = new TextDecoder().decode(unzipSync(result.data)['word/document.xml']);
    expect(xml).toMatch(
      /<w:document [^>]*xmlns:w14="http:\/\/schemas\.microsoft\.com\/office\/word\/2010\/wordml"/,
    );
    const paragraphs = xml.match(/<w:p>[\s\S]*?<\/w:p>/g) ?? [];
    const state = (text: string): string | undefined => {
      const paragraph = paragraphs.find((candidate) => candidate.includes(text));
      expect(paragraph, text).toBeDefined();
      if (!paragraph?.includes('<w:sdt>')) return undefined;
      // The control: its state, the ticked and empty symbols, and the symbol shown now.
      expect(paragraph).toMatch(
        /<w14:checkbox>[\s\S]*<w14:checkedState w14:val="2612"[\s\S]*<w14:uncheckedState w14:val="2610"/,
      );
      expect(paragraph.indexOf('<w:sdt>')).toBeLessThan(paragraph.indexOf(text));
      const shown = /<w:sdtContent>[\s\S]*?<w:sym [^>]*w:char="(\w+)"/.exec(paragraph)?.[1];
      const value = /<w14:checked w14:val="(\d)"/.exec(paragraph)?.[1];
      expect(shown).toBe(value === '1' ? '2612' : '2610');
      return value;
    };
    expect(state('买牛奶 done')).toBe('1');
    expect(state('call Bob')).toBe('0');
    expect(state('nested done')).toBe('1');
    expect(state('plain item')).toBeUndefined();
    expect(xml).not.toMatch(/[☐☑]/);
    // A text reader gets every item; a DOCX reader also gets the boxes, their state and the list structure.
    const raw = await mammoth.extractRawText({ buffer: Buffer.from(result.data) });
    for (const text of ['买牛奶 done', 'call Bob', 'nested done', 'plain item'])
      expect(raw.value).toContain(text);
    expect(await toHtml(result.data)).toBe(
      '<ul><li><input type="checkbox" checked="checked" /> 买牛奶 done</li>' +
        '<li><input type="checkbox" /> call Bob<ul><li><input type="checkbox" checked="checked" /> nested done</li></ul></li>' +
        '<li>plain item</li></ul>',
    );
  });

  it('highlights with Word’s highlighter, sizes pictures as Obsidian wrote them and titles callouts in the note’s language', async () => {
    const markdown = `先看 ==重点== 再说。\n\n![图|200](data:image/png;base64,${PNG})\n\n![框|120x90](data:image/png;base64,${PNG})\n\n> [!tip]\n> 先复习。\n`;
    const result = await docxExporter.export(documentFromMarkdown(markdown, '提纲'), testExportContext());
    const xml = new TextDecoder().decode(unzipSync(result.data)['word/document.xml']);
    expect(xml).toMatch(/<w:highlight w:val="yellow"\/>(?:(?!<\/w:r>).)*<w:t[^>]*>重点<\/w:t>/s);
    expect(xml).not.toMatch(/<w:highlight[^>]*\/>(?:(?!<\/w:r>).)*<w:t[^>]*>先看/s);
    // 9525 EMU a pixel.
    expect(xml).toContain('cx="1905000" cy="1905000"');
    expect(xml).toContain('cx="1143000" cy="857250"');
    expect(xml).toContain('>提示<');
  });

  it('warns about what it cannot write exactly', async () => {
    const result = await docxExporter.export(
      documentFromMarkdown(
        'Energy $\\frac{1}{$.\n\n![web](https://example.com/a.png)\n\n<div>raw</div>\n',
        'x',
      ),
      testExportContext(),
    );
    expect(result.warnings).toEqual([
      "DOCX: a formula could not be typeset (Unexpected end of input in a macro argument, expected '}' at end of input: \\frac{1}{); it is shown as its TeX source.",
      'DOCX: images that are not stored in the note (links to the web) are shown as their alt text.',
      'DOCX: raw HTML is left out.',
    ]);
    const html = await toHtml(result.data);
    expect(html).toContain('\\frac{1}{');
    expect(html).toContain('[web]');
  });

  it('writes fenced code as a run per token in the code theme (w:color), and plain with `none`', async () => {
    const note = '```python\ndef f():\n    return "hi"\n```\n';
    const documentXml = async (code_theme: string) => {
      const result = await docxExporter.export(
        documentFromMarkdown(note, 'x'),
        testExportContext({ code_theme }),
      );
      return new TextDecoder().decode(unzipSync(result.data)['word/document.xml']);
    };
    const run = (xml: string, text: string) =>
      xml.match(new RegExp(`<w:r>(?:(?!</w:r>).)*<w:t[^>]*>${text}</w:t></w:r>`))?.[0] ?? '';
    const light = await documentXml('github-light');
    expect(run(light, 'def')).toContain('<w:color w:val="D73A49"/>');
    expect(run(light, '&quot;hi&quot;|"hi"')).toContain('<w:color w:val="032F62"/>');
    expect(light).toContain('w:fill="F6F8FA"');
    const dark = await documentXml('github-dark');
    expect(run(dark, 'def')).toContain('<w:color w:val="FF7B72"/>');
    expect(dark).toContain('w:fill="0D1117"');
    const plain = await documentXml('none');
    expect(plain).not.toContain('<w:color');
    expect(plain).toContain('>def f():</w:t>');
  });

  it('fails with EXPORT_UNSUPPORTED_CONTENT when nothing of the note can be written', async () => {
    const run = docxExporter.export(
      documentFromMarkdown(
        '---\ntitle: x\n---\n<div>only</div>\n\n<table><tr><td>raw</td></tr></table>\n',
        'x',
      ),
      testExportContext(),
    );
    await expect(run).rejects.toMatchObject({ code: 'EXPORT_UNSUPPORTED_CONTENT' });
  });

  it('follows the page size, title and front matter options', async () => {
    const note = documentFromMarkdown('---\nauthor: 李雷\n---\n正文。\n', '讲义');
    const documentXml = async (options: Parameters<typeof testExportContext>[0]) =>
      new TextDecoder().decode(
        unzipSync((await docxExporter.export(note, testExportContext(options))).data)['word/document.xml'],
      );
    const letter = await documentXml({ page_size: 'Letter', include_title: false });
    expect(letter).toMatch(/<w:pgSz w:w="12240" w:h="15840"/);
    expect(letter).not.toContain('讲义');
    expect(letter).not.toContain('李雷');
    const a5 = await documentXml({ page_size: 'A5', include_metadata: true });
    expect(a5).toMatch(/<w:pgSz w:w="8391" w:h="11906"/);
    expect(a5).toContain('讲义');
    expect(a5).toContain('李雷');
  });

  it('prints a title the note already opens with once, keeping it as the document title', async () => {
    const title = '操作系统第三讲 总结';
    const files = async (markdown: string) => {
      const zip = unzipSync(
        (await docxExporter.export(documentFromMarkdown(markdown, title), testExportContext())).data,
      );
      const text = (name: string) => new TextDecoder().decode(zip[name]);
      return { body: text('word/document.xml'), core: text('docProps/core.xml') };
    };
    const repeated = await files(`# ${title}\n\n正文。\n`);
    expect(repeated.body.split(title)).toHaveLength(2);
    expect(repeated.body).not.toContain('w:val="Title"');
    expect(repeated.core).toContain(`<dc:title>${title}</dc:title>`);
    const distinct = await files('# 第一节\n\n正文。\n');
    expect(distinct.body).toContain('w:val="Title"');
    expect(distinct.body.split(title)).toHaveLength(2);
  });

  describe('footnotes', () => {
    it('leaves no empty bullet where a list item held only a footnote definition', async () => {
      const result = await docxExporter.export(
        documentFromMarkdown(FOOTNOTE_LIST_HANDOUT, '要点'),
        testExportContext({ include_title: false }),
      );
      const document = new TextDecoder().decode(unzipSync(result.data)['word/document.xml']);
      // One numbered paragraph: the real point; the definitions are Word footnotes.
      expect(document.match(/<w:numPr>/g)).toHaveLength(1);
      expect(document.match(/<w:footnoteReference /g)).toHaveLength(3);
      const html = await toHtml(result.data);
      expect(html).not.toMatch(/<li>\s*<\/li>/);
      expect(html).toContain('<li>真正的要点</li>');
    });

    it('keeps, as a numbered paragraph, a definition in a list that nothing refers to', async () => {
      const result = await docxExporter.export(
        documentFromMarkdown('Text.\n\n- [^lone]: 没有被引用。\n', 'x'),
        testExportContext({ include_title: false }),
      );
      const document = new TextDecoder().decode(unzipSync(result.data)['word/document.xml']);
      expect(document).toContain('没有被引用。');
      // On the bullet's own line, not after an empty bullet.
      expect(document.match(/<w:numPr>/g)).toHaveLength(1);
      expect(await toHtml(result.data)).toMatch(/<li><sup>1<\/sup> 没有被引用。<\/li>/);
    });

    it('writes Word footnotes, numbered by first reference, with their formatting, math and links', async () => {
      const result = await docxExporter.export(
        documentFromMarkdown(FOOTNOTES, '调度'),
        testExportContext({ include_title: false }),
      );
      expect(result.warnings).toEqual([]);
      const files = unzipSync(result.data);
      const document = new TextDecoder().decode(files['word/document.xml']);
      const footnotes = new TextDecoder().decode(files['word/footnotes.xml']);
      const references = [...document.matchAll(/<w:footnoteReference w:id="(\d+)"\/>/g)].map((m) => m[1]);
      // One Word footnote per note referenced; the repeated reference is its number again.
      expect(references).toEqual(['1', '2', '3']);
      expect(document).toMatch(
        /再看 FCFS<\/w:t><\/w:r><w:r><w:rPr><w:vertAlign w:val="superscript"\/><\/w:rPr><w:t xml:space="preserve">1<\/w:t>/,
      );
      expect(document).toContain('。未定义的[^missing]照原样。');
      expect(document).not.toContain('[^1]');
      expect(document).not.toContain('先来先服务');
      const note = (id: number) =>
        new RegExp(`<w:footnote w:id="${id}">(.*?)</w:footnote>`).exec(footnotes)?.[1] ?? '';
      expect(note(1)).toContain('<w:footnoteRef/>');
      expect(note(1)).toContain('先来先服务。');
      expect(note(2)).toContain('Round robin：每个进程轮流使用 ');
      expect(note(2)).toContain('<m:oMath');
      expect(note(2)).toMatch(/<w:b\/>.*公平/);
      expect(note(3)).toMatch(/<w:i\/>.*Modern Operating Systems/);
      expect(note(3)).toMatch(/<w:hyperlink [^>]*r:id="([^"]+)"/);
      const relationships = new TextDecoder().decode(files['word/_rels/footnotes.xml.rels']);
      expect(relationships).toContain('Target="https://example.com/mos"');

      // A DOCX reader sees the references and the notes with their text.
      const html = await toHtml(result.data);
      expect(html).toContain('FCFS<sup><a href="#footnote-1" id="footnote-ref-1">[1]</a></sup> 与时间片轮转');
      expect(html).toMatch(
        /<li id="footnote-3"><p>Tanenbaum, <em>Modern Operating Systems<\/em>, see <a href="https:\/\/example.com\/mos">the book<\/a>\./,
      );
      // Nothing refers to it, so Word has no footnote for it: it stays where it is, numbered.
      expect(html).toContain('<p><sup>4</sup> 没有被引用的脚注。</p>');
    });

    it('numbers named labels in reference order and leaves a note without footnotes without any', async () => {
      const result = await docxExporter.export(
        documentFromMarkdown('See[^note] and[^2].\n\n[^2]: Two.\n[^note]: Named.\n', 'T'),
        testExportContext({ include_title: false }),
      );
      const footnotes = new TextDecoder().decode(unzipSync(result.data)['word/footnotes.xml']);
      expect(footnotes).toMatch(/<w:footnote w:id="1">.*Named\./);
      expect(footnotes).toMatch(/<w:footnote w:id="2">.*Two\./);
      const plain = await docxExporter.export(
        documentFromMarkdown('A [^dangling] one.\n', 'T'),
        testExportContext({ include_title: false }),
      );
      const xml = new TextDecoder().decode(unzipSync(plain.data)['word/document.xml']);
      expect(xml).not.toContain('w:footnoteReference');
      expect(xml).toContain('A [^dangling] one.');
    });
  });
});
