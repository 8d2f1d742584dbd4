import type { MarkdownIt } from 'markdown-it';
import { createMarkdownParser } from '../../core/markdown/syntax';
import { codeFencePlugin } from './code-fence-plugin';
import { frontMatterPlugin } from './front-matter-plugin';
import { mathPlugin } from './math-plugin';
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
    .use(sourceLinePlugin);
}

// One parser for the app: building it registers every grammar and rule, which is
// too slow to repeat on each keystroke.
const markdown = createMarkdownIt();

/**
 * Markdown to HTML, NOT sanitized: raw HTML from the note passes through. Only for
 * callers that sanitize themselves; components use `renderMarkdownSafe`.
 */
export function renderMarkdown(source: string): string {
  return markdown.render(source);
}

/** Markdown to HTML that is safe to put into the page. */
export function renderMarkdownSafe(source: string): string {
  return sanitizeHtml(renderMarkdown(source));
}
