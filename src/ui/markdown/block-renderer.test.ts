// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { i18n } from '../i18n';
import { BlockRenderer } from './block-renderer';
import { renderMarkdownSafe } from './render-markdown';

function counting(): { renderer: BlockRenderer; sources: string[] } {
  const sources: string[] = [];
  const renderer = new BlockRenderer({
    render: (source, footnotes) => {
      sources.push(source);
      return renderMarkdownSafe(source, footnotes);
    },
  });
  return { renderer, sources };
}

const formulas = Array.from({ length: 20 }, (_, i) => `Formula ${i}: $x^${i} + y_${i}$`);
const diagrams = Array.from({ length: 3 }, (_, i) => `\`\`\`mermaid\ngraph TD\n  A${i} --> B${i}\n\`\`\``);
const note = ['# Title', ...formulas, ...diagrams].join('\n\n');

describe('BlockRenderer', () => {
  it('renders each top-level block once and returns the same HTML for unchanged source', () => {
    const { renderer, sources } = counting();
    const first = renderer.render(note);
    expect(first).toHaveLength(24);
    expect(sources).toHaveLength(24);
    const again = renderer.render(note);
    expect(sources).toHaveLength(24);
    expect(again.map((block) => block.html)).toEqual(first.map((block) => block.html));
    expect(again.map((block) => block.key)).toEqual(first.map((block) => block.key));
  });

  it('re-renders only the block that changed', () => {
    const { renderer, sources } = counting();
    const before = renderer.render(note);
    const edited = note.replace('Formula 12: $x^12 + y_12$', 'Formula 12: $x^12 + y_12$ and more');
    const after = renderer.render(edited);
    expect(sources.slice(24)).toEqual(['Formula 12: $x^12 + y_12$ and more']);
    expect(renderer.renders).toBe(25);
    const changed = after.filter((block, i) => block.key !== before[i]?.key).map((block) => block.line);
    expect(changed).toEqual([2 * 13]);
  });

  it('keeps a block and its key when lines are inserted above it, with lines relative to the block', () => {
    const { renderer, sources } = counting();
    const before = renderer.render('# A\n\nSome *text*.\n');
    const after = renderer.render('# A\n\nNew paragraph.\n\nSome *text*.\n');
    expect(sources).toEqual(['# A', 'Some *text*.', 'New paragraph.']);
    expect(after.map((block) => block.line)).toEqual([0, 2, 4]);
    expect(after[2]?.key).toBe(before[1]?.key);
    // The block's own HTML starts at line 0; the preview adds the block's line.
    expect(after[2]?.html).toContain('data-source-line="0"');
  });

  it('hands back an unchanged block as the same object, so a keyed list skips it', () => {
    const { renderer } = counting();
    const before = renderer.render(note);
    const after = renderer.render(note.replace('Formula 12: $x^12 + y_12$', 'Formula 12: $x^12 + y_12$!'));
    const reused = after.filter((block, i) => block === before[i]);
    expect(reused).toHaveLength(before.length - 1);
    expect(after[13]).not.toBe(before[13]);
  });

  it('gives identical blocks distinct keys', () => {
    const { renderer, sources } = counting();
    const blocks = renderer.render('---\n\ntext\n\n---\n');
    expect(sources).toEqual(['---', 'text']);
    expect(new Set(blocks.map((block) => block.key)).size).toBe(3);
  });

  it('stops rendering new blocks when told to yield and finishes on a later pass', () => {
    const { renderer, sources } = counting();
    let budget = 3;
    const partial = renderer.render(note, () => --budget < 0);
    expect(partial.filter((block) => block.html !== null)).toHaveLength(4);
    expect(partial[4]).toMatchObject({ html: null, source: formulas[3] });
    const complete = renderer.render(note);
    expect(complete.every((block) => block.html !== null)).toBe(true);
    expect(sources).toHaveLength(24);
  });

  it('resolves reference links defined in another block', () => {
    const { renderer } = counting();
    const blocks = renderer.render('See [the docs][docs].\n\n[docs]: https://example.com/docs\n');
    expect(blocks[0]?.html).toContain('href="https://example.com/docs"');
    expect(blocks[1]?.html?.trim()).toBe('');
  });

  it('shows a line that only looks like a definition once, in its own block', () => {
    const { renderer } = counting();
    const blocks = renderer.render('# 进程调度\n\nFCFS[^1] and RR.\n\n[^1]: 教材第 3 章 p. 42.\n');
    expect(blocks).toHaveLength(3);
    expect(blocks.filter((block) => block.html?.includes('教材第 3 章'))).toHaveLength(1);
    expect(blocks[2]?.html).toContain('教材第 3 章');
  });

  it('numbers footnotes over the whole note, and renders again only the blocks a renumbering touches', () => {
    const { renderer, sources } = counting();
    const source =
      '# 进程调度\n\nFCFS[^fcfs] and RR[^rr].\n\nUnrelated text.\n\n[^rr]: Round robin.\n\n[^fcfs]: 先来先服务。\n';
    const numbers = (blocks: ReturnType<BlockRenderer['render']>): string[] =>
      blocks.flatMap((block) =>
        [...(block.html ?? '').matchAll(/data-footnote(?:-ref|-back)="([^"]+)"[^>]*>(\d+)</g)].map(
          (match) => `${match[1]}=${match[2]}`,
        ),
      );
    expect(numbers(renderer.render(source))).toEqual(['fcfs=1', 'rr=2', 'rr=2', 'fcfs=1']);

    sources.length = 0;
    const edited = source.replace('# 进程调度', '# 进程调度\n\nRR first[^rr].');
    const blocks = renderer.render(edited);
    expect(numbers(blocks)).toEqual(['rr=1', 'fcfs=2', 'rr=1', 'rr=1', 'fcfs=2']);
    // The new block, the paragraph whose numbers changed and both definitions; not the heading or "Unrelated".
    expect(sources).toHaveLength(4);
    expect(sources.some((text) => text.includes('Unrelated') || text.startsWith('# '))).toBe(false);
  });

  it('keeps the output of rendering the whole note', () => {
    const { renderer } = counting();
    const source =
      '# Title\n\n- a\n- b\n\n  continued\n\n| x | y |\n|---|---|\n| 1 | 2 |\n\n$$\nE = mc^2\n$$\n';
    const html = renderer
      .render(source)
      .map((block) => block.html)
      .join('');
    const strip = (text: string) => text.replace(/ data-source-line="\d+"/g, '').replace(/\s+/g, '');
    expect(strip(html)).toBe(strip(renderMarkdownSafe(source)));
  });

  it('titles an untitled callout again after a language switch, without an edit', async () => {
    const { renderer, sources } = counting();
    const title = (blocks: { html: string | null }[]) =>
      /callout-title[^>]*>(?:<[^>]*>)*([^<]+)/.exec(blocks[1]?.html ?? '')?.[1];
    const callouts = '# Review\n\n> [!tip]\n> Chapter one first.\n';
    try {
      expect(title(renderer.render(callouts, undefined, i18n.locale))).toBe('Tip');
      await i18n.setLocale('zh-CN');
      expect(title(renderer.render(callouts, undefined, i18n.locale))).toBe('提示');
      await i18n.setLocale('en');
      const rendered = sources.length;
      // Switching back finds the English blocks still cached.
      expect(title(renderer.render(callouts, undefined, i18n.locale))).toBe('Tip');
      expect(sources).toHaveLength(rendered);
    } finally {
      await i18n.reset();
    }
  });

  it('forgets blocks beyond the note and its spare entries', () => {
    const sources: string[] = [];
    const renderer = new BlockRenderer({ render: (source) => (sources.push(source), source), spare: 1 });
    renderer.render('one');
    renderer.render('two');
    renderer.render('three');
    renderer.render('one');
    expect(sources).toEqual(['one', 'two', 'three', 'one']);
    renderer.render('three');
    expect(sources).toHaveLength(4);
  });
});
