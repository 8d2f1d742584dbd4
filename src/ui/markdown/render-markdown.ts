import type { MarkdownIt } from 'markdown-it';
import { createMarkdownParser, footnoteNumbers, type FootnoteEnv } from '../../core/markdown/syntax';
import { codeFencePlugin } from './code-fence-plugin';
import { footnotePlugin } from './footnote-plugin';
import { FormulaCache } from './formula-cache';
import { frontMatterPlugin } from './front-matter-plugin';
import { headingLevelPlugin } from './heading-level-plugin';
import { MATH_SLOT_CLASS, mathPlugin, type MathSlots } from './math-plugin';
import { appCalloutTitle } from './callout-titles';
import { obsidianPlugin } from './obsidian-plugin';
import { sanitizeHtml } from './sanitize';
import { sourceLinePlugin } from './source-line-plugin';
import { taskListPlugin } from './task-list-plugin';
import { wikilinkPlugin } from './wikilink-plugin';

function createMarkdownIt(): MarkdownIt {
  // The shared note grammar (core/markdown) plus the preview's renderers. Raw HTML
  // in notes is allowed because every caller sanitizes the result (renderMarkdownSafe).
  return createMarkdownParser()
    .use(frontMatterPlugin)
    .use(mathPlugin)
    .use(wikilinkPlugin)
    .use(taskListPlugin)
    .use(codeFencePlugin)
    .use(footnotePlugin)
    .use(obsidianPlugin, { calloutTitle: appCalloutTitle })
    .use(headingLevelPlugin)
    .use(sourceLinePlugin);
}

// One parser for the app: building it registers every grammar and rule, which is
// too slow to repeat on each keystroke.
const markdown = createMarkdownIt();

// Sanitized formulas for every preview on the page. The sanitizer is looked up
// on first use, as sanitizeHtml does.
const formulas = new FormulaCache({ sanitize: (html) => sanitizeHtml(html) });

/** Forgets the cached formulas (tests). */
export function clearFormulaCache(): void {
  formulas.clear();
}

/**
 * Markdown to HTML, NOT sanitized: raw HTML from the note passes through. Only for
 * callers that sanitize themselves; components use `renderMarkdownSafe`.
 */
export function renderMarkdown(source: string): string {
  return markdown.render(source, { footnotes: footnoteNumbers([source]) } satisfies FootnoteEnv);
}

function randomNonce(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(12));
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/**
 * Markdown to HTML that is safe to put into the page.
 *
 * Formulas are left out of the sanitizer's pass as empty slots and filled in
 * afterwards from the formula cache, which holds only sanitized HTML. A slot is
 * named by a nonce drawn for this call, which the note's own text (raw HTML
 * included) cannot know, so nothing in the note can make a formula appear
 * where it did not write one. A slot is an empty inline element in HTML
 * content (the sanitizer drops HTML elements in foreign content), where the
 * formula's HTML parses as it did when it was sanitized.
 *
 * `footnotes` numbers the footnotes when `source` is one block of a longer note (the block
 * renderer passes the whole note's numbers); by default they are counted in `source`.
 */
export function renderMarkdownSafe(source: string, footnotes?: ReadonlyMap<string, number>): string {
  let nonce = randomNonce();
  while (source.includes(nonce)) nonce = randomNonce();
  const slots: MathSlots = { nonce, formulas: [] };
  // A copy: a definition the parse meets is added to the parse's own map.
  const env: FootnoteEnv & { mathSlots: MathSlots } = {
    mathSlots: slots,
    footnotes: new Map(footnotes ?? footnoteNumbers([source])),
  };
  const clean = sanitizeHtml(markdown.render(source, env));
  if (slots.formulas.length === 0) return clean;
  const slot = new RegExp(`<span class="${MATH_SLOT_CLASS}${nonce}-(\\d+)"></span>`, 'g');
  return clean.replace(slot, (_match, index: string) => {
    const formula = slots.formulas[Number(index)];
    return formula ? formulas.html(formula.tex, formula.displayMode) : '';
  });
}
