import DOMPurify from 'dompurify';
import type { Config, DOMPurify as DOMPurifyInstance, WindowLike } from 'dompurify';
import { noteImageId } from '../../core/note-images';

export interface Sanitizer {
  /** Rendered Markdown (with KaTeX, highlight.js and raw HTML from the note) to safe HTML. */
  sanitizeHtml(html: string): string;
  /** A Mermaid (or other generated) SVG document to a safe inline SVG. */
  sanitizeSvg(svg: string): string;
}

// Elements that run code, load documents, restyle the page or collect input. Most
// are outside DOMPurify's defaults already; listing them keeps the policy readable
// and survives a change of defaults.
const FORBIDDEN_HTML_TAGS = [
  'script',
  'style',
  'iframe',
  'frame',
  'frameset',
  'object',
  'embed',
  'applet',
  'form',
  'button',
  'select',
  'textarea',
  'option',
  'optgroup',
  'datalist',
  'dialog',
  'base',
  'link',
  'meta',
  'foreignobject',
];

const HTML_CONFIG: Config = {
  // KaTeX's MathML wraps the formula in <semantics> with the TeX in <annotation>;
  // DOMPurify leaves both out by default. <annotation-xml> stays out: it is an
  // HTML integration point.
  ADD_TAGS: ['semantics', 'annotation'],
  // Only the data attributes the preview itself emits; arbitrary data-* from a note
  // could drive other code on the page.
  ALLOW_DATA_ATTR: false,
  // data-remote-src/data-alt: the remote-image placeholder (loaded only on click);
  // data-footnote*: a footnote's reference, definition and way back (scrolled by the preview);
  // data-note-image: a picture stored with the note, by attachment id (the preview fills its src);
  // data-wikilink-fragment: the heading or block a wikilink points at (the preview scrolls to it);
  // data-callout: an Obsidian callout's kind (its colours); data-block-id: a block's `^id`.
  ADD_ATTR: [
    'data-source-line',
    'data-mermaid-source',
    'data-wikilink',
    'data-wikilink-fragment',
    'data-remote-src',
    'data-alt',
    'data-footnote-ref',
    'data-footnote',
    'data-footnote-back',
    'data-note-image',
    'data-callout',
    'data-block-id',
  ],
  FORBID_TAGS: FORBIDDEN_HTML_TAGS,
  FORBID_ATTR: ['srcdoc', 'action', 'formaction', 'ping'],
  ALLOW_UNKNOWN_PROTOCOLS: false,
};

const SVG_CONFIG: Config = {
  USE_PROFILES: { svg: true, svgFilters: true },
  // Mermaid runs with htmlLabels off, so a <foreignObject> (HTML inside SVG) is
  // never legitimate here.
  FORBID_TAGS: ['script', 'foreignobject', 'iframe', 'object', 'embed'],
  ALLOW_UNKNOWN_PROTOCOLS: false,
};

const URL_ATTRIBUTES = new Set([
  'href',
  'xlink:href',
  'src',
  'action',
  'formaction',
  'poster',
  'background',
  'cite',
]);
// Raster formats only: data:image/svg+xml can carry script when opened on its own.
const SAFE_DATA_IMAGE = /^data:image\/(?:png|jpe?g|gif|webp)[;,]/;
// Inline styles are needed by KaTeX (sizes, offsets) and tables (alignment), but
// must not fetch (url, @import), run legacy script (expression, behavior, binding)
// or lift an element over the app's own UI (fixed/absolute/sticky positioning).
const UNSAFE_INLINE_STYLE =
  /url\s*\(|image-set\s*\(|@import|expression\s*\(|behavior\s*:|-moz-binding|position\s*:\s*(?:fixed|absolute|sticky)/i;
// Generated SVG may reference its own gradients and markers (url(#id)) and nothing else.
const EXTERNAL_CSS_URL = /url\s*\(\s*(['"]?)\s*(?!#)[^)]*\)/gi;

/** Lower-cased, with the whitespace and control characters browsers ignore in schemes removed. */
function normalizeUrl(value: string): string {
  // eslint-disable-next-line no-control-regex
  return value.replace(/[\u0000-\u0020\u007f-\u009f]/g, '').toLowerCase();
}

function isUrlAllowed(
  tagName: string,
  attributeName: string,
  value: string,
  allowDataImages: boolean,
): boolean {
  const url = normalizeUrl(value);
  if (url.startsWith('javascript:') || url.startsWith('vbscript:')) return false;
  if (url.startsWith('data:')) {
    return allowDataImages && tagName === 'img' && attributeName === 'src' && SAFE_DATA_IMAGE.test(url);
  }
  return true;
}

function isExternalUrl(href: string): boolean {
  return /^(?:https?:)?\/\//i.test(href.trim());
}

function remoteHost(src: string): string {
  try {
    return new URL(src.trim().startsWith('//') ? `https:${src.trim()}` : src.trim()).host;
  } catch {
    return src.slice(0, 60);
  }
}

/** Swaps a remote-image placeholder for the image it stands for (the reader asked for it). */
export function loadRemoteImage(placeholder: Element): void {
  const src = placeholder.getAttribute('data-remote-src');
  if (!src || !isExternalUrl(src)) return;
  const image = placeholder.ownerDocument.createElement('img');
  image.src = src;
  image.alt = placeholder.getAttribute('data-alt') ?? '';
  image.referrerPolicy = 'no-referrer';
  placeholder.replaceWith(image);
}

function scrubCss(css: string): string {
  return css.replace(/@import[^;]*;?/gi, '').replace(EXTERNAL_CSS_URL, 'none');
}

function createHtmlPurifier(window: WindowLike): DOMPurifyInstance {
  const purify = DOMPurify(window);
  purify.addHook('beforeSanitizeAttributes', (node) => {
    // A picture stored with the note (`attachment:<id>`) keeps only its id: the
    // preview puts an object URL of the stored bytes in its src.
    if (node.nodeName.toLowerCase() !== 'img') return;
    const id = noteImageId(node.getAttribute('src') ?? '');
    node.removeAttribute('data-note-image');
    if (id === null) return;
    node.removeAttribute('src');
    node.setAttribute('data-note-image', id);
  });
  purify.addHook('uponSanitizeAttribute', (node, event) => {
    const tagName = node.nodeName.toLowerCase();
    const name = event.attrName;
    if (name.startsWith('on')) event.keepAttr = false;
    else if (URL_ATTRIBUTES.has(name) && !isUrlAllowed(tagName, name, event.attrValue, true))
      event.keepAttr = false;
    else if (name === 'style' && UNSAFE_INLINE_STYLE.test(event.attrValue)) event.keepAttr = false;
  });
  purify.addHook('afterSanitizeAttributes', (node) => {
    const tagName = node.nodeName.toLowerCase();
    if (tagName === 'a' && node.namespaceURI === 'http://www.w3.org/1999/xhtml') {
      const href = node.getAttribute('href');
      if (href === null) return;
      // Nothing a note links to may reach back into the app through window.opener,
      // or learn which note linked to it.
      node.setAttribute('rel', 'noopener noreferrer');
      if (isExternalUrl(href)) node.setAttribute('target', '_blank');
      else node.removeAttribute('target');
    } else if (tagName === 'img' && isExternalUrl(node.getAttribute('src') ?? '')) {
      // A remote image would load (and tell its server the URL, which injected
      // text can fill with note content) the moment the note renders: show a
      // placeholder with the host; the reader loads it with a click.
      const src = node.getAttribute('src') ?? '';
      const placeholder = node.ownerDocument.createElement('span');
      placeholder.className = 'remote-image';
      placeholder.setAttribute('role', 'button');
      placeholder.setAttribute('tabindex', '0');
      placeholder.setAttribute('data-remote-src', src);
      placeholder.setAttribute('title', src);
      const alt = node.getAttribute('alt');
      if (alt) placeholder.setAttribute('data-alt', alt);
      placeholder.textContent = `🖼 ${remoteHost(src)}`;
      node.replaceWith(placeholder);
    } else if (tagName === 'input') {
      // Task-list checkboxes are the only inputs a note may show, and never editable.
      if (node.getAttribute('type')?.toLowerCase() !== 'checkbox') node.remove();
      else node.setAttribute('disabled', '');
    }
  });
  return purify;
}

function createSvgPurifier(window: WindowLike): DOMPurifyInstance {
  const purify = DOMPurify(window);
  purify.addHook('uponSanitizeElement', (node, event) => {
    // Mermaid styles its diagram with an embedded <style>; keep it, minus anything
    // that would fetch from the network.
    if (event.tagName === 'style' && node.textContent) node.textContent = scrubCss(node.textContent);
  });
  purify.addHook('uponSanitizeAttribute', (node, event) => {
    const name = event.attrName;
    const tagName = node.nodeName.toLowerCase();
    if (name.startsWith('on')) event.keepAttr = false;
    else if (URL_ATTRIBUTES.has(name) && !isUrlAllowed(tagName, name, event.attrValue, false))
      event.keepAttr = false;
    else if (name === 'style') event.attrValue = scrubCss(event.attrValue);
  });
  return purify;
}

/**
 * A sanitizer bound to one window (the page's, or a jsdom window in tests). DOMPurify
 * is configured here once; nothing else in the app should call it with other options.
 * Throws when the window cannot host DOMPurify, because returning the input
 * unsanitized would be the only alternative.
 */
export function createSanitizer(window: WindowLike): Sanitizer {
  const html = createHtmlPurifier(window);
  const svg = createSvgPurifier(window);
  if (!html.isSupported || !svg.isSupported) {
    throw new Error('DOMPurify cannot run in this window; refusing to render unsanitized HTML.');
  }
  return {
    sanitizeHtml: (dirty) => html.sanitize(dirty, HTML_CONFIG),
    sanitizeSvg: (dirty) => svg.sanitize(dirty, SVG_CONFIG),
  };
}

const sanitizersByWindow = new WeakMap<object, Sanitizer>();

/** The sanitizer for `window`, created on first use. */
export function sanitizerFor(window: WindowLike): Sanitizer {
  let sanitizer = sanitizersByWindow.get(window);
  if (!sanitizer) {
    sanitizer = createSanitizer(window);
    sanitizersByWindow.set(window, sanitizer);
  }
  return sanitizer;
}

function defaultSanitizer(): Sanitizer {
  const window = (globalThis as { window?: WindowLike }).window;
  if (!window)
    throw new Error('sanitizeHtml needs a DOM window; use createSanitizer(window) outside a page.');
  return sanitizerFor(window);
}

/** Sanitizes HTML against the page's window (looked up on first call, not at import). */
export function sanitizeHtml(html: string): string {
  return defaultSanitizer().sanitizeHtml(html);
}

/** Sanitizes an SVG document against the page's window. */
export function sanitizeSvg(svg: string): string {
  return defaultSanitizer().sanitizeSvg(svg);
}
