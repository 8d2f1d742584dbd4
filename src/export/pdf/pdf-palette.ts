import { generate, parse, walk, type CssNode } from 'css-tree';
import { rgb, type RGB } from 'pdf-lib';
import { BUILTIN_TOKENS, type ThemeTokens } from '../../themes/builtin-themes';

/** The colours the PDF is drawn in. */
export interface PdfPalette {
  /** Painted under every page; absent, the page stays paper white. */
  readonly background?: RGB;
  readonly text: RGB;
  readonly heading: RGB;
  readonly link: RGB;
  readonly muted: RGB;
  readonly codeBackground: RGB;
  readonly codeText: RGB;
  readonly inlineCode: RGB;
  readonly tableBorder: RGB;
  /** Absent, header cells are not tinted. */
  readonly tableHeaderBackground?: RGB;
  readonly quoteBar: RGB;
  readonly rule: RGB;
  /** Behind `==highlighted==` text, as the preview's `mark`. */
  readonly highlight: RGB;
}

/** Without a theme the PDF keeps its own print colours. */
export const DEFAULT_PDF_PALETTE: PdfPalette = {
  text: rgb(0.12, 0.16, 0.22),
  heading: rgb(0.12, 0.16, 0.22),
  link: rgb(0.15, 0.39, 0.92),
  muted: rgb(0.42, 0.45, 0.5),
  codeBackground: rgb(0.95, 0.96, 0.97),
  codeText: rgb(0.12, 0.16, 0.22),
  inlineCode: rgb(0.6, 0.1, 0.3),
  tableBorder: rgb(0.85, 0.87, 0.9),
  quoteBar: rgb(0.85, 0.87, 0.9),
  rule: rgb(0.85, 0.87, 0.9),
  // The light theme's highlight (`--color-warning-soft`).
  highlight: rgb(1, 0.957, 0.839),
};

/**
 * Whether a selector matches the document root: `:root` or `html`, alone or
 * narrowed by `:not(...)` (the theme's CSS safety guards every selector that way,
 * and the root is never what such a guard leaves out).
 */
function isRootSelector(selector: CssNode): boolean {
  if (selector.type !== 'Selector') return false;
  let root = false;
  for (const part of selector.children) {
    if (
      (part.type === 'PseudoClassSelector' && part.name === 'root') ||
      (part.type === 'TypeSelector' && part.name.toLowerCase() === 'html')
    )
      root = true;
    else if (!(part.type === 'PseudoClassSelector' && part.name === 'not')) return false;
  }
  return root;
}

interface Rgba {
  r: number;
  g: number;
  b: number;
  a: number;
}

/**
 * The `--token: value` declarations of the root rules, in cascade order (a later
 * one wins). Rules inside at-rules (`@media`, `@supports`) depend on the reader's
 * screen, so they are left out.
 */
export function rootCustomProperties(css: string): Map<string, string> {
  const tokens = new Map<string, string>();
  const sheet = parse(css, { context: 'stylesheet', parseValue: false, parseCustomProperty: false });
  if (sheet.type !== 'StyleSheet') return tokens;
  sheet.children.forEach((node) => {
    if (node.type !== 'Rule' || node.prelude.type !== 'SelectorList') return;
    if (!node.prelude.children.some(isRootSelector)) return;
    node.block.children.forEach((declaration) => {
      if (declaration.type !== 'Declaration' || !declaration.property.startsWith('--')) return;
      tokens.set(declaration.property, generate(declaration.value).trim());
    });
  });
  return tokens;
}

function channel(node: CssNode, scale: number): number | undefined {
  const value =
    node.type === 'Number'
      ? Number(node.value) / scale
      : node.type === 'Percentage'
        ? Number(node.value) / 100
        : NaN;
  return Number.isFinite(value) ? Math.min(1, Math.max(0, value)) : undefined;
}

/** A hex, rgb() or rgba() colour; anything else (var(), names, other spaces) is undefined. */
export function parseCssColor(value: string): Rgba | undefined {
  let ast: CssNode;
  try {
    ast = parse(value, { context: 'value' });
  } catch {
    return undefined;
  }
  if (ast.type !== 'Value' || ast.children.size !== 1) return undefined;
  const node = ast.children.first;
  if (node?.type === 'Hash') {
    const hex = node.value;
    if (!/^(?:[0-9a-f]{3,4}|[0-9a-f]{6}|[0-9a-f]{8})$/i.test(hex)) return undefined;
    const digits = hex.length <= 4 ? Array.from(hex, (digit) => digit + digit) : (hex.match(/../g) ?? []);
    const [r = 0, g = 0, b = 0, a = 255] = digits.map((pair) => Number.parseInt(pair, 16) / 255);
    return { r, g, b, a: a === 255 ? 1 : a };
  }
  if (node?.type === 'Function' && /^rgba?$/i.test(node.name)) {
    let invalid = false;
    const parts: CssNode[] = [];
    walk(node, {
      enter(child: CssNode) {
        if (child === node) return;
        if (child.type === 'Number' || child.type === 'Percentage') parts.push(child);
        else if (child.type !== 'Operator' && child.type !== 'WhiteSpace') invalid = true;
      },
    });
    if (invalid || (parts.length !== 3 && parts.length !== 4)) return undefined;
    const [r, g, b] = parts.slice(0, 3).map((part) => channel(part, 255));
    const a = parts[3] ? channel(parts[3], 1) : 1;
    if (r === undefined || g === undefined || b === undefined || a === undefined) return undefined;
    return { r, g, b, a };
  }
  return undefined;
}

/** A translucent colour as it looks over `under` (PDF text has no alpha here). */
function over(color: Rgba, under: RGB): RGB {
  const mix = (top: number, bottom: number) => top * color.a + bottom * (1 - color.a);
  return rgb(mix(color.r, under.red), mix(color.g, under.green), mix(color.b, under.blue));
}

/**
 * The palette a theme's stylesheet asks for: its root custom properties, each
 * read as a colour, else the built-in light or dark token of the same name.
 */
export function paletteFromThemeCss(css: string, isDark: boolean): PdfPalette {
  const fallback: ThemeTokens = BUILTIN_TOKENS[isDark ? 'dark' : 'light'];
  let declared: Map<string, string>;
  try {
    declared = rootCustomProperties(css);
  } catch {
    declared = new Map();
  }
  const white = rgb(1, 1, 1);
  // A token may name another (`--color-heading: var(--color-accent)`): followed a few steps,
  // through the theme's tokens, then the built-in ones.
  const declaredColor = (name: string, depth = 0): Rgba | undefined => {
    const value = declared.get(name) ?? (depth > 0 ? fallback[name as `--${string}`] : undefined) ?? '';
    const reference = /^var\(\s*(--[\w-]+)\s*\)$/.exec(value);
    if (reference?.[1] && depth < 4) return declaredColor(reference[1], depth + 1);
    return parseCssColor(value);
  };
  const read = (name: `--${string}`, under: RGB): RGB => {
    const color = declaredColor(name) ?? parseCssColor(fallback[name] ?? '') ?? parseCssColor('#000');
    return over(color as Rgba, under);
  };
  const background = read('--color-bg', white);
  const color = (name: `--${string}`) => read(name, background);
  const text = color('--color-text');
  const paper = background.red === 1 && background.green === 1 && background.blue === 1;
  // The built-in themes set no heading colour: headings are then in the text colour, as in
  // the note's own stylesheet (`var(--color-heading, var(--color-text))`).
  const headingColor = declaredColor('--color-heading');
  return {
    ...(!paper && { background }),
    text,
    heading: headingColor ? over(headingColor, background) : text,
    link: color('--color-accent'),
    muted: color('--color-text-muted'),
    codeBackground: color('--color-code-bg'),
    codeText: color('--color-code-text'),
    inlineCode: color('--color-code-text'),
    tableBorder: color('--color-table-border'),
    tableHeaderBackground: color('--color-table-header-bg'),
    quoteBar: color('--color-quote-border'),
    rule: color('--color-border'),
    // The preview's `mark`: a theme's own highlight colour, else its soft warning tint.
    highlight: declaredColor('--color-highlight')
      ? color('--color-highlight')
      : color('--color-warning-soft'),
  };
}
