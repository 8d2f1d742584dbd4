// @vitest-environment jsdom
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as csstree from 'css-tree';
import { describe, expect, it } from 'vitest';
import { BUILTIN_TOKENS } from './builtin-themes';
import { checkThemeCss, SECURE_UI_ATTRIBUTE } from './css-safety';
import { secureUiCss, themeStylesheet } from './theme-css';

/** Custom properties per selector of a stylesheet, from the parsed tree. */
function tokensBySelector(css: string): Map<string, Record<string, string>> {
  const result = new Map<string, Record<string, string>>();
  csstree.walk(csstree.parse(css, { parseCustomProperty: false }), {
    visit: 'Rule',
    enter(rule) {
      const selector = csstree.generate(rule.prelude);
      const tokens = result.get(selector) ?? {};
      rule.block.children.forEach((child) => {
        if (child.type === 'Declaration' && child.property.startsWith('--'))
          tokens[child.property] = csstree.generate(child.value).trim();
      });
      result.set(selector, tokens);
    },
  });
  return result;
}

describe('built-in themes', () => {
  it('are the same custom properties app.css paints first', () => {
    const appCss = readFileSync(join(import.meta.dirname, '..', 'ui', 'app.css'), 'utf8');
    const rules = tokensBySelector(appCss);
    const normalize = (tokens: Record<string, string>) =>
      Object.fromEntries(Object.entries(tokens).map(([name, value]) => [name, value.replace(/\s+/g, ' ')]));
    const light = normalize(rules.get(':root')!);
    const dark = normalize(rules.get(":root[data-theme='dark']") ?? rules.get(':root[data-theme="dark"]')!);
    const systemDark = normalize(
      rules.get(':root:not([data-theme="light"])') ?? rules.get(":root:not([data-theme='light'])")!,
    );
    for (const [name, value] of Object.entries(BUILTIN_TOKENS.light)) expect(light[name], name).toBe(value);
    for (const [name, value] of Object.entries(BUILTIN_TOKENS.dark)) {
      expect(dark[name], name).toBe(value);
      expect(systemDark[name], name).toBe(value);
    }
  });

  it('give code blocks and tables their own dark colours', () => {
    const css = themeStylesheet({ is_dark: true, css: null });
    expect(css).toContain(`--color-code-bg: ${BUILTIN_TOKENS.dark['--color-code-bg']};`);
    expect(css).toContain('.markdown-preview pre');
    expect(css).toContain('border: 1px solid var(--color-table-border)');
    expect(css).toContain('color-scheme: dark');
  });
});

describe('the guard on theme selectors', () => {
  it('matches elements outside the security UI and none inside it', () => {
    document.body.innerHTML = `
      <main><button id="outside">Save</button><p class="note">text</p></main>
      <div ${SECURE_UI_ATTRIBUTE} role="alertdialog"><p id="prompt">Allow?</p><button id="allow">Allow</button></div>`;
    const { css } = checkThemeCss('button, main p, div > p, * { opacity: 0 }');
    const matched = new Set<string>();
    csstree.walk(csstree.parse(css), {
      visit: 'Rule',
      enter(rule) {
        if (rule.prelude.type !== 'SelectorList') return;
        rule.prelude.children.forEach((selector) => {
          for (const element of document.querySelectorAll(csstree.generate(selector)))
            matched.add(element.id || element.tagName);
        });
      },
    });
    expect(matched.has('outside')).toBe(true);
    expect(matched.has('P')).toBe(true);
    expect(matched.has('allow')).toBe(false);
    expect(matched.has('prompt')).toBe(false);
    expect(matched.has('DIV')).toBe(false);
  });

  it('gives the security UI back the built-in tokens and generic fonts', () => {
    const css = secureUiCss(true);
    expect(css).toContain(`[${SECURE_UI_ATTRIBUTE}] {`);
    expect(css).toContain(`--color-text: ${BUILTIN_TOKENS.dark['--color-text']};`);
    expect(css).toContain('font-family: system-ui, sans-serif;');
  });
});
