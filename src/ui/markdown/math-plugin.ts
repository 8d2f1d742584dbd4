import type { MarkdownIt } from 'markdown-it';
import { renderTex } from './formula-cache';

/** One formula met while rendering, in order. */
export interface MathSlotFormula {
  tex: string;
  displayMode: boolean;
}

/**
 * Put into markdown-it's `env` as `mathSlots`: formulas are then collected here
 * and each leaves an empty `<span class="math-slot-<nonce>-<index>">` instead
 * of its HTML, to be filled in with cached, sanitized HTML after the rest of the
 * block is sanitized (render-markdown's `renderMarkdownSafe`). A class, which
 * the sanitizer keeps anyway, so its policy needs no exception for the slots.
 */
export interface MathSlots {
  nonce: string;
  formulas: MathSlotFormula[];
}

/** The class prefix of a slot; the nonce and the index follow. */
export const MATH_SLOT_CLASS = 'math-slot-';

function slotsOf(env: unknown): MathSlots | null {
  const slots = (env as { mathSlots?: MathSlots } | null)?.mathSlots;
  return slots ?? null;
}

function formula(tex: string, displayMode: boolean, env: unknown): string {
  const slots = slotsOf(env);
  if (!slots) return renderTex(tex, displayMode);
  const index = slots.formulas.push({ tex, displayMode }) - 1;
  return `<span class="${MATH_SLOT_CLASS}${slots.nonce}-${index}"></span>`;
}

/** `$...$` and `$$...$$` math (parsed by the shared grammar in core/markdown), rendered with KaTeX. */
export function mathPlugin(md: MarkdownIt): void {
  md.renderer.rules['math_inline'] = (tokens, index, _options, env) =>
    formula(tokens[index]?.content ?? '', false, env);
  md.renderer.rules['math_inline_display'] = (tokens, index, _options, env) =>
    formula(tokens[index]?.content ?? '', true, env);
  md.renderer.rules['math_block'] = (tokens, index, _options, env, renderer) => {
    const token = tokens[index];
    if (!token) return '';
    token.attrJoin('class', 'math-block');
    return `<div${renderer.renderAttrs(token)}>${formula(token.content, true, env)}</div>\n`;
  };
}
