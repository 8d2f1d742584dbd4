import { describe, expect, it } from 'vitest';
import { documentFromMarkdown } from '../core/markdown/document-ast';
import { opensWithTitle, printsTitle } from './title-heading';

const opens = (markdown: string, title: string) => opensWithTitle(documentFromMarkdown(markdown, title));

describe('opensWithTitle', () => {
  it('finds a first level-1 heading that reads as the title', () => {
    expect(opens('# 操作系统第三讲 总结\n\n正文。\n', '操作系统第三讲 总结')).toBe(true);
  });

  it('compares trimmed, with whitespace runs collapsed and Latin case folded', () => {
    expect(opens('#   Process   Scheduling  \n\nBody.\n', 'process scheduling ')).toBe(true);
    expect(opens('# 操作系统第三讲\t总结\n', '  操作系统第三讲 总结')).toBe(true);
  });

  it('reads the heading as a reader sees it, without its inline markup', () => {
    expect(opens('# **操作系统**第三讲 *总结* `OS`\n', '操作系统第三讲 总结 OS')).toBe(true);
    expect(opens('# [Round Robin](https://example.com) notes\n', 'Round Robin notes')).toBe(true);
  });

  it('looks past front matter to the first block a reader sees', () => {
    expect(opens('---\nauthor: 李雷\n---\n# 讲义\n\n正文。\n', '讲义')).toBe(true);
  });

  it('keeps the title when the note opens otherwise', () => {
    expect(opens('## 操作系统第三讲 总结\n', '操作系统第三讲 总结')).toBe(false);
    expect(opens('# 操作系统第三讲\n', '操作系统第三讲 总结')).toBe(false);
    expect(opens('操作系统第三讲 总结\n', '操作系统第三讲 总结')).toBe(false);
    expect(opens('正文。\n\n# 操作系统第三讲 总结\n', '操作系统第三讲 总结')).toBe(false);
    expect(opens('# Processes\n', 'Process')).toBe(false);
    expect(opens('', '')).toBe(false);
  });
});

describe('printsTitle', () => {
  it('prints the title only when asked and the note does not already open with it', () => {
    const repeated = documentFromMarkdown('# 讲义\n\n正文。\n', '讲义');
    const distinct = documentFromMarkdown('# 第一节\n\n正文。\n', '讲义');
    expect(printsTitle(repeated, true)).toBe(false);
    expect(printsTitle(distinct, true)).toBe(true);
    expect(printsTitle(distinct, false)).toBe(false);
  });
});
