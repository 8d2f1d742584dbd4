import { describe, expect, it } from 'vitest';
import { blockHash, deriveBlocks, parseBlocks, textSimilarity, type DerivedBlock } from './blocks';
import { parseDocumentAst } from './markdown/document-ast';
import { seededRandom } from './seeded-random';

function idSource(prefix = 'b'): () => string {
  let next = 0;
  return () => `${prefix}${++next}`;
}

function shape(markdown: string): Array<[string, string]> {
  return parseBlocks(markdown).map((block) => [block.type, block.text]);
}

describe('parseBlocks', () => {
  it('returns nothing for an empty or blank document', () => {
    expect(parseBlocks('')).toEqual([]);
    expect(parseBlocks('\n \n\t\n')).toEqual([]);
  });

  it('reads ATX headings with their level, Chinese included', () => {
    const blocks = parseBlocks('# 第一章\n## Section 2 ##\n###### 六级\n####### not a heading\n#nospace');
    expect(blocks.slice(0, 3).map((block) => [block.type, block.level, block.text])).toEqual([
      ['heading', 1, '# 第一章'],
      ['heading', 2, '## Section 2 ##'],
      ['heading', 6, '###### 六级'],
    ]);
    expect(blocks[3]).toMatchObject({ type: 'paragraph', text: '####### not a heading\n#nospace' });
  });

  it('reads setext headings, and tells `---` under text from a thematic break', () => {
    const blocks = parseBlocks('标题一\n===\n\nTitle two\nstill title\n---\n\n---\n\n- - -');
    expect(blocks.map((block) => [block.type, block.level, block.start_line, block.end_line])).toEqual([
      ['heading', 1, 0, 1],
      ['heading', 2, 3, 5],
      ['rule', undefined, 7, 7],
      ['rule', undefined, 9, 9],
    ]);
  });

  it('keeps a paragraph as the exact source slice, without trailing blank lines', () => {
    const markdown = '\n\n这是第一段，\n跨两行。  \n\n\nSecond paragraph [[维基链接]].\n\n\n';
    expect(parseBlocks(markdown)).toEqual([
      { type: 'paragraph', text: '这是第一段，\n跨两行。  ', start_line: 2, end_line: 3 },
      { type: 'paragraph', text: 'Second paragraph [[维基链接]].', start_line: 6, end_line: 6 },
    ]);
  });

  it('reads fenced code with ``` and ~~~, blank lines and `#` inside', () => {
    const markdown = '```python\n# not a heading\n\n\nprint("你好")\n```\n~~~\n```\nstill code\n~~~~\nafter';
    expect(shape(markdown)).toEqual([
      ['code', '```python\n# not a heading\n\n\nprint("你好")\n```'],
      ['code', '~~~\n```\nstill code\n~~~~'],
      ['paragraph', 'after'],
    ]);
  });

  it('runs an unclosed fence to the end of the document', () => {
    const blocks = parseBlocks('intro\n\n```js\nconst a = 1;\n\n# still code\n\n\n');
    expect(blocks[1]).toEqual({
      type: 'code',
      text: '```js\nconst a = 1;\n\n# still code',
      start_line: 2,
      end_line: 5,
    });
    expect(blocks).toHaveLength(2);
  });

  it('reads indented code', () => {
    expect(shape('text\n\n    code line\n\n    more\n\nafter')).toEqual([
      ['paragraph', 'text'],
      ['code', '    code line\n\n    more'],
      ['paragraph', 'after'],
    ]);
  });

  it('reads $$ math blocks, multi-line and single-line', () => {
    expect(shape('公式：\n$$\n\\int_0^1 x\\,dx\n\n= \\frac12\n$$\n\n$$E = mc^2$$\n\n$$ a\nb $$')).toEqual([
      ['paragraph', '公式：'],
      ['math', '$$\n\\int_0^1 x\\,dx\n\n= \\frac12\n$$'],
      ['math', '$$E = mc^2$$'],
      ['math', '$$ a\nb $$'],
    ]);
  });

  it('reads block quotes with lazy continuation lines', () => {
    expect(shape('> 引用第一行\nlazy line\n> > nested\n\n> second quote\n# heading')).toEqual([
      ['quote', '> 引用第一行\nlazy line\n> > nested'],
      ['quote', '> second quote'],
      ['heading', '# heading'],
    ]);
  });

  it('reads a whole list as one block, nested items and continuations included', () => {
    const markdown = [
      '- 第一项',
      '  - 嵌套项',
      '    嵌套续行',
      '',
      '    second paragraph of the nested item',
      '- [ ] task',
      '- [x] done',
      'lazy continuation',
      '',
      '- another item',
      '',
      '1. ordered',
      '2. second',
      '',
      'After the list.',
      '* star list',
      '+ plus list',
      '3) other delimiter',
    ].join('\n');
    expect(parseBlocks(markdown).map((block) => [block.type, block.start_line, block.end_line])).toEqual([
      ['list', 0, 9],
      ['list', 11, 12],
      ['paragraph', 14, 14],
      ['list', 15, 15],
      ['list', 16, 16],
      ['list', 17, 17],
    ]);
  });

  it('ends a list at a blank line followed by a non-list line, and at an interrupting block', () => {
    expect(shape('- a\n\nparagraph\n\n10. ten\n    deep\n\n   not deep enough\n\n- x\n# heading')).toEqual([
      ['list', '- a'],
      ['paragraph', 'paragraph'],
      ['list', '10. ten\n    deep'],
      ['paragraph', '   not deep enough'],
      ['list', '- x'],
      ['heading', '# heading'],
    ]);
  });

  it('does not let "2019." interrupt a paragraph, but lets a bullet do so', () => {
    expect(shape('In\n2019. we moved\n- bullet')).toEqual([
      ['paragraph', 'In\n2019. we moved'],
      ['list', '- bullet'],
    ]);
  });

  it('reads tables only with a matching delimiter row', () => {
    expect(
      shape(
        '| 名称 | 值 |\n| :--- | ---: |\n| 甲 | 1 |\nrow without pipes\n\na | b\n--- | ---\n\n| a |\n---',
      ),
    ).toEqual([
      ['table', '| 名称 | 值 |\n| :--- | ---: |\n| 甲 | 1 |\nrow without pipes'],
      ['table', 'a | b\n--- | ---'],
      // One cell over one delimiter cell: a one-column table, as the preview draws it.
      ['table', '| a |\n---'],
    ]);
    expect(shape('a | b | c\n|---|---|')).toEqual([['paragraph', 'a | b | c\n|---|---|']]);
  });

  it('reads thematic breaks', () => {
    expect(shape('***\n___\n- - -\n * * *')).toEqual([
      ['rule', '***'],
      ['rule', '___'],
      ['rule', '- - -'],
      ['rule', ' * * *'],
    ]);
  });

  it('reads HTML blocks', () => {
    expect(
      shape('<div class="note">\n中文\n</div>\n\n<!-- a comment\n\nstill comment -->\n<span>x</span> inline'),
    ).toEqual([
      ['html', '<div class="note">\n中文\n</div>'],
      ['html', '<!-- a comment\n\nstill comment -->'],
      ['paragraph', '<span>x</span> inline'],
    ]);
  });

  it('skips YAML front matter but keeps absolute line numbers', () => {
    const blocks = parseBlocks('---\ntitle: 笔记\ntags: [a]\n---\n# 标题\n\n正文');
    expect(blocks).toEqual([
      { type: 'heading', text: '# 标题', start_line: 4, end_line: 4, level: 1 },
      { type: 'paragraph', text: '正文', start_line: 6, end_line: 6 },
    ]);
  });

  it('does not mistake a leading thematic break for front matter', () => {
    expect(shape('---\n\ntext\n\n---\n')).toEqual([
      ['rule', '---'],
      ['paragraph', 'text'],
      ['rule', '---'],
    ]);
  });

  it('handles CRLF: exact slices keep \\r\\n, hashes ignore the line-ending style', () => {
    const crlf = '# 标题\r\n\r\n第一行\r\n第二行\r\n\r\n- a\r\n  - b\r\n\r\n```\r\ncode\r\n```\r\n';
    const blocks = parseBlocks(crlf);
    expect(blocks).toEqual([
      { type: 'heading', text: '# 标题', start_line: 0, end_line: 0, level: 1 },
      { type: 'paragraph', text: '第一行\r\n第二行', start_line: 2, end_line: 3 },
      { type: 'list', text: '- a\r\n  - b', start_line: 5, end_line: 6 },
      { type: 'code', text: '```\r\ncode\r\n```', start_line: 8, end_line: 10 },
    ]);
    const lf = parseBlocks(crlf.replace(/\r\n/g, '\n'));
    expect(lf.map((block) => blockHash(block.type, block.text))).toEqual(
      blocks.map((block) => blockHash(block.type, block.text)),
    );
  });

  it('ignores a byte-order mark', () => {
    expect(parseBlocks('\uFEFF# Title')).toEqual([
      { type: 'heading', text: '# Title', start_line: 0, end_line: 0, level: 1 },
    ]);
  });

  it('cuts where the Document AST does, so preview, export and index see the same blocks', () => {
    const note = [
      '---',
      'tags: [a]',
      '---',
      '# 标题',
      '- item',
      '  $$',
      '  x^2',
      '  $$',
      '```mermaid',
      'graph TD; A-->B',
      '```',
      '```function-plot',
      'y = sin(x)',
      '```',
      '> quote',
      'lazy line',
      '<div>',
      'html',
      '</div>',
      '',
      '| a |',
      '| - |',
      '| 1 |',
      '***',
    ].join('\n');
    const outline = parseDocumentAst(note).children.filter((node) => node.type !== 'front_matter');
    const blocks = parseBlocks(note);
    expect(blocks.map((block) => block.start_line)).toEqual(outline.map((node) => node.position?.start_line));
    expect(blocks.map((block) => block.type)).toEqual([
      'heading',
      'list',
      'code',
      'code',
      'quote',
      'html',
      'table',
      'rule',
    ]);
    // The math inside the list item stays in the list (a line splitter cut it out).
    expect(blocks[1]?.text).toBe('- item\n  $$\n  x^2\n  $$');
  });

  it('keeps link reference definitions as paragraphs, so they stay searchable and previewable', () => {
    expect(shape('See [the docs][d].\n\n[d]: https://example.com "Docs"\n\nAfter')).toEqual([
      ['paragraph', 'See [the docs][d].'],
      ['paragraph', '[d]: https://example.com "Docs"'],
      ['paragraph', 'After'],
    ]);
  });

  it('splits a large note, many unclosed $$ openers included, in one pass', () => {
    const unclosed = Array.from({ length: 20_000 }, (_, index) => `$$ a${index}\n`).join('\n');
    const blocks = parseBlocks(unclosed);
    expect(blocks).toHaveLength(20_000);
    expect(blocks.every((block) => block.type === 'paragraph')).toBe(true);
    expect(blocks.at(-1)).toMatchObject({ text: '$$ a19999', start_line: 39_998 });

    const inList = `- item\n${Array.from({ length: 20_000 }, (_, index) => `  $$ b${index}`).join('\n')}\n  $$`;
    expect(shape(inList)).toEqual([['list', inList]]);

    const big = Array.from({ length: 20_000 }, (_, index) =>
      index % 4 === 0 ? `## 第 ${index} 节` : `Paragraph ${index}: 中文 and English.`,
    ).join('\n\n');
    const parsed = parseBlocks(big);
    expect(parsed).toHaveLength(20_000);
    expect(parsed.filter((block) => block.type === 'heading')).toHaveLength(5_000);
    expect(parsed.at(-1)).toMatchObject({ start_line: 39_998, end_line: 39_998 });
  });
});

describe('blockHash and textSimilarity', () => {
  it('hashes type and text, ignoring trailing spaces', () => {
    expect(blockHash('paragraph', 'a  \nb')).toBe(blockHash('paragraph', 'a\nb'));
    expect(blockHash('paragraph', 'a')).not.toBe(blockHash('heading', 'a'));
    expect(blockHash('paragraph', ' a')).not.toBe(blockHash('paragraph', 'a'));
  });

  it('scores Chinese and English edits by character bigrams', () => {
    expect(
      textSimilarity('今天天气很好，我们去公园散步。', '今天天气很好，我们去湖边散步。'),
    ).toBeGreaterThanOrEqual(0.5);
    expect(textSimilarity('今天天气很好', '明日有雨')).toBeLessThan(0.5);
    expect(textSimilarity('The quick brown fox', 'The quick red fox')).toBeGreaterThanOrEqual(0.5);
    expect(textSimilarity('- a\n- b', '- x\n- y')).toBeLessThan(0.5);
    expect(textSimilarity('same', 'same')).toBe(1);
  });
});

describe('deriveBlocks', () => {
  const base = [
    '# 标题',
    'First paragraph about apples.',
    'Second paragraph 关于香蕉.',
    '- one\n- two',
    'Last words.',
  ];
  const join = (parts: readonly string[]): string => parts.join('\n\n');
  const idsOf = (blocks: readonly DerivedBlock[]): string[] => blocks.map((block) => block.block_id);
  const start = (): DerivedBlock[] => deriveBlocks([], join(base), idSource('old'));

  it('returns [] for an empty document', () => {
    expect(deriveBlocks([], '', idSource())).toEqual([]);
    expect(deriveBlocks(start(), '', idSource())).toEqual([]);
  });

  it('gives fresh, unique ids with positions, lines and hashes', () => {
    const blocks = start();
    expect(idsOf(blocks)).toEqual(['old1', 'old2', 'old3', 'old4', 'old5']);
    expect(blocks[0]).toEqual({
      block_id: 'old1',
      type: 'heading',
      text: '# 标题',
      position: 0,
      start_line: 0,
      end_line: 0,
      hash: blockHash('heading', '# 标题'),
      level: 1,
    });
    expect(blocks.map((block) => block.position)).toEqual([0, 1, 2, 3, 4]);
    expect(blocks[3]).toMatchObject({ type: 'list', start_line: 6, end_line: 7 });
  });

  it('keeps every old id when a paragraph is inserted at the top', () => {
    const before = start();
    const after = deriveBlocks(before, join(['A brand new opening.', ...base]), idSource('new'));
    expect(idsOf(after)).toEqual(['new1', ...idsOf(before)]);
  });

  it('keeps the other ids when one block is deleted', () => {
    const before = start();
    const after = deriveBlocks(before, join(base.filter((_, index) => index !== 2)), idSource('new'));
    expect(idsOf(after)).toEqual(['old1', 'old2', 'old4', 'old5']);
  });

  it('keeps both ids when two blocks are swapped', () => {
    const before = start();
    const swapped = [base[0], base[2], base[1], base[3], base[4]].map(String);
    expect(idsOf(deriveBlocks(before, join(swapped), idSource('new')))).toEqual([
      'old1',
      'old3',
      'old2',
      'old4',
      'old5',
    ]);
  });

  it('keeps the id of a paragraph with one word edited', () => {
    const before = start();
    const edited = base.map((part) => part.replace('apples', 'pears'));
    expect(idsOf(deriveBlocks(before, join(edited), idSource('new')))).toEqual(idsOf(before));
  });

  it('keeps the id of a Chinese paragraph with one character edited, next to other edits', () => {
    const before = deriveBlocks([], '今天我们学习操作系统的进程调度。\n\n第二段内容不变。', idSource('old'));
    const after = deriveBlocks(
      before,
      '新的开头段落，完全不同。\n\n今天我们学习操作系统的线程调度。\n\n第二段内容不变。',
      idSource('new'),
    );
    expect(idsOf(after)).toEqual(['new1', 'old1', 'old2']);
  });

  it('gives a new id to a paragraph replaced entirely', () => {
    const before = start();
    const replaced = base.map((part, index) => (index === 1 ? 'Completely unrelated sentence here.' : part));
    expect(idsOf(deriveBlocks(before, join(replaced), idSource('new')))).toEqual([
      'old1',
      'new1',
      'old3',
      'old4',
      'old5',
    ]);
  });

  it('gives a new id when a heading becomes a paragraph', () => {
    const before = start();
    const changed = base.map((part, index) => (index === 0 ? '标题' : part));
    const after = deriveBlocks(before, join(changed), idSource('new'));
    expect(after[0]).toMatchObject({ type: 'paragraph', block_id: 'new1' });
    expect(idsOf(after).slice(1)).toEqual(['old2', 'old3', 'old4', 'old5']);
  });

  it('keeps the id when a heading changes level', () => {
    const before = start();
    const after = deriveBlocks(before, join(['## 标题', ...base.slice(1)]), idSource('new'));
    expect(after[0]).toMatchObject({ block_id: 'old1', level: 2 });
  });

  it('gives duplicate paragraphs distinct ids that survive an unrelated edit', () => {
    const parts = ['Same text.', 'Middle one.', 'Same text.', 'Tail.'];
    const before = deriveBlocks([], join(parts), idSource('old'));
    expect(idsOf(before)).toEqual(['old1', 'old2', 'old3', 'old4']);
    const edited = deriveBlocks(
      before,
      join(['Same text.', 'Middle one, edited.', 'Same text.', 'Tail.']),
      idSource('n'),
    );
    expect(idsOf(edited)).toEqual(['old1', 'old2', 'old3', 'old4']);
    const inserted = deriveBlocks(
      edited,
      join(['Same text.', 'Same text.', 'Middle one, edited.', 'Same text.', 'Tail.']),
      idSource('x'),
    );
    expect(new Set(idsOf(inserted)).size).toBe(5);
    expect(idsOf(inserted).filter((id) => id.startsWith('old'))).toHaveLength(4);
  });

  it('never repeats an id, even from a newId that collides or a corrupted previous list', () => {
    const before = start();
    const colliding = ['old1', 'old9', 'fresh', 'fresh', 'other'];
    const newId = (): string => colliding.shift() ?? 'exhausted';
    const after = deriveBlocks(before, join(['Inserted one.', 'Inserted two.', ...base.slice(1)]), newId);
    // old1 belonged to the deleted heading: reusing it would retarget its citations.
    expect(idsOf(after)).toEqual(['old9', 'fresh', 'old2', 'old3', 'old4', 'old5']);

    const corrupted = before.map((block) => ({ ...block, block_id: 'dup' }));
    const ids = idsOf(deriveBlocks(corrupted, join(base), idSource('n')));
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('rehashes previous blocks instead of trusting stored hashes', () => {
    const before = start().map((block) => ({ ...block, hash: 'stale' }));
    expect(idsOf(deriveBlocks(before, join(base), idSource('new')))).toEqual(idsOf(start()));
  });

  it('handles a large document with many identical blocks', () => {
    const parts = Array.from({ length: 1500 }, (_, index) =>
      index % 3 === 0 ? '---' : `Paragraph ${index}.`,
    );
    const before = deriveBlocks([], join(parts), idSource('old'));
    const after = deriveBlocks(
      before,
      join(['New first.', ...parts.slice(0, 700), ...parts.slice(701)]),
      idSource('n'),
    );
    expect(new Set(idsOf(after)).size).toBe(after.length);
    expect(after.filter((block) => block.block_id.startsWith('old'))).toHaveLength(1499);
  });
});

describe('deriveBlocks under random edits', () => {
  type Kind = 'heading' | 'paragraph' | 'list' | 'code' | 'quote' | 'table' | 'math';
  const kinds: readonly Kind[] = ['heading', 'paragraph', 'list', 'code', 'quote', 'table', 'math'];

  interface ModelBlock {
    kind: Kind;
    uid: number;
    version: number;
    /** The id this block had after the last derive; undefined once its text changes. */
    id: string | undefined;
  }

  function render({ kind, uid, version }: ModelBlock): string {
    const extra = ' 更多'.repeat(version);
    switch (kind) {
      case 'heading':
        return `## 标题 ${uid} heading${extra}`;
      case 'paragraph':
        return `Paragraph ${uid} 这是一个段落 with several words${extra}.\nSecond line ${uid}.`;
      case 'list':
        return `- item ${uid}${extra}\n  - nested ${uid}\n- [ ] task ${uid}`;
      case 'code':
        return `\`\`\`ts\nconst value${uid} = ${uid};${extra}\n\n// 注释 ${uid}\n\`\`\``;
      case 'quote':
        return `> 引用 ${uid} quoted${extra}\n> line two ${uid}`;
      case 'table':
        return `| 列 ${uid} | b |\n| --- | --- |\n| ${uid}${extra} | 2 |`;
      case 'math':
        return `$$\nx_{${uid}} = ${uid}${extra}\n$$`;
    }
  }

  it('keeps ids unique and keeps the id of every block whose text did not change', () => {
    const random = seededRandom(20240601);
    const pick = (length: number): number => Math.floor(random() * length);
    let nextUid = 0;
    const fresh = (): ModelBlock => ({
      kind: kinds[pick(kinds.length)] ?? 'paragraph',
      uid: ++nextUid,
      version: 0,
      id: undefined,
    });
    const newId = idSource('id');

    let model: ModelBlock[] = Array.from({ length: 8 }, fresh);
    let previous: DerivedBlock[] = [];
    let lastIds = new Map<number, string>();
    let keptEdited = 0;
    let edited = 0;

    for (let iteration = 0; iteration < 200; iteration++) {
      const editedUids = new Set<number>();
      const operations = 1 + pick(3);
      for (let step = 0; step < operations; step++) {
        const choice = random();
        const at = pick(model.length + 1);
        if (choice < 0.3 || model.length === 0) {
          model.splice(at, 0, fresh());
        } else if (choice < 0.5) {
          model.splice(pick(model.length), 1);
        } else if (choice < 0.75) {
          const target = model[pick(model.length)];
          if (target) {
            target.version += 1;
            target.id = undefined;
            editedUids.add(target.uid);
          }
        } else if (choice < 0.85) {
          const index = pick(model.length);
          model[index] = fresh();
        } else {
          const [moved] = model.splice(pick(model.length), 1);
          if (moved) model.splice(pick(model.length + 1), 0, moved);
        }
      }

      // Adjacent lists merge into one list in Markdown; a paragraph keeps them apart.
      for (let index = 1; index < model.length; index++) {
        if (model[index]?.kind === 'list' && model[index - 1]?.kind === 'list') {
          model.splice(index, 0, { ...fresh(), kind: 'paragraph' });
        }
      }
      const derived = deriveBlocks(previous, model.map(render).join('\n\n'), newId);

      expect(derived.map((block) => block.type)).toEqual(model.map((block) => block.kind));
      const ids = derived.map((block) => block.block_id);
      expect(new Set(ids).size).toBe(ids.length);
      model.forEach((block, index) => {
        if (block.id !== undefined) expect(derived[index]?.block_id).toBe(block.id);
      });

      model.forEach((block, index) => {
        const id = derived[index]?.block_id;
        if (editedUids.has(block.uid) && lastIds.has(block.uid)) {
          edited += 1;
          if (id === lastIds.get(block.uid)) keptEdited += 1;
        }
      });
      lastIds = new Map(model.map((block, index) => [block.uid, derived[index]?.block_id ?? '']));
      model = model.map((block, index) => ({ ...block, id: derived[index]?.block_id }));
      previous = derived;
    }
    // Edits only append a few characters, so nearly all edited blocks keep their id.
    expect(edited).toBeGreaterThan(50);
    expect(keptEdited / edited).toBeGreaterThan(0.9);
  });
});
