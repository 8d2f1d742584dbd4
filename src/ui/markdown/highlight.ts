// Only `highlight.js/lib/core` plus a fixed set of grammars: the full bundle ships
// ~190 languages (about 1 MB) into the app shell, and notes rarely need more than these.
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

// A private instance, so languages registered elsewhere in the app cannot change
// what the preview highlights (and ours do not leak into theirs).
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

function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** Whether `language` (a name or alias) has a registered grammar. */
export function isHighlightable(language: string): boolean {
  return language !== '' && highlighter.getLanguage(language) !== undefined;
}

/**
 * Highlighted HTML for `code`. Unknown languages come back escaped and unstyled:
 * auto-detection is slow on long notes and guesses wrong often enough to mislead.
 */
export function highlightCode(code: string, language: string): string {
  if (!isHighlightable(language)) return escapeHtml(code);
  try {
    return highlighter.highlight(code, { language, ignoreIllegals: true }).value;
  } catch {
    // A grammar bug must not break the whole preview; plain text is still readable.
    return escapeHtml(code);
  }
}
