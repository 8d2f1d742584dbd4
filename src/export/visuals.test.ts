import { describe, expect, it } from 'vitest';
import type { DocumentNode } from '../contracts/exports';
import { documentFromMarkdown } from '../core/markdown/document-ast';
import type { MermaidStaticPort } from './static-render';
import { testExportContext, testRasterizer } from './test-context';
import { exportLanguage, withFailureNotes, withVisualFailureNotes, type VisualOutcome } from './visuals';

function texts(node: DocumentNode): string[] {
  return node.type === 'paragraph'
    ? [node.children.map((child) => child.text ?? '').join('')]
    : node.children.flatMap(texts);
}

const BROKEN_PAGE: MermaidStaticPort = {
  render: () =>
    Promise.reject(
      Object.assign(new Error("Parse error on line 2: Expecting 'AMP', 'COLON', got 'EOF'"), {
        code: 'MERMAID_PARSE_FAILED',
      }),
    ),
};

describe('exportLanguage', () => {
  it('is Chinese when the title or the text has Chinese characters, else English', () => {
    expect(exportLanguage(documentFromMarkdown('State space', 'Lecture 3'))).toBe('en');
    expect(exportLanguage(documentFromMarkdown('State space', '控制理论'))).toBe('zh-CN');
    expect(exportLanguage(documentFromMarkdown('状态空间', 'Lecture 3'))).toBe('zh-CN');
  });
});

describe('withFailureNotes', () => {
  it('says under each failed diagram or plot why, in the language given, without the parser tokens', () => {
    const document = documentFromMarkdown(
      'Intro\n\n```mermaid\ngraph LR\n  A -->\n```\n\n- item\n\n  ```function-plot\n  y = sin(x\n  ```\n',
      'Broken',
    );
    const [, mermaid, list] = document.root.children as [DocumentNode, DocumentNode, DocumentNode];
    const plot = list.children[0]?.children[1] as DocumentNode;
    const visuals = new Map<string, VisualOutcome>([
      [
        mermaid.node_id,
        {
          ok: false,
          code: 'MERMAID_PARSE_FAILED',
          message: "Parse error on line 2: Expecting 'AMP', got 'EOF'",
        },
      ],
      [
        plot.node_id,
        {
          ok: false,
          code: 'FUNCTION_PLOT_PARSE_FAILED',
          message: 'Expected ")" but found the end of the expression.',
        },
      ],
    ]);

    const zh = withFailureNotes(document.root, visuals, 'zh-CN');
    expect(zh.children.map((node) => node.type)).toEqual(['paragraph', 'mermaid', 'paragraph', 'list']);
    expect(texts(zh)).toEqual([
      'Intro',
      '此图表第 2 行有语法错误：内容不完整，后面还应有内容。',
      'item',
      '函数图像无法绘制：末尾缺少“)”。',
    ]);
    expect(texts(withFailureNotes(document.root, visuals, 'en'))).toEqual([
      'Intro',
      'This diagram has a syntax error on line 2: it ends where more was expected.',
      'item',
      'Plot could not be drawn: Expected ")" but found the end of the expression.',
    ]);
    // The document itself is left as it was.
    expect(document.root.children).toHaveLength(3);
  });

  it('leaves a document whose diagrams were drawn as it is', () => {
    const document = documentFromMarkdown('```function-plot\ny = x\n```\n', 'Fine');
    const node = document.root.children[0] as DocumentNode;
    const drawn = new Map<string, VisualOutcome>([
      [
        node.node_id,
        {
          ok: true,
          result: { mimeType: 'image/svg+xml', content: '<svg/>', width: 1, height: 1, warnings: [] },
        },
      ],
    ]);
    expect(withFailureNotes(document.root, drawn, 'en')).toEqual(document.root);
  });
});

describe('withVisualFailureNotes', () => {
  const NOTE = '```mermaid\ngraph LR\n  A -->\n```\n\n```function-plot\ny = sin(x\n```\n';

  it('asks the page about diagrams only where a page draws them', async () => {
    const document = documentFromMarkdown(NOTE, '控制理论');
    const withPage = await withVisualFailureNotes(document, {
      ...testExportContext({}, BROKEN_PAGE),
      rasterizer: testRasterizer(),
    });
    expect(texts(withPage.root)).toEqual([
      '此图表第 2 行有语法错误：内容不完整，后面还应有内容。',
      '函数图像无法绘制：末尾缺少“)”。',
    ]);
    const withoutPage = await withVisualFailureNotes(document, testExportContext({}, BROKEN_PAGE));
    expect(texts(withoutPage.root)).toEqual(['函数图像无法绘制：末尾缺少“)”。']);
  });
});
