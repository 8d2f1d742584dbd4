import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import * as csstree from 'css-tree';
import { describe, expect, it } from 'vitest';
import { AppError } from '../contracts';
import { checkThemeCss, SECURE_UI_ATTRIBUTE, type CssUnsafeReason, type ThemeCssOptions } from './css-safety';

const PACKAGE_FILES = new Set(['fonts/serif.woff2', 'fonts/serif.woff', 'images/paper.png', 'css/bg.png']);
const options: ThemeCssOptions = {
  resolveResource: (path) => (PACKAGE_FILES.has(path) ? `data:image/png;base64,${btoa(path)}` : null),
};

function refusal(css: string, extra: ThemeCssOptions = {}): AppError {
  try {
    checkThemeCss(css, { ...options, ...extra });
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error(`accepted: ${css}`);
}

/**
 * Each trick, plain and disguised: CSS escapes (which the browser decodes),
 * comments (which it drops), odd case and vendor prefixes.
 */
const HOSTILE: ReadonlyArray<{ name: string; css: string; reason: CssUnsafeReason; line?: number }> = [
  { name: '@import', css: '@import url(https://evil.example/x.css);', reason: 'import' },
  { name: '@import with a string', css: '@import "theme2.css";', reason: 'import' },
  { name: '@import spelt with an escape', css: '@\\69mport "x.css";', reason: 'import' },
  { name: '@import in capitals with a comment', css: '@IMPORT/* hi */url(x.css);', reason: 'import' },
  {
    name: '@import inside @media, on line 3',
    css: '.a { color: red }\n\n@media screen { @import "x.css"; }',
    reason: 'import',
    line: 3,
  },
  { name: 'remote url()', css: 'a { background: url(https://evil.example/a.png) }', reason: 'remote_url' },
  {
    name: 'remote url() quoted',
    css: "a { background: url('HTTP://evil.example/a.png') }",
    reason: 'remote_url',
  },
  {
    name: 'protocol-relative url()',
    css: 'a { background: url(//evil.example/a.png) }',
    reason: 'remote_url',
  },
  {
    name: 'url() with a comment before it',
    css: 'a { background: /* innocent */ url( "https://evil.example/a.png" ) }',
    reason: 'remote_url',
  },
  {
    name: 'url spelt with an escaped function name',
    css: 'a { background: \\75 rl("https://evil.example/a.png") }',
    reason: 'remote_url',
  },
  {
    name: 'url with an escaped letter and an unquoted remote address',
    css: 'a { background: u\\72l(https://evil.example/a.png) }',
    reason: 'unparsed_url',
  },
  {
    name: 'escapes inside the URL',
    css: 'a { background: url("\\68 ttps://evil.example/a.png") }',
    reason: 'remote_url',
  },
  { name: 'blob: url', css: 'a { background: url(blob:https://x/1) }', reason: 'remote_url' },
  { name: 'javascript: url', css: 'a { background: url("javascript:alert(1)") }', reason: 'script_url' },
  {
    name: 'javascript: with an escaped tab in the scheme',
    css: 'a { background: url(java\\9 script:void) }',
    reason: 'script_url',
  },
  {
    name: 'javascript: spelt with escapes',
    css: 'a { background: url("\\6a\\61vascript:alert(1)") }',
    reason: 'script_url',
  },
  { name: 'vbscript: url', css: 'a { background: url(VBScript:msgbox) }', reason: 'script_url' },
  {
    name: 'data: URL that is HTML',
    css: 'a { background: url("data:text/html;base64,PHNjcmlwdD4=") }',
    reason: 'data_url',
  },
  {
    name: 'data: image beyond the size limit',
    css: `a { background: url("data:image/png;base64,${'A'.repeat(40 * 1024)}") }`,
    reason: 'data_url',
  },
  { name: 'expression()', css: 'a { width: expression(alert(1)) }', reason: 'expression' },
  { name: 'expression() escaped', css: 'a { width: e\\78pression(alert(1)) }', reason: 'expression' },
  { name: 'expression() in capitals', css: 'a { width: EXPRESSION(alert(1)) }', reason: 'expression' },
  { name: 'behavior', css: 'a { behavior: url(x.htc) }', reason: 'behavior' },
  { name: '-ms-behavior', css: 'a { -ms-behavior: url(x.htc) }', reason: 'behavior' },
  { name: 'behavior escaped with a comment', css: 'a { be\\68 avior/**/: url(x.htc) }', reason: 'behavior' },
  { name: '-moz-binding', css: 'a { -moz-binding: url(x.xml#xss) }', reason: 'binding' },
  { name: '-moz-binding escaped', css: 'a { -\\6doz-binding: url(x.xml#xss) }', reason: 'binding' },
  {
    name: '@font-face from a remote server',
    css: "@font-face { font-family: X; src: url('https://fonts.example/x.woff2') format('woff2') }",
    reason: 'remote_url',
  },
  {
    name: '@font-face with src() function',
    css: '@font-face { font-family: X; src: src("https://fonts.example/x.woff2") }',
    reason: 'remote_url',
  },
  {
    name: 'image-set with a remote address',
    css: 'a { background-image: image-set("https://evil.example/a.png" 1x) }',
    reason: 'remote_url',
  },
  {
    name: '-webkit-image-set with a remote address',
    css: 'a { background-image: -webkit-image-set("https://evil.example/a.png" 1x) }',
    reason: 'remote_url',
  },
  {
    name: 'image() with a remote address',
    css: 'a { background-image: image("https://evil.example/a.png") }',
    reason: 'remote_url',
  },
  {
    name: 'a custom property holding a remote URL',
    css: ':root { --bg: url(https://evil.example/a.png) } a { background: var(--bg) }',
    reason: 'remote_url',
  },
  { name: '-moz-element()', css: 'a { background: -moz-element(#prompt) }', reason: 'element_function' },
  {
    name: '@-moz-document',
    css: '@-moz-document url-prefix() { a { color: red } }',
    reason: 'forbidden_at_rule',
  },
  {
    name: 'the secure-UI marker',
    css: `[${SECURE_UI_ATTRIBUTE}] { display: none }`,
    reason: 'secure_ui_selector',
  },
  {
    name: 'the secure-UI marker escaped',
    css: '[data-secure-\\75 i] { opacity: 0 }',
    reason: 'secure_ui_selector',
  },
  { name: 'the permission prompt class', css: '.permission { opacity: 0 }', reason: 'secure_ui_selector' },
  {
    name: 'the prompt class escaped',
    css: '.per\\6dission button { opacity: 0 }',
    reason: 'secure_ui_selector',
  },
  {
    name: 'the prompt by its role',
    css: '[role="alertdialog"] { visibility: hidden }',
    reason: 'secure_ui_selector',
  },
  {
    name: 'the prompt buttons by test id',
    css: '[data-testid^="permission-"] { order: 3 }',
    reason: 'secure_ui_selector',
  },
  {
    name: 'the marker hidden inside :has()',
    css: `main:has(> [${SECURE_UI_ATTRIBUTE}]) { filter: blur(4px) }`,
    reason: 'secure_ui_selector',
  },
  {
    name: 'a fixed overlay',
    css: 'body::after { content: "Click Allow"; position: fixed; inset: 0 }',
    reason: 'fixed_position',
  },
  { name: 'a fixed overlay, escaped', css: 'body::after { position: f\\69xed }', reason: 'fixed_position' },
  { name: 'a z-index above the prompt', css: '.x { z-index: 2147483647 }', reason: 'z_index' },
  {
    name: 'a path that climbs out of the package',
    css: 'a { background: url(../../secret.png) }',
    reason: 'url_outside_package',
  },
  {
    name: 'an absolute path on the app',
    css: 'a { background: url(/icons/icon.png) }',
    reason: 'url_outside_package',
  },
  {
    name: 'a file the package lacks',
    css: 'a { background: url(images/none.png) }',
    reason: 'missing_resource',
  },
];

describe('checkThemeCss refuses hostile stylesheets', () => {
  it.each(HOSTILE)('$name', ({ css, reason, line }) => {
    const error = refusal(css);
    const outside = reason === 'url_outside_package' || reason === 'missing_resource';
    expect(error.code).toBe(outside ? 'THEME_RESOURCE_OUTSIDE_PACKAGE' : 'THEME_CSS_UNSAFE');
    expect(error.details.reason).toBe(reason);
    expect(error.details.line).toBe(line ?? 1);
    expect(typeof error.details.found).toBe('string');
    expect(error.message).toMatch(/^Line \d+: .+ \(found ".+"\)\.$/);
  });

  it('reports what it found, decoded, and every finding', () => {
    const error = refusal(
      'a {\n  width: e\\78pression(alert(1));\n  background: url(https://evil.example/x);\n}',
    );
    expect(error.details).toMatchObject({ reason: 'expression', line: 2, found: 'expression()' });
    expect(error.details.findings).toEqual([
      expect.objectContaining({ reason: 'expression', line: 2 }),
      expect.objectContaining({ reason: 'remote_url', line: 3, found: 'https://evil.example/x' }),
    ]);
  });

  it('refuses a stylesheet over the size limit and one with too many rules', () => {
    expect(refusal('a{color:red}'.repeat(100), { limits: { max_bytes: 1000 } }).details.reason).toBe(
      'too_large',
    );
    expect(refusal('a{color:red}'.repeat(11), { limits: { max_rules: 10 } }).details.reason).toBe(
      'too_many_rules',
    );
  });

  it('prefers an unsafe finding over a missing file', () => {
    const error = refusal('a { background: url(none.png) } b { width: expression(1) }');
    expect(error.code).toBe('THEME_CSS_UNSAFE');
    expect(error.details.reason).toBe('expression');
  });
});

const BENIGN_DIR = join(import.meta.dirname, '__fixtures__', 'benign');

describe('checkThemeCss accepts real-world-like themes', () => {
  const files = readdirSync(BENIGN_DIR).filter((name) => name.endsWith('.css'));

  it('has a benign corpus', () => {
    expect(files.length).toBeGreaterThanOrEqual(3);
  });

  it.each(files)('%s', (file) => {
    const source = readFileSync(join(BENIGN_DIR, file), 'utf8');
    const checked = checkThemeCss(source, options);
    expect(checked.rule_count).toBeGreaterThan(3);
    expect(checked.warnings).toEqual([]);
    // What comes out is well-formed CSS with the same rules.
    const errors: string[] = [];
    let rules = 0;
    csstree.walk(csstree.parse(checked.css, { onParseError: (error) => errors.push(error.message) }), {
      visit: 'Rule',
      enter: () => {
        rules += 1;
      },
    });
    expect(errors).toEqual([]);
    expect(rules).toBe(checked.rule_count);
  });

  it('inlines package files and lists them', () => {
    const source = readFileSync(join(BENIGN_DIR, 'typora-fonts.css'), 'utf8');
    const checked = checkThemeCss(source, options);
    expect(checked.resources).toEqual(['fonts/serif.woff', 'fonts/serif.woff2', 'images/paper.png']);
    expect(checked.css).not.toContain('fonts/serif.woff2');
    expect(checked.css).toContain(`url(data:image/png;base64,${btoa('fonts/serif.woff2')})`);
  });

  it('resolves URLs from the stylesheet folder', () => {
    const checked = checkThemeCss('a { background: url(bg.png) }', { ...options, baseDir: 'css' });
    expect(checked.resources).toEqual(['css/bg.png']);
  });

  it('keeps fragment references and small image data URLs as they are', () => {
    const checked = checkThemeCss(
      'a { fill: url(#grad); background: url("data:image/svg+xml,%3Csvg%3E%3C/svg%3E") }',
      options,
    );
    expect(checked.css).toContain('url(#grad)');
    expect(checked.css).toContain('data:image/svg+xml');
  });

  it('drops unsupported at-rules and unparseable selectors with a warning, keeping the rest', () => {
    const checked = checkThemeCss(
      '@namespace svg url(x);\n@unknown foo { a { color: red } }\n.b { color: blue }',
      options,
    );
    expect(checked.warnings).toEqual([
      'Line 1: @namespace is not supported and was ignored.',
      'Line 2: @unknown is not supported and was ignored.',
    ]);
    expect(checked.css).not.toContain('@namespace');
    expect(checked.css).not.toContain('@unknown');
    expect(checked.css).toContain('color:blue');
  });
});

describe('the checked stylesheet never reaches the security UI', () => {
  function selectorsOf(css: string): string[] {
    const selectors: string[] = [];
    csstree.walk(csstree.parse(css), {
      visit: 'Rule',
      enter(rule) {
        if (rule.prelude.type === 'SelectorList')
          rule.prelude.children.forEach((selector) => selectors.push(csstree.generate(selector)));
      },
    });
    return selectors;
  }

  it('guards every selector subject, before its pseudo-element', () => {
    const { css } = checkThemeCss('button, .a > b::after, p:before { opacity: 0 }', options);
    expect(selectorsOf(css)).toEqual([
      `button:not([${SECURE_UI_ATTRIBUTE}],[${SECURE_UI_ATTRIBUTE}] *)`,
      `.a>b:not([${SECURE_UI_ATTRIBUTE}],[${SECURE_UI_ATTRIBUTE}] *)::after`,
      `p:not([${SECURE_UI_ATTRIBUTE}],[${SECURE_UI_ATTRIBUTE}] *):before`,
    ]);
  });

  it('leaves keyframe selectors alone', () => {
    const { css } = checkThemeCss('@keyframes k { from { opacity: 0 } 50% { opacity: 1 } }', options);
    expect(css).toBe('@keyframes k{from{opacity:0}50%{opacity:1}}');
  });

  it('writes decoded names back encoded, so a decoded character cannot become syntax', () => {
    const { css } = checkThemeCss('a { colo\\72 : red; x\\;y: 1 }', options);
    expect(css).toContain('color:red');
    expect(css).toContain('x\\;y:1');
  });
});
