import { describe, expect, it } from 'vitest';
import { codeTokens, highlightHtml, isHighlightable } from './code-highlight';
import { codeTheme, styledCode, styledLines, tokenStyle } from './code-highlight-themes';

const PYTHON = 'def fib(n):\n    return "a<b" if n else 1  # done\n';

describe('code tokens', () => {
  it('gives highlight.js scopes for a known language, and the tokens join back to the source', () => {
    const tokens = codeTokens(PYTHON, 'python');
    expect(tokens.map((token) => token.text).join('')).toBe(PYTHON);
    expect(tokens).toContainEqual({ text: 'def', scopes: ['keyword'] });
    expect(tokens).toContainEqual({ text: 'fib', scopes: ['title.function'] });
    expect(tokens).toContainEqual({ text: '"a<b"', scopes: ['string'] });
    expect(tokens).toContainEqual({ text: '# done', scopes: ['comment'] });
  });

  it('leaves unknown languages as one unstyled token, without guessing', () => {
    expect(isHighlightable('brainfuck')).toBe(false);
    expect(codeTokens('def x(): pass', 'brainfuck')).toEqual([{ text: 'def x(): pass', scopes: [] }]);
    expect(codeTokens('SELECT 1', '')).toEqual([{ text: 'SELECT 1', scopes: [] }]);
    expect(highlightHtml('<b>&', 'nope')).toBe('&lt;b&gt;&amp;');
  });

  it('knows the fence labels people write: aliases and shells', () => {
    for (const label of ['py', 'js', 'ts', 'sh', 'shell', 'zsh', 'c', 'sql', 'html', 'yml'])
      expect(isHighlightable(label), label).toBe(true);
    expect(codeTokens('SELECT name FROM t', 'sql')[0]).toEqual({ text: 'SELECT', scopes: ['keyword'] });
  });
});

describe('code themes', () => {
  it('colours a keyword and a string in the GitHub colours, light and dark', () => {
    const light = codeTheme('github-light')!;
    const dark = codeTheme('github-dark')!;
    expect(tokenStyle(light, ['keyword'])?.color).toBe('#d73a49');
    expect(tokenStyle(light, ['string'])?.color).toBe('#032f62');
    expect(tokenStyle(dark, ['keyword'])?.color).toBe('#ff7b72');
    expect(tokenStyle(dark, ['string'])?.color).toBe('#a5d6ff');
    // A dotted scope the theme does not name falls back to its first part.
    expect(tokenStyle(light, ['title.class.inherited'])?.color).toBe('#6f42c1');
    // The innermost scope the theme colours wins; an uncoloured one leaves the outer's.
    expect(tokenStyle(light, ['meta', 'keyword'])?.color).toBe('#d73a49');
    expect(tokenStyle(light, ['string', 'params'])?.color).toBe('#032f62');
    expect(tokenStyle(light, ['params'])).toBeUndefined();
    expect(dark.dark).toBe(true);
    expect(codeTheme('solarized')).toBeUndefined();
    expect(codeTheme('toString')).toBeUndefined();
  });

  it('gives styled runs line by line; `none` is one plain run', () => {
    const runs = styledCode(PYTHON.trimEnd(), 'python', codeTheme('github-light')!);
    expect(runs.map((run) => run.text).join('')).toBe(PYTHON.trimEnd());
    expect(runs[0]).toEqual({ text: 'def', style: { color: '#d73a49' } });
    const lines = styledLines(runs);
    expect(lines).toHaveLength(2);
    expect(lines[1]?.map((run) => run.text).join('')).toBe('    return "a<b" if n else 1  # done');
    expect(styledCode(PYTHON, 'python', codeTheme('none')!)).toEqual([{ text: PYTHON, style: undefined }]);
  });
});
