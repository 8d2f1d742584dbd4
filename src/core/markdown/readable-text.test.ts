import { describe, expect, it } from 'vitest';
import { READABLE_TEXT_MAX_SOURCE, readableText } from './readable-text';

describe('readableText', () => {
  it('drops heading marks, emphasis, code ticks and link targets', () => {
    expect(readableText('## Setting up **Kubernetes**')).toBe('Setting up Kubernetes');
    expect(readableText('Run `kubectl apply` with *care*, see [the docs](https://k8s.io/docs "Docs").')).toBe(
      'Run kubectl apply with care, see the docs.',
    );
    expect(readableText('~~old~~ new &amp; <b>bold</b>')).toBe('old new & bold');
  });

  it('shows wikilinks by label or title and images by alt text', () => {
    expect(readableText('See [[Cluster setup]] and [[Cluster setup|the setup]].')).toBe(
      'See Cluster setup and the setup.',
    );
    expect(readableText('![拓扑图](topology.png) 节点')).toBe('拓扑图 节点');
  });

  it('puts list items and table rows on lines of their own, without markers or pipes', () => {
    expect(readableText('- [ ] buy milk\n- [x] **call** Bob\n  1. nested')).toBe(
      'buy milk\ncall Bob\nnested',
    );
    expect(readableText('| 名称 | 端口 |\n| --- | --- |\n| api | 8080 |')).toBe('名称 · 端口\napi · 8080');
    expect(readableText('> quoted\n> line')).toBe('quoted line');
  });

  it('keeps the source of code and diagrams, without the fences', () => {
    expect(readableText('```ts\nconst x = 1;\n```')).toBe('const x = 1;');
    expect(readableText('```mermaid\ngraph TD; A-->B\n```')).toBe('graph TD; A-->B');
  });

  it('reads math as plain text, without dollars, backslashes or braces', () => {
    expect(readableText('$$\nE = mc^2\n$$')).toBe('E = mc²');
    expect(readableText('Inline $a^2$ math')).toBe('Inline a² math');
    expect(readableText('先来先服务 (FCFS) 的平均等待时间是 $\\bar{W}=\\frac{1}{n}\\sum W_i$。')).toBe(
      '先来先服务 (FCFS) 的平均等待时间是 W̄=1/n ∑ Wᵢ。',
    );
  });

  it('shows a footnote as a page foot does: no `[^1]:` marker, a superscript label', () => {
    expect(readableText('[^1]: 这是脚注：SJF 需要预知运行时间。')).toBe('¹ 这是脚注：SJF 需要预知运行时间。');
    expect(readableText('SJF 最优[^1]。\n\n[^1]: 需要预知运行时间。')).toBe(
      'SJF 最优¹。\n¹ 需要预知运行时间。',
    );
    expect(readableText('See[^note].\n\n[^note]: A **named** one.')).toBe('See[note].\n[note] A named one.');
    // A block read alone: its reference's definition is elsewhere in the note.
    expect(readableText('短作业优先 (SJF) 的平均等待时间最短[^1]。')).toBe(
      '短作业优先 (SJF) 的平均等待时间最短¹。',
    );
  });

  it('keeps the words of an HTML block and drops its tags', () => {
    expect(readableText('<div class="x">\n<p>Hello there</p>\n</div>')).toBe('Hello there');
  });

  it('returns plain text unchanged, and an over-long block as typed', () => {
    expect(readableText('进程调度决定下一个运行的进程。')).toBe('进程调度决定下一个运行的进程。');
    const long = `**${'a'.repeat(READABLE_TEXT_MAX_SOURCE)}**`;
    expect(readableText(long)).toBe(long);
  });
});
