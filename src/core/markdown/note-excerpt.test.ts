import { describe, expect, it } from 'vitest';
import { noteExcerpt } from './note-excerpt';

describe('noteExcerpt', () => {
  it('shows the readable text: math keeps its source, links their labels, no Markdown marks', () => {
    expect(
      noteExcerpt(
        '# 进程调度 Process scheduling\n\nFCFS runs in $O(n)$ time, see [the notes](https://example.com) and [[Kernel|内核]].\n\n- **one**\n- `two()`\n',
      ),
    ).toBe('进程调度 Process scheduling FCFS runs in O(n) time, see the notes and 内核. one two()');
  });

  it('leaves out the front matter and keeps a table readable', () => {
    expect(noteExcerpt('---\ntitle: x\ntags: [a]\n---\n| 名称 | 时间 |\n|:--|--:|\n| A | 3 |\n')).toBe(
      '名称 · 时间 A · 3',
    );
  });

  it('is at most 160 characters, and reads only the start of a long body', () => {
    const long = `${'word '.repeat(100)}\n`.repeat(20_000);
    const excerpt = noteExcerpt(long);
    expect(excerpt).toHaveLength(161);
    expect(excerpt.endsWith('…')).toBe(true);
    expect(noteExcerpt('')).toBe('');
  });
});
