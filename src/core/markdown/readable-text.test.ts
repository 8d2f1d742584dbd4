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

  it('keeps the source of code, math and diagrams, without the fences', () => {
    expect(readableText('```ts\nconst x = 1;\n```')).toBe('const x = 1;');
    expect(readableText('$$\nE = mc^2\n$$')).toBe('E = mc^2');
    expect(readableText('```mermaid\ngraph TD; A-->B\n```')).toBe('graph TD; A-->B');
    expect(readableText('Inline $a^2$ math')).toBe('Inline a^2 math');
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
