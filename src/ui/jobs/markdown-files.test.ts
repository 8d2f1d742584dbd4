import { describe, expect, it } from 'vitest';
import { isImportableMarkdownPath, isImportablePicturePath } from './markdown-files';

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

describe('isImportablePicturePath', () => {
  it('accepts the pictures a note can show, outside hidden folders', () => {
    expect(isImportablePicturePath('vault/assets/板书.PNG')).toBe(true);
    expect(isImportablePicturePath('vault/a.jpeg')).toBe(true);
    expect(isImportablePicturePath('vault/a.webp')).toBe(true);
    expect(isImportablePicturePath('vault/a.svg')).toBe(false);
    expect(isImportablePicturePath('vault/a.md')).toBe(false);
    expect(isImportablePicturePath('vault/.obsidian/icon.png')).toBe(false);
  });
});
