import { describe, expect, it } from 'vitest';
import type { DocumentNode } from '../../contracts/exports';
import { documentFromMarkdown, parseDocumentAst, plainText, walkDocument } from './document-ast';
import { footnoteNumbers } from './syntax';

function types(root: DocumentNode): string[] {
  const seen: string[] = [];
  walkDocument(root, (node) => {
    seen.push(node.type);
  });
  return seen;
}

function find(root: DocumentNode, type: DocumentNode['type']): DocumentNode[] {
  const found: DocumentNode[] = [];
  walkDocument(root, (node) => {
    if (node.type === type) found.push(node);
  });
  return found;
}

const NOTE = `---
title: 复习
tags: [os]
---
# 进程调度

Some *emphasis*, **strong**, ~~gone~~, \`code\`, a [link](https://example.com "T") and [[Other note|other]].
Inline math $E=mc^2$ and ![alt text](pic.png).

- [x] done
- [ ] todo

1. one
2. two

> quoted

| a | b |
|:--|--:|
| 1 | 2 |

$$
\\int_0^1 x\\,dx
$$

\`\`\`mermaid
graph TD; A-->B
\`\`\`

\`\`\`function-plot
y = sin(x)
\`\`\`

\`\`\`ts
const x = 1;
\`\`\`

---

<div>raw</div>
`;

describe('parseDocumentAst', () => {
  it('gives every construct of the dialect its own node type', () => {
    const root = parseDocumentAst(NOTE);
    expect(root.type).toBe('document');
    const seen = new Set(types(root));
    for (const type of [
      'front_matter',
      'heading',
      'paragraph',
      'text',
      'emphasis',
      'strong',
      'strikethrough',
      'code_inline',
      'link',
      'wikilink',
      'math_inline',
      'image',
      'list',
      'list_item',
      'blockquote',
      'table',
      'table_row',
      'table_cell',
      'math_block',
      'mermaid',
      'function_plot',
      'code_block',
      'thematic_break',
      'html_block',
      'soft_break',
    ]) {
      expect(seen, type).toContain(type);
    }
  });

  it('carries the attributes exporters need', () => {
    const root = parseDocumentAst(NOTE);
    const heading = find(root, 'heading')[0];
    expect(heading?.attributes).toEqual({ level: 1 });
    expect(heading?.text).toBe('进程调度');
    expect(find(root, 'link')[0]?.attributes).toMatchObject({ href: 'https://example.com', title: 'T' });
    expect(find(root, 'wikilink')[0]?.attributes).toEqual({ target: 'Other note', label: 'other' });
    expect(find(root, 'image')[0]?.attributes).toMatchObject({ src: 'pic.png', alt: 'alt text' });
    expect(find(root, 'math_inline')[0]?.text).toBe('E=mc^2');
    expect(find(root, 'math_block')[0]?.text).toBe('\\int_0^1 x\\,dx');
    expect(find(root, 'mermaid')[0]?.text).toBe('graph TD; A-->B\n');
    expect(find(root, 'function_plot')[0]?.text).toBe('y = sin(x)\n');
    expect(find(root, 'code_block')[0]?.attributes).toMatchObject({ language: 'ts', fenced: true });
    expect(find(root, 'front_matter')[0]?.text).toBe('title: 复习\ntags: [os]');
    const lists = find(root, 'list');
    expect(lists[0]?.attributes).toMatchObject({ ordered: false, tight: true });
    expect(lists[0]?.children.map((item) => item.attributes['checked'])).toEqual([true, false]);
    expect(plainText(lists[0]?.children[0] as DocumentNode)).toBe('done');
    expect(lists[1]?.attributes).toMatchObject({ ordered: true, start: 1 });
    const cells = find(root, 'table_cell');
    expect(cells.map((cell) => [cell.attributes['header'], cell.attributes['align']])).toEqual([
      [true, 'left'],
      [true, 'right'],
      [false, 'left'],
      [false, 'right'],
    ]);
  });

  it('records 0-based source lines for blocks, inline nodes inheriting theirs', () => {
    const root = parseDocumentAst('intro\n\n## Two\n\ntext *em*\n');
    const [paragraph, heading, second] = root.children;
    expect(paragraph?.position).toEqual({ start_line: 0, end_line: 1 });
    expect(heading?.position).toEqual({ start_line: 2, end_line: 3 });
    expect(second?.children[1]?.position).toEqual({ start_line: 4, end_line: 5 });
  });

  it('keeps node ids stable when other blocks change, and unique for repeated blocks', () => {
    const before = parseDocumentAst('# A\n\nsame\n\nsame\n\nlast *x*\n');
    const after = parseDocumentAst('# A changed\n\nnew block\n\nsame\n\nsame\n\nlast *x*\n');
    const ids = (root: DocumentNode) => root.children.map((child) => child.node_id);
    expect(new Set(ids(before)).size).toBe(4);
    expect(ids(after).slice(2)).toEqual(ids(before).slice(1));
    expect(after.children[4]?.children[1]?.node_id).toBe(before.children[3]?.children[1]?.node_id);
    expect(parseDocumentAst('# A\n\nsame\n').children[0]?.node_id).toBe(before.children[0]?.node_id);
  });

  it('marks loose lists as not tight', () => {
    const root = parseDocumentAst('- a\n\n- b\n');
    expect(root.children[0]?.attributes['tight']).toBe(false);
  });

  it('reads front matter into metadata and survives broken YAML', () => {
    expect(documentFromMarkdown(NOTE, 'T').metadata).toEqual({ title: '复习', tags: ['os'] });
    const broken = documentFromMarkdown('---\n: [\n---\nbody\n', 'T');
    expect(broken.metadata).toEqual({});
    expect(broken.root.children[0]?.type).toBe('front_matter');
  });
});

describe('footnotes', () => {
  it('are exported as written, one-word definitions included', () => {
    const root = parseDocumentAst(
      'FCFS[^1] and RR[^rr].\n\n[^1]: Tanenbaum\n[^rr]: Round robin, 时间片轮转。\n',
    );
    expect(root.children.map((child) => [child.type, plainText(child)])).toEqual([
      ['paragraph', 'FCFS[^1] and RR[^rr].'],
      ['paragraph', '[^1]: Tanenbaum'],
      ['paragraph', '[^rr]: Round robin, 时间片轮转。'],
    ]);
  });

  it('mark references and definitions for the exporters, and leave an undefined label plain text', () => {
    const root = parseDocumentAst('See[^a] and [^zz].\n\n[^a]: The *note*.\n');
    const [body, definition] = root.children;
    expect(body?.children.map((child) => [child.text, child.attributes])).toEqual([
      ['See', {}],
      ['[^a]', { footnote_ref: 'a' }],
      [' and [^zz].', {}],
    ]);
    expect(definition?.attributes).toEqual({ footnote: 'a' });
    expect(definition?.children[0]).toMatchObject({ text: '[^a]: ', attributes: { footnote_marker: true } });
    expect(definition?.children.map((child) => child.type)).toEqual(['text', 'text', 'emphasis', 'text']);
  });

  it('are numbered by first reference, then unreferenced definitions, skipping code and unknown labels', () => {
    const blocks = [
      'B[^b] then A[^a], B again[^b], unknown[^zz], `[^c]` in code.',
      '```\n[^c] in a fence\n```',
      '    [^c] indented code',
      '[^a]: first\n[^b]: second\n[^c]: never referenced',
    ];
    expect([...footnoteNumbers(blocks)]).toEqual([
      ['b', 1],
      ['a', 2],
      ['c', 3],
    ]);
    expect(footnoteNumbers(['No footnotes here.']).size).toBe(0);
  });
});
