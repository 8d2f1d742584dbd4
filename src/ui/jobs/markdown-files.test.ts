import { describe, expect, it } from 'vitest';
import { isImportableMarkdownPath } from './markdown-files';

describe('isImportableMarkdownPath', () => {
  it('accepts Markdown by extension, any case', () => {
    expect(isImportableMarkdownPath('notes/a.md')).toBe(true);
    expect(isImportableMarkdownPath('notes/学习/B.MARKDOWN')).toBe(true);
  });

  it('skips other files and hidden folders', () => {
    expect(isImportableMarkdownPath('notes/img.png')).toBe(false);
    expect(isImportableMarkdownPath('notes/.obsidian/x.md')).toBe(false);
    expect(isImportableMarkdownPath('notes/.hidden.md')).toBe(false);
    expect(isImportableMarkdownPath('')).toBe(false);
  });
});
