import { describe, expect, it } from 'vitest';
import { stripObsidianComments } from './obsidian-comments';
import { createMarkdownParser } from './syntax';

const render = (src: string) => createMarkdownParser().render(src);

describe('stripObsidianComments', () => {
  it('keeps every line break, so line numbers stay', () => {
    expect(stripObsidianComments('a %%x\ny%% b')).toBe('a \n b');
  });

  it('hides comments that open in one block and close in another', () => {
    for (const src of [
      'text %%secret\n\nsecret2\n%%',
      'a %%sec\n> quoted secret %%',
      '# H %%sec\nmore%% p',
      '> [!note] T %%secret\n> more secret%%\n> body',
    ]) {
      const html = render(src);
      expect(html, src).not.toMatch(/secret|sec\b|more(?! secret)/);
    }
    expect(render('# H %%sec\nmore%% p')).toContain('<p>p</p>');
    expect(render('> [!note] T %%secret\n> more secret%%\n> body')).toContain('body');
  });

  it('an unclosed comment hides the rest of the note', () => {
    expect(stripObsidianComments('keep %%private\n\nplan')).toBe('keep \n\n');
  });

  it('leaves %% in fenced code, code spans and escapes as text', () => {
    const fenced = '```tex\n%% a TeX comment\n```\nafter %%gone%%';
    expect(stripObsidianComments(fenced)).toBe('```tex\n%% a TeX comment\n```\nafter ');
    expect(stripObsidianComments('run `a %% b` now')).toBe('run `a %% b` now');
    expect(stripObsidianComments('100\\%% sure')).toBe('100\\%% sure');
    // A backtick with no closing run is text: the comment after it is still one.
    expect(stripObsidianComments('a ` b %%x%%')).toBe('a ` b ');
  });

  it('keeps characters outside the BMP whole (an emoji is two UTF-16 units)', () => {
    expect(stripObsidianComments('😀 %%x%% [[Y]] 😀')).toBe('😀  [[Y]] 😀');
  });
});
