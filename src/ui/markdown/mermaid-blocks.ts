import type { ErrorCode } from '../../contracts/error-codes';
import { AppError } from '../../contracts/errors';
import type { Mermaid } from 'mermaid';
import {
  detailsLabel,
  mermaidErrorSummary,
  mermaidLabelHint,
  readMermaidError,
} from '../../core/markdown/diagram-error-text';
import { decodeMermaidSource } from './code-fence-plugin';
import { sanitizerFor } from './sanitize';
import type { Sanitizer } from './sanitize';

export type MermaidTheme = 'default' | 'dark';

/** The words of a failed diagram's message in the user's language (the preview passes translated ones). */
export interface MermaidLabels {
  /** The heading when Mermaid's parser refused the block at `line` (of the block's own lines). */
  syntaxAt: (line: number) => string;
  /** The same, when the block stopped where the parser expected more (an arrow with no target). */
  endsEarlyAt: (line: number) => string;
  /** The heading when the parser refused the block without saying where. */
  syntax: string;
  /** The heading of any other failure (Mermaid could not load or lay the diagram out). */
  failed: string;
  /** The detail when the sanitizer removed the diagram (MERMAID_SVG_UNSAFE). */
  unsafe: string;
  /** The summary of the folded part holding Mermaid's own words, for those who want them. */
  details: string;
  /** Said after the syntax error when a node's label holds brackets or quotes: how to quote it. */
  labelHint: string;
  /** The name of a drawn diagram's scrolling area, for screen readers. */
  diagram: string;
}

const DEFAULT_LABELS: MermaidLabels = {
  syntaxAt: (line) => mermaidErrorSummary({ syntax: true, line, endsEarly: false, detail: '' }, 'en'),
  endsEarlyAt: (line) => mermaidErrorSummary({ syntax: true, line, endsEarly: true, detail: '' }, 'en'),
  syntax: mermaidErrorSummary({ syntax: true, endsEarly: false, detail: '' }, 'en'),
  failed: 'Diagram could not be rendered.',
  unsafe: 'The diagram was removed by the sanitizer.',
  details: detailsLabel('en'),
  labelHint: mermaidLabelHint('en'),
  diagram: 'Diagram',
};

export interface RenderMermaidOptions {
  theme?: MermaidTheme;
  /** Words in the user's language; any not given are English. */
  labels?: Partial<MermaidLabels>;
  /** Aborting stops before the next diagram and leaves the remaining placeholders untouched. */
  signal?: AbortSignal;
}

export interface RenderMermaidResult {
  rendered: number;
  failed: number;
}

// Error codes of the contract (§12.4, visualisation errors).
export type MermaidErrorCode = Extract<ErrorCode, `MERMAID_${string}`>;
export const MERMAID_PARSE_FAILED: MermaidErrorCode = 'MERMAID_PARSE_FAILED';
export const MERMAID_RENDER_FAILED: MermaidErrorCode = 'MERMAID_RENDER_FAILED';
export const MERMAID_SVG_UNSAFE: MermaidErrorCode = 'MERMAID_SVG_UNSAFE';

type Outcome =
  | { ok: true; svg: string }
  | {
      ok: false;
      code: MermaidErrorCode;
      /** The whole message, line included: what exports show. */
      message: string;
      /** Where the block went wrong (1-based, of the block's own lines) and why, when Mermaid said. */
      located?: { line: number; reason: string };
    };
type Failure = Extract<Outcome, { ok: false }>;

/** Set on a processed placeholder so a second pass over the same container skips it. */
const STATE_ATTRIBUTE = 'data-mermaid-state';
const CACHE_LIMIT = 64;
const MESSAGE_LIMIT = 300;

// Sanitized SVG (or the parse error) per theme and source. While a note is edited
// the preview re-renders on every keystroke, but its diagrams rarely change.
const renderCache = new Map<string, Outcome>();
let mermaidLoading: Promise<Mermaid> | undefined;
let initializedTheme: MermaidTheme | undefined;
let nextDiagramId = 0;

/** Forgets cached diagrams and the loaded Mermaid configuration (tests, theme packs). */
export function clearMermaidRenderCache(): void {
  renderCache.clear();
  initializedTheme = undefined;
}

async function loadMermaid(theme: MermaidTheme): Promise<Mermaid> {
  // The dynamic import keeps Mermaid (megabytes) in its own chunk, fetched only
  // when a note actually contains a diagram.
  mermaidLoading ??= import('mermaid').then((module) => module.default);
  let mermaid: Mermaid;
  try {
    mermaid = await mermaidLoading;
  } catch (error) {
    // A failed chunk load (offline, evicted cache) may succeed on the next try.
    mermaidLoading = undefined;
    throw error;
  }
  if (initializedTheme !== theme) {
    mermaid.initialize({
      startOnLoad: false,
      securityLevel: 'strict',
      // SVG text labels: HTML labels need <foreignObject>, which the sanitizer removes.
      htmlLabels: false,
      // A failed diagram must not leave Mermaid's error graphic in the document.
      suppressErrorRendering: true,
      theme,
    });
    initializedTheme = theme;
  }
  return mermaid;
}

function clip(text: string): string {
  return text.length > MESSAGE_LIMIT ? `${text.slice(0, MESSAGE_LIMIT)}…` : text;
}

function errorMessage(error: unknown): string {
  const text = error instanceof Error ? error.message : typeof error === 'string' ? error : '';
  return clip(text.split('\n')[0]?.trim() ?? '');
}

// Mermaid's generated parsers say "Parse error on line N:", then an excerpt of the
// source, a caret under it, then what they expected ("Expecting 'AMP', …, got 'EOF'").
const PARSER_HEADER = /^(?:Parse|Lexical) error on line (\d+)[:.]\s*(.*)$/;
const CARET = /^-*\^$/;

/**
 * Mermaid's parse error as the line of the block it concerns and its reason. The
 * reason is what comes after the excerpt and caret (the first line alone says
 * nothing). The line is the parser's location of the offending token: the
 * number in the header counts lines the flowchart grammar adds itself (a
 * two-line block fails "on line 4"), so it is the fallback only, and either is
 * kept within the block.
 */
export function parseFailure(error: unknown, source: string): Pick<Failure, 'message' | 'located'> {
  const text = error instanceof Error ? error.message : typeof error === 'string' ? error : '';
  const lines = text.split('\n').map((line) => line.trim());
  const header = PARSER_HEADER.exec(lines[0] ?? '');
  if (!header) return { message: clip(lines.filter((line) => line !== '').join(' ')) };
  const caret = lines.findIndex((line) => CARET.test(line));
  const reason = clip(
    [header[2] ?? '', ...(caret >= 0 ? lines.slice(caret + 1) : [])].filter((line) => line !== '').join(' '),
  );
  const located = (error as { hash?: { loc?: { first_line?: unknown } } } | null)?.hash?.loc?.first_line;
  const blockLines = Math.max(1, source.replace(/\n+$/, '').split('\n').length);
  const reported = typeof located === 'number' ? located : Number(header[1]);
  const line = Math.min(Math.max(1, Math.round(reported) || 1), blockLines);
  return {
    message: reason ? `Parse error on line ${line}: ${reason}` : `Parse error on line ${line}`,
    located: { line, reason },
  };
}

function removeStrayElements(document: Document, id: string): void {
  // Mermaid renders into a temporary element in <body>; after a failure it can stay behind.
  for (const strayId of [id, `d${id}`]) document.getElementById(strayId)?.remove();
}

async function renderDiagram(
  source: string,
  theme: MermaidTheme,
  sanitizer: Sanitizer,
  document: Document,
): Promise<Outcome> {
  let mermaid: Mermaid;
  try {
    mermaid = await loadMermaid(theme);
  } catch (error) {
    return { ok: false, code: MERMAID_RENDER_FAILED, message: errorMessage(error) };
  }
  const id = `notes-mermaid-${++nextDiagramId}`;
  let svg: string;
  try {
    ({ svg } = await mermaid.render(id, source));
  } catch (error) {
    removeStrayElements(document, id);
    return { ok: false, code: MERMAID_PARSE_FAILED, ...parseFailure(error, source) };
  }
  const clean = sanitizer.sanitizeSvg(svg);
  if (!/^\s*<svg[\s>]/i.test(clean)) {
    return { ok: false, code: MERMAID_SVG_UNSAFE, message: 'The diagram was removed by the sanitizer.' };
  }
  return { ok: true, svg: clean };
}

function cacheKey(theme: MermaidTheme, source: string): string {
  return `${theme}\u0000${source}`;
}

async function cachedDiagram(
  source: string,
  theme: MermaidTheme,
  sanitizer: Sanitizer,
  document: Document,
): Promise<Outcome> {
  const key = cacheKey(theme, source);
  const cached = renderCache.get(key);
  if (cached) {
    // Re-insert so the Map's insertion order doubles as least-recently-used order.
    renderCache.delete(key);
    renderCache.set(key, cached);
    return cached;
  }
  const outcome = await renderDiagram(source, theme, sanitizer, document);
  // A failed load is not the diagram's fault; only diagram outcomes are remembered.
  if (outcome.ok || outcome.code !== MERMAID_RENDER_FAILED) {
    renderCache.set(key, outcome);
    if (renderCache.size > CACHE_LIMIT) {
      const oldest = renderCache.keys().next().value;
      if (oldest !== undefined) renderCache.delete(oldest);
    }
  }
  return outcome;
}

function sourceOf(block: HTMLElement): string {
  const encoded = block.getAttribute('data-mermaid-source');
  const decoded = encoded === null ? undefined : decodeMermaidSource(encoded);
  return decoded ?? block.querySelector('pre')?.textContent ?? '';
}

// Mermaid's own width of a diagram (its viewBox), in CSS pixels.
const VIEW_BOX_WIDTH = /^\s*[-\d.]+[\s,]+[-\d.]+[\s,]+([\d.]+)/;

function showDiagram(block: HTMLElement, svg: string, labels: MermaidLabels): void {
  const diagram = block.ownerDocument.createElement('div');
  diagram.className = 'mermaid-diagram';
  // `svg` has been through the SVG sanitizer.
  diagram.innerHTML = svg;
  // A wide diagram keeps a readable size and scrolls sideways in its own area (the theme's
  // .mermaid-diagram rules), instead of shrinking to the pane: on a phone its labels were 6 px.
  const width = Number(VIEW_BOX_WIDTH.exec(diagram.querySelector('svg')?.getAttribute('viewBox') ?? '')?.[1]);
  if (width > 0) diagram.style.setProperty('--diagram-width', `${Math.round(width)}px`);
  // The scrolling area is reachable by keyboard (arrow keys scroll it once focused).
  diagram.tabIndex = 0;
  diagram.setAttribute('role', 'group');
  diagram.setAttribute('aria-label', labels.diagram);
  block.replaceChildren(diagram);
  block.setAttribute(STATE_ATTRIBUTE, 'rendered');
}

function showError(block: HTMLElement, failure: Failure, labels: MermaidLabels): void {
  block.querySelector('.mermaid-error')?.remove();
  const document = block.ownerDocument;
  const note = document.createElement('div');
  note.className = 'mermaid-error';
  note.setAttribute('data-error-code', failure.code);
  note.setAttribute('role', 'note');
  const read = readMermaidError(failure.message);
  let heading: string;
  let detail: string;
  if (failure.code === MERMAID_SVG_UNSAFE) {
    heading = labels.unsafe;
    detail = '';
  } else if (failure.code === MERMAID_PARSE_FAILED) {
    // A person reads where the block went wrong; the parser's token list is for experts.
    heading =
      read.line === undefined
        ? labels.syntax
        : read.endsEarly
          ? labels.endsEarlyAt(read.line)
          : labels.syntaxAt(read.line);
    detail = read.detail;
  } else {
    heading = labels.failed;
    detail = read.detail;
  }
  const title = document.createElement('span');
  title.className = 'mermaid-error-title';
  title.textContent = heading;
  note.append(title);
  if (failure.code === MERMAID_PARSE_FAILED && read.labelNeedsQuotes) {
    // Its own paragraph: how to fix it, apart from where it went wrong.
    const hint = document.createElement('p');
    hint.className = 'mermaid-error-hint';
    hint.textContent = labels.labelHint;
    note.append(hint);
  }
  if (detail) {
    const more = document.createElement('details');
    more.className = 'mermaid-error-more';
    const summary = document.createElement('summary');
    summary.textContent = labels.details;
    // textContent: the message can quote the note's own source.
    const words = document.createElement('code');
    words.className = 'mermaid-error-detail';
    words.textContent = detail;
    more.append(summary, words);
    note.append(more);
  }
  block.append(note);
  block.setAttribute(STATE_ATTRIBUTE, 'failed');
}

/**
 * Draws the `.mermaid-block` placeholders that `renderMarkdown` left in `container`.
 * Mermaid is imported only when there is at least one placeholder. A diagram that
 * fails keeps its source `<pre>` and gains a `.mermaid-error` note; this function
 * does not throw for bad diagrams.
 */
export async function renderMermaidBlocks(
  container: HTMLElement,
  options: RenderMermaidOptions = {},
): Promise<RenderMermaidResult> {
  const result: RenderMermaidResult = { rendered: 0, failed: 0 };
  const blocks = Array.from(
    container.querySelectorAll<HTMLElement>(`.mermaid-block:not([${STATE_ATTRIBUTE}])`),
  );
  if (blocks.length === 0) return result;

  const document = container.ownerDocument;
  const window = document.defaultView;
  if (!window) throw new Error('renderMermaidBlocks needs a container inside a document with a window.');
  const sanitizer = sanitizerFor(window);
  const theme = options.theme ?? 'default';
  const labels: MermaidLabels = { ...DEFAULT_LABELS, ...options.labels };

  for (const block of blocks) {
    if (options.signal?.aborted) break;
    const source = sourceOf(block);
    // Laying out a diagram blocks the page for a long moment: each one gets a
    // task of its own, so a keystroke between two is handled (and can abort the rest).
    if (!renderCache.has(cacheKey(theme, source))) {
      await nextTask();
      if (options.signal?.aborted) break;
    }
    const outcome = await cachedDiagram(source, theme, sanitizer, document);
    // The preview may have moved on while Mermaid worked; stale results are dropped.
    if (options.signal?.aborted) break;
    if (outcome.ok) {
      showDiagram(block, outcome.svg, labels);
      result.rendered++;
    } else {
      showError(block, outcome, labels);
      result.failed++;
    }
  }
  return result;
}

function nextTask(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}

function svgSize(svg: string): { width: number; height: number } {
  const viewBox = /viewBox="[-\d.]+\s+[-\d.]+\s+([\d.]+)\s+([\d.]+)"/.exec(svg);
  const width = Number(viewBox?.[1] ?? /width="([\d.]+)/.exec(svg)?.[1] ?? 0);
  const height = Number(viewBox?.[2] ?? /height="([\d.]+)/.exec(svg)?.[1] ?? 0);
  return { width: Math.round(width) || 600, height: Math.round(height) || 400 };
}

/**
 * §12.1 static mode for exports: the core worker asks the page (Mermaid needs a
 * DOM) and gets a sanitized SVG, or an AppError with the §12.4 code.
 */
export async function renderMermaidStatic(
  source: string,
  options: { theme: 'light' | 'dark' },
): Promise<{ svg: string; width: number; height: number; warnings: string[] }> {
  const window = globalThis.window;
  const outcome = await cachedDiagram(
    source,
    options.theme === 'dark' ? 'dark' : 'default',
    sanitizerFor(window),
    window.document,
  );
  if (!outcome.ok) throw new AppError(outcome.code, outcome.message || 'The diagram could not be rendered.');
  return { svg: outcome.svg, ...svgSize(outcome.svg), warnings: [] };
}
