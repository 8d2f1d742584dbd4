// One grammar set for the preview and the exporters. Only `highlight.js/lib/core`
// plus a fixed set of grammars: the full bundle ships ~190 languages (about 1 MB),
// and notes rarely need more than these.
import hljs from 'highlight.js/lib/core';
import bash from 'highlight.js/lib/languages/bash';
import c from 'highlight.js/lib/languages/c';
import cpp from 'highlight.js/lib/languages/cpp';
import css from 'highlight.js/lib/languages/css';
import go from 'highlight.js/lib/languages/go';
import java from 'highlight.js/lib/languages/java';
import javascript from 'highlight.js/lib/languages/javascript';
import json from 'highlight.js/lib/languages/json';
import markdown from 'highlight.js/lib/languages/markdown';
import python from 'highlight.js/lib/languages/python';
import rust from 'highlight.js/lib/languages/rust';
import sql from 'highlight.js/lib/languages/sql';
import typescript from 'highlight.js/lib/languages/typescript';
import xml from 'highlight.js/lib/languages/xml';
import yaml from 'highlight.js/lib/languages/yaml';

// A private instance, so languages registered elsewhere cannot change what notes
// highlight (and ours do not leak into theirs).
const highlighter = hljs.newInstance();

const languages = {
  bash,
  c,
  cpp,
  css,
  go,
  java,
  javascript,
  json,
  markdown,
  python,
  rust,
  sql,
  typescript,
  xml,
  yaml,
};
for (const [name, definition] of Object.entries(languages)) highlighter.registerLanguage(name, definition);
// Grammars bring their own aliases (js, ts, py, sh, html, yml, md, rs ...); these are
// fence labels people write that no registered grammar claims.
highlighter.registerAliases(['shell', 'console', 'zsh'], { languageName: 'bash' });

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' };

function escapeHtml(text: string): string {
  return text.replace(/[&<>"]/g, (character) => ESCAPES[character] ?? character);
}

/** Whether `language` (a name or alias) has a registered grammar. */
export function isHighlightable(language: string): boolean {
  return language !== '' && highlighter.getLanguage(language) !== undefined;
}

/**
 * Highlighted HTML (highlight.js `hljs-*` spans) for `code`. Unknown languages come
 * back escaped and unstyled: auto-detection is slow on long notes and guesses
 * wrong often enough to mislead.
 */
export function highlightHtml(code: string, language: string): string {
  if (!isHighlightable(language)) return escapeHtml(code);
  try {
    return highlighter.highlight(code, { language, ignoreIllegals: true }).value;
  } catch {
    // A grammar bug must not break the whole note; plain text is still readable.
    return escapeHtml(code);
  }
}

/** A piece of code and the highlight.js scopes it sits in, outermost first (`title.function`). */
export interface CodeToken {
  text: string;
  scopes: string[];
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', '#x27': "'", '#39': "'" };

function unescapeHtml(text: string): string {
  return text.replace(/&(amp|lt|gt|quot|#x27|#39);/g, (_match, name: string) => ENTITIES[name] ?? '');
}

/** `hljs-title function_` → `title.function`, the scope name highlight.js themes are written for. */
function scopeOf(className: string): string {
  return className
    .split(/\s+/)
    .map((part) => part.replace(/^hljs-/, '').replace(/_+$/, ''))
    .filter((part) => part !== '')
    .join('.');
}

/**
 * `code` as tokens whose texts join back to it exactly. highlight.js's own output
 * is read back (it is only `<span class>` and five entities), which keeps this on
 * its public API; unknown languages are one unscoped token.
 */
export function codeTokens(code: string, language: string): CodeToken[] {
  if (code === '') return [];
  if (!isHighlightable(language)) return [{ text: code, scopes: [] }];
  const html = highlightHtml(code, language);
  const tokens: CodeToken[] = [];
  const stack: string[] = [];
  const pattern = /<span class="([^"]*)">|<\/span>|[^<]+/g;
  for (const match of html.matchAll(pattern)) {
    if (match[1] !== undefined) stack.push(scopeOf(match[1]));
    else if (match[0] === '</span>') stack.pop();
    else {
      const text = unescapeHtml(match[0]);
      const last = tokens[tokens.length - 1];
      if (last && last.scopes.join(' ') === stack.join(' ')) last.text += text;
      else tokens.push({ text, scopes: [...stack] });
    }
  }
  // Output we could not read back whole must not lose a character of the note.
  if (tokens.map((token) => token.text).join('') !== code) return [{ text: code, scopes: [] }];
  return tokens;
}
