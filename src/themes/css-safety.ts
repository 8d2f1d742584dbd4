import * as csstree from 'css-tree';
import { AppError, type ErrorCode } from '../contracts';
import { MAX_THEME_Z_INDEX, SECURE_UI_ATTRIBUTE } from './secure-ui';

/**
 * Theme stylesheets come from strangers. They are parsed by a real CSS parser
 * (css-tree): comments vanish and escapes are decoded before any name is
 * compared, so `@\69mport` or `u\72l(` are seen as what the browser will see.
 * The checked stylesheet is generated back from the tree, never patched text.
 */

export interface CssSafetyLimits {
  /** UTF-8 bytes of the stylesheet. */
  max_bytes: number;
  /** Style rules, keyframes included. */
  max_rules: number;
  /** A `data:` URL written inline in the CSS. */
  max_data_url_bytes: number;
  /** The highest z-index a theme may use: the app's security UI sits above it. */
  max_z_index: number;
}

export const DEFAULT_CSS_LIMITS: CssSafetyLimits = {
  max_bytes: 512 * 1024,
  max_rules: 5000,
  max_data_url_bytes: 32 * 1024,
  max_z_index: MAX_THEME_Z_INDEX,
};

export type CssUnsafeReason =
  | 'too_large'
  | 'too_many_rules'
  | 'import'
  | 'forbidden_at_rule'
  | 'remote_url'
  | 'script_url'
  | 'data_url'
  | 'url_outside_package'
  | 'missing_resource'
  | 'unparsed_url'
  | 'expression'
  | 'behavior'
  | 'binding'
  | 'element_function'
  | 'secure_ui_selector'
  | 'fixed_position'
  | 'z_index';

export interface CssFinding {
  reason: CssUnsafeReason;
  /** What was found, decoded (escapes and comments gone), shortened. */
  found: string;
  line: number;
  column: number;
}

export interface ThemeCssOptions {
  /** Folder of the stylesheet inside the package ('' for the root): relative URLs resolve from here. */
  baseDir?: string;
  /**
   * A package file (normalized path) as the URL to put in the checked CSS (a
   * `data:` URL of the checked bytes), or null when the package has no such file.
   */
  resolveResource?: (path: string) => string | null;
  limits?: Partial<CssSafetyLimits>;
}

export interface CheckedCss {
  /** The generated stylesheet: safe URLs inlined, security UI excluded from every rule. */
  css: string;
  /** Package files the stylesheet uses. */
  resources: string[];
  /** Parts that were dropped (unparseable or unsupported), one line each. */
  warnings: string[];
  rule_count: number;
}

export { SECURE_UI_ATTRIBUTE };
/** Class names and attribute values of that UI a theme selector may not name. */
const SECURE_UI_NAMES = ['permission', 'secure-ui', 'alertdialog', 'confirm-dialog'];

/** Every theme rule's subject gets this, so no rule can match inside the security UI. */
const SECURE_UI_GUARD = `:not([${SECURE_UI_ATTRIBUTE}],[${SECURE_UI_ATTRIBUTE}] *)`;

const KEYFRAMES = new Set(['keyframes']);
const ALLOWED_AT_RULES = new Set([
  'media',
  'supports',
  'font-face',
  'keyframes',
  'layer',
  'container',
  'page',
  'charset',
  'font-feature-values',
  'counter-style',
  'property',
  'starting-style',
]);
const FORBIDDEN_AT_RULES = new Set(['document']);
/** Functions whose string arguments are URLs. */
const URL_FUNCTIONS = new Set(['url', 'src']);
/** Functions whose string arguments are image URLs too. */
const IMAGE_SET_FUNCTIONS = new Set(['image-set', 'image']);
const SAFE_DATA_MIME = new Set([
  'image/png',
  'image/jpeg',
  'image/gif',
  'image/webp',
  'image/avif',
  'image/svg+xml',
  'font/woff',
  'font/woff2',
  'font/ttf',
  'font/otf',
  'application/font-woff',
]);
const LEGACY_PSEUDO_ELEMENTS = new Set(['before', 'after', 'first-line', 'first-letter']);

const FINDING_TEXT_LIMIT = 120;
const REPORTED_FINDINGS = 20;

function decodeName(name: string): string {
  return csstree.ident.decode(name);
}

/** `-webkit-image-set` → `image-set`: vendor prefixes do not change what a name does. */
function unprefixed(name: string): string {
  if (name.startsWith('--')) return name;
  return name.slice(csstree.vendorPrefix(name).length);
}

function shorten(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > FINDING_TEXT_LIMIT ? `${flat.slice(0, FINDING_TEXT_LIMIT)}…` : flat;
}

function position(node: csstree.CssNode): { line: number; column: number } {
  return { line: node.loc?.start.line ?? 0, column: node.loc?.start.column ?? 0 };
}

/** Resolves `path` against `baseDir` inside the package; null when it climbs out. */
function resolveInside(baseDir: string, path: string): string | null {
  const parts = baseDir === '' ? [] : baseDir.split('/');
  for (const segment of path.split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') {
      if (parts.length === 0) return null;
      parts.pop();
    } else parts.push(segment);
  }
  return parts.length === 0 ? null : parts.join('/');
}

type UrlVerdict = { ok: true; url: string; resource: string | null } | { ok: false; reason: CssUnsafeReason };

function checkUrl(raw: string, options: ThemeCssOptions, limits: CssSafetyLimits): UrlVerdict {
  // Browsers drop ASCII whitespace and control characters inside a scheme
  // (`java\tscript:`), so compare without them.
  const value = raw.trim();
  const compact = [...value].filter((char) => char.charCodeAt(0) > 0x20).join('');
  const lower = compact.toLowerCase();
  if (lower === '') return { ok: false, reason: 'url_outside_package' };
  if (lower.startsWith('#')) return { ok: true, url: value, resource: null };
  const scheme = /^([a-z][a-z0-9+.-]*):/.exec(lower)?.[1];
  if (scheme !== undefined) {
    if (scheme === 'javascript' || scheme === 'vbscript') return { ok: false, reason: 'script_url' };
    if (scheme === 'data') {
      const mime = lower.slice(5).split(/[;,]/)[0] ?? '';
      if (!SAFE_DATA_MIME.has(mime) || new TextEncoder().encode(value).length > limits.max_data_url_bytes)
        return { ok: false, reason: 'data_url' };
      return { ok: true, url: value, resource: null };
    }
    return { ok: false, reason: 'remote_url' };
  }
  if (lower.startsWith('//') || lower.includes('\\')) return { ok: false, reason: 'remote_url' };
  if (lower.startsWith('/')) return { ok: false, reason: 'url_outside_package' };
  let path = compact.split(/[?#]/)[0] ?? '';
  try {
    path = decodeURIComponent(path);
  } catch {
    return { ok: false, reason: 'url_outside_package' };
  }
  if (path.includes('\\') || path.includes('\0')) return { ok: false, reason: 'url_outside_package' };
  const resolved = resolveInside(options.baseDir ?? '', path);
  if (resolved === null) return { ok: false, reason: 'url_outside_package' };
  const url = options.resolveResource?.(resolved) ?? null;
  if (url === null) return { ok: false, reason: 'missing_resource' };
  return { ok: true, url, resource: resolved };
}

const REASON_TEXT: Record<CssUnsafeReason, string> = {
  too_large: 'the stylesheet is larger than allowed',
  too_many_rules: 'the stylesheet has more rules than allowed',
  import: '@import is not allowed',
  forbidden_at_rule: 'this at-rule is not allowed',
  remote_url: 'URLs outside the package are not allowed',
  script_url: 'script URLs are not allowed',
  data_url: 'this data: URL is not an image or font, or is too large',
  url_outside_package: 'the URL points outside the package',
  missing_resource: 'the URL names a file the package does not have',
  unparsed_url: 'a URL that could not be parsed',
  expression: 'expression() is not allowed',
  behavior: 'behavior is not allowed',
  binding: '-moz-binding is not allowed',
  element_function: 'element() is not allowed',
  secure_ui_selector: "selectors may not target the app's security prompts",
  fixed_position: "position: fixed is not allowed (it could cover the app's prompts)",
  z_index: "a z-index this high is not allowed (it could cover the app's prompts)",
};

function codeFor(finding: CssFinding): ErrorCode {
  return finding.reason === 'url_outside_package' || finding.reason === 'missing_resource'
    ? 'THEME_RESOURCE_OUTSIDE_PACKAGE'
    : 'THEME_CSS_UNSAFE';
}

function unsafeError(findings: CssFinding[]): AppError {
  // An unsafe construct outranks a merely missing file.
  const first = findings.find((finding) => codeFor(finding) === 'THEME_CSS_UNSAFE') ?? findings[0]!;
  return new AppError(
    codeFor(first),
    `Line ${first.line}: ${REASON_TEXT[first.reason]} (found "${first.found}").`,
    {
      reason: first.reason,
      line: first.line,
      column: first.column,
      found: first.found,
      findings: findings.slice(0, REPORTED_FINDINGS),
    },
  );
}

/** Selector parts that name the security UI (after decoding escapes). */
function namesSecureUi(name: string): boolean {
  const lower = name.toLowerCase();
  return lower === SECURE_UI_ATTRIBUTE || SECURE_UI_NAMES.some((marker) => lower.includes(marker));
}

function isPseudoElement(node: csstree.CssNode): boolean {
  if (node.type === 'PseudoElementSelector') return true;
  return (
    node.type === 'PseudoClassSelector' && LEGACY_PSEUDO_ELEMENTS.has(decodeName(node.name).toLowerCase())
  );
}

/** Adds the guard to the selector's subject (its last compound), before any pseudo-element. */
function guardSubject(selector: csstree.Selector, guard: csstree.CssNode): void {
  const parts = selector.children.toArray();
  let at = parts.length;
  for (let index = parts.length - 1; index >= 0 && parts[index]!.type !== 'Combinator'; index -= 1) {
    if (isPseudoElement(parts[index]!)) at = index;
  }
  parts.splice(at, 0, csstree.clone(guard));
  selector.children = new csstree.List<csstree.CssNode>().fromArray(parts);
}

/** Tokens of text the parser could not structure: anything URL-like or scripted there is refused. */
function scanRaw(
  value: string,
  at: { line: number; column: number },
  report: (finding: CssFinding) => void,
  classify: (url: string) => UrlVerdict,
): void {
  csstree.tokenize(value, (type, start, end) => {
    const text = value.slice(start, end);
    const finding = (reason: CssUnsafeReason): void => report({ reason, found: shorten(text), ...at });
    if (type === csstree.tokenTypes.Url) {
      // Where the parser gave up the URL cannot be rewritten: refused either way, with the sharper reason.
      const verdict = classify(csstree.url.decode(text));
      finding(verdict.ok ? 'unparsed_url' : verdict.reason);
    } else if (type === csstree.tokenTypes.BadUrl) finding('unparsed_url');
    else if (type === csstree.tokenTypes.Function) {
      const name = unprefixed(decodeName(text.slice(0, -1)).toLowerCase());
      if (URL_FUNCTIONS.has(name) || IMAGE_SET_FUNCTIONS.has(name)) finding('unparsed_url');
      else if (name.endsWith('expression')) finding('expression');
      else if (name === 'element') finding('element_function');
    } else if (type === csstree.tokenTypes.Ident) {
      const name = decodeName(text).toLowerCase();
      if (namesSecureUi(name)) finding('secure_ui_selector');
      if (name === 'javascript' || name === 'vbscript') finding('script_url');
    } else if (type === csstree.tokenTypes.String) {
      const decoded = csstree.string
        .decode(text)
        .toLowerCase()
        .split('')
        .filter((char) => char > ' ')
        .join('');
      if (decoded.includes('javascript:') || decoded.includes('vbscript:')) finding('script_url');
    } else if (type === csstree.tokenTypes.AtKeyword) {
      const name = unprefixed(decodeName(text.slice(1)).toLowerCase());
      if (name === 'import') finding('import');
    }
  });
}

/**
 * Checks a theme stylesheet and generates the version the app may apply.
 * Throws THEME_CSS_UNSAFE (or THEME_RESOURCE_OUTSIDE_PACKAGE for a URL that
 * leaves the package) with the line and what was found.
 */
export function checkThemeCss(source: string, options: ThemeCssOptions = {}): CheckedCss {
  const limits: CssSafetyLimits = { ...DEFAULT_CSS_LIMITS, ...options.limits };
  const size = new TextEncoder().encode(source).length;
  if (size > limits.max_bytes) {
    throw unsafeError([
      { reason: 'too_large', found: `${size} bytes > ${limits.max_bytes}`, line: 1, column: 1 },
    ]);
  }

  const warnings: string[] = [];
  const findings: CssFinding[] = [];
  const report = (finding: CssFinding): void => {
    findings.push(finding);
  };
  const ast = csstree.parse(source, {
    positions: true,
    parseCustomProperty: true,
    onParseError: (error) => {
      warnings.push(`Line ${error.line}: CSS that could not be parsed was ignored.`);
    },
  });
  const guard = csstree.parse(SECURE_UI_GUARD, { context: 'selector' }) as csstree.Selector;
  const guardNode = guard.children.first!;
  const resources = new Set<string>();
  let ruleCount = 0;
  const toGuard: csstree.Selector[] = [];
  const removals: Array<{ list: csstree.List<csstree.CssNode>; item: csstree.ListItem<csstree.CssNode> }> =
    [];

  const classify = (raw: string): UrlVerdict =>
    checkUrl(raw, { ...options, resolveResource: () => 'data:,' }, limits);
  const checkUrlAt = (node: csstree.CssNode, raw: string): string | null => {
    const verdict = checkUrl(raw, options, limits);
    if (!verdict.ok) {
      report({ reason: verdict.reason, found: shorten(raw), ...position(node) });
      return null;
    }
    if (verdict.resource !== null) resources.add(verdict.resource);
    return verdict.url;
  };

  csstree.walk(ast, {
    enter: function (
      this: csstree.WalkContext,
      node: csstree.CssNode,
      item: csstree.ListItem<csstree.CssNode>,
      list: csstree.List<csstree.CssNode>,
    ) {
      switch (node.type) {
        case 'Atrule': {
          const name = decodeName(node.name).toLowerCase();
          const base = unprefixed(name);
          node.name = name;
          if (base === 'import') report({ reason: 'import', found: `@${name}`, ...position(node) });
          else if (FORBIDDEN_AT_RULES.has(base))
            report({ reason: 'forbidden_at_rule', found: `@${name}`, ...position(node) });
          else if (!ALLOWED_AT_RULES.has(base)) {
            warnings.push(`Line ${position(node).line}: @${name} is not supported and was ignored.`);
            if (list) removals.push({ list, item });
            return csstree.walk.skip;
          }
          return undefined;
        }
        case 'Rule': {
          ruleCount += 1;
          if (node.prelude.type === 'Raw') {
            scanRaw(node.prelude.value, position(node), report, classify);
            warnings.push(`Line ${position(node).line}: a selector that could not be parsed was ignored.`);
            if (list) removals.push({ list, item });
            return csstree.walk.skip;
          }
          const atrule = this.atrule;
          if (atrule && KEYFRAMES.has(unprefixed(atrule.name))) return undefined;
          // Guarded after the walk, so the walk does not check the guard itself.
          node.prelude.children.forEach((selector) => {
            if (selector.type === 'Selector') toGuard.push(selector);
          });
          return undefined;
        }
        case 'ClassSelector':
        case 'IdSelector':
        case 'TypeSelector': {
          const name = decodeName(node.name);
          if (namesSecureUi(name)) report({ reason: 'secure_ui_selector', found: name, ...position(node) });
          return undefined;
        }
        case 'AttributeSelector': {
          const attribute = decodeName(node.name.name);
          const value =
            node.value?.type === 'String'
              ? node.value.value
              : node.value?.type === 'Identifier'
                ? decodeName(node.value.name)
                : '';
          if (namesSecureUi(attribute) || namesSecureUi(value))
            report({
              reason: 'secure_ui_selector',
              found: shorten(csstree.generate(node)),
              ...position(node),
            });
          return undefined;
        }
        case 'Declaration': {
          const property = decodeName(node.property);
          const lower = property.toLowerCase();
          // Written back encoded: a decoded `;` or `@` must not become syntax.
          if (!lower.startsWith('--')) node.property = csstree.ident.encode(lower);
          const base = unprefixed(lower);
          if (base === 'behavior') report({ reason: 'behavior', found: property, ...position(node) });
          if (base === 'binding') report({ reason: 'binding', found: property, ...position(node) });
          if (base === 'position' && node.value.type === 'Value') {
            const fixed = node.value.children.some(
              (child) => child.type === 'Identifier' && decodeName(child.name).toLowerCase() === 'fixed',
            );
            if (fixed) report({ reason: 'fixed_position', found: 'position: fixed', ...position(node) });
          }
          if (base === 'z-index' && node.value.type === 'Value') {
            const number = node.value.children.first;
            if (number?.type === 'Number' && Math.abs(Number(number.value)) > limits.max_z_index)
              report({ reason: 'z_index', found: `z-index: ${number.value}`, ...position(node) });
          }
          return undefined;
        }
        case 'Function': {
          const name = unprefixed(decodeName(node.name).toLowerCase());
          if (name.endsWith('expression')) {
            report({ reason: 'expression', found: `${name}()`, ...position(node) });
            return csstree.walk.skip;
          }
          if (name === 'element') {
            report({ reason: 'element_function', found: `${name}()`, ...position(node) });
            return csstree.walk.skip;
          }
          if (URL_FUNCTIONS.has(name)) {
            const argument = node.children.first;
            if (node.children.size !== 1 || argument?.type !== 'String') {
              report({ reason: 'unparsed_url', found: shorten(csstree.generate(node)), ...position(node) });
              return csstree.walk.skip;
            }
            const url = checkUrlAt(node, argument.value);
            // Rewritten as a plain url() so no alias of it reaches the page.
            if (url !== null && list) list.replace(item, list.createItem({ type: 'Url', value: url }));
            return csstree.walk.skip;
          }
          if (IMAGE_SET_FUNCTIONS.has(name)) {
            node.name = name;
            node.children.forEach((child) => {
              if (child.type === 'String') {
                const url = checkUrlAt(child, child.value);
                if (url !== null) child.value = url;
              }
            });
          }
          return undefined;
        }
        case 'Url': {
          const url = checkUrlAt(node, node.value);
          if (url !== null) node.value = url;
          return undefined;
        }
        case 'Raw': {
          scanRaw(node.value, position(node), report, classify);
          return undefined;
        }
        default:
          return undefined;
      }
    },
  });

  if (ruleCount > limits.max_rules) {
    findings.unshift({
      reason: 'too_many_rules',
      found: `${ruleCount} rules > ${limits.max_rules}`,
      line: 1,
      column: 1,
    });
  }
  if (findings.length > 0) throw unsafeError(findings);
  for (const { list, item } of removals) list.remove(item);
  for (const selector of toGuard) guardSubject(selector, guardNode);
  return { css: csstree.generate(ast), resources: [...resources].sort(), warnings, rule_count: ruleCount };
}
