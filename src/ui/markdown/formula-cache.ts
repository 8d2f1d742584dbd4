import katex from 'katex';
import { LruCache } from './lru-cache';

/** The KaTeX options every formula is rendered with, besides its display mode. */
const KATEX_OPTIONS = { throwOnError: false, output: 'htmlAndMathml' } as const;

function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/**
 * TeX to KaTeX HTML, NOT sanitized. `throwOnError: false` turns TeX errors into
 * KaTeX's red error span; the catch covers KaTeX's own failures, because one bad
 * formula must never take the whole preview down.
 */
export function renderTex(tex: string, displayMode: boolean): string {
  try {
    return katex.renderToString(tex, { ...KATEX_OPTIONS, displayMode });
  } catch {
    return `<code class="math-error">${escapeHtml(tex)}</code>`;
  }
}

export interface FormulaCacheOptions {
  /** HTML to safe HTML (sanitize.ts's `sanitizeHtml`). */
  sanitize: (html: string) => string;
  /** TeX to unsanitized HTML; `renderTex` unless a test counts the calls. */
  render?: (tex: string, displayMode: boolean) => string;
  /** Formulas kept. */
  maxEntries?: number;
  /** Characters of HTML kept in all (a formula's HTML is some hundred times its TeX). */
  maxChars?: number;
}

/**
 * Sanitized KaTeX HTML per formula, least recently used dropped first: an edit
 * beside a formula re-renders its paragraph, but neither KaTeX nor the
 * sanitizer (most of a paragraph's cost: a formula is hundreds of elements)
 * runs again for the formula. Only sanitized output goes in, under a key made
 * of everything the output depends on (the TeX and the display mode; the other
 * options are fixed per cache).
 */
export class FormulaCache {
  readonly #sanitize: (html: string) => string;
  readonly #render: (tex: string, displayMode: boolean) => string;
  readonly #cache: LruCache<string, string>;
  #renders = 0;

  constructor(options: FormulaCacheOptions) {
    this.#sanitize = options.sanitize;
    this.#render = options.render ?? renderTex;
    this.#cache = new LruCache<string, string>({
      maxEntries: options.maxEntries ?? 2000,
      maxWeight: options.maxChars ?? 8_000_000,
      weigh: (html) => html.length,
    });
  }

  /** Formulas rendered and sanitized (cache misses) so far. */
  get renders(): number {
    return this.#renders;
  }

  get size(): number {
    return this.#cache.size;
  }

  /** The formula as sanitized HTML. */
  html(tex: string, displayMode: boolean): string {
    const key = `${displayMode ? 'display' : 'inline'}\u0000${tex}`;
    const cached = this.#cache.get(key);
    if (cached !== undefined) return cached;
    const html = this.#sanitize(this.#render(tex, displayMode));
    this.#renders += 1;
    this.#cache.set(key, html);
    return html;
  }

  clear(): void {
    this.#cache.clear();
  }
}
