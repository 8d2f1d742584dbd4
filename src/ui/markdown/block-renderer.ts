import { FOOTNOTE_LABELS, footnoteNumbers } from '../../core/markdown/syntax';
import { stripObsidianComments } from '../../core/markdown/obsidian-comments';
import { BlockSplitter } from './block-splitter';

/** One top-level block of the preview, rendered on its own. */
export interface PreviewBlock {
  /**
   * Stable while the block's text is unchanged, so a keyed list keeps its DOM
   * (drawn diagrams and plots included) when blocks around it change.
   */
  key: string;
  /** 0-based line of the block in the note; `data-source-line` inside is relative to it. */
  line: number;
  /** The block's source, shown as plain text while `html` is null. */
  source: string;
  /** Sanitized HTML, or null when the time budget ran out before this block. */
  html: string | null;
}

export interface BlockRendererOptions {
  /**
   * Markdown to sanitized HTML for one block (render-markdown's `renderMarkdownSafe`), with the
   * numbers of the footnotes the block refers to or defines, counted over the whole note.
   */
  render: (source: string, footnotes?: ReadonlyMap<string, number>) => string;
  /** Rendered blocks kept beyond those of the current note (typing back an old text hits). */
  spare?: number;
}

interface CacheEntry {
  id: number;
  html: string;
}

// A link reference definition (`[label]: destination`) may be used by any block
// of the note, so each block is rendered with all of them appended.
const REFERENCE_DEFINITION = /^ {0,3}\[[^\]\n]+\]:[ \t]*\S/;

/**
 * The numbers of the footnotes `text` mentions, and a key for them: a block is rendered again
 * when a footnote it shows is renumbered (one referenced earlier was added), and only then.
 */
function footnotesOf(
  text: string,
  numbers: ReadonlyMap<string, number>,
): { footnotes: Map<string, number> | undefined; key: string } {
  if (numbers.size === 0 || !text.includes('[^')) return { footnotes: undefined, key: '' };
  const footnotes = new Map<string, number>();
  for (const match of text.matchAll(FOOTNOTE_LABELS)) {
    const label = match[1];
    const number = label === undefined ? undefined : numbers.get(label);
    if (label !== undefined && number !== undefined) footnotes.set(label, number);
  }
  const key = [...footnotes].map(([label, number]) => `${label}=${number}`).join('\u0001');
  return { footnotes, key };
}

/**
 * Incremental preview: the note is cut into top-level blocks (the same blocks
 * that get ids; an edit re-parses only around itself) and each block's HTML is cached by its source,
 * so an edit re-renders only the blocks whose text changed. Blocks are rendered
 * with line numbers relative to their start, which keeps a block's cache entry
 * valid when lines are inserted above it.
 */
export class BlockRenderer {
  readonly #render: BlockRendererOptions['render'];
  readonly #spare: number;
  readonly #cache = new Map<string, CacheEntry>();
  readonly #splitter = new BlockSplitter();
  /** The last result's blocks by key: an unchanged block is handed back as the same object. */
  #shown = new Map<string, PreviewBlock>();
  #nextId = 0;
  #renders = 0;

  constructor(options: BlockRendererOptions) {
    this.#render = options.render;
    this.#spare = options.spare ?? 256;
  }

  /** Blocks rendered (cache misses) so far. */
  get renders(): number {
    return this.#renders;
  }

  /**
   * The note's blocks. Cached blocks are always filled in; uncached ones are
   * rendered while `shouldYield` says there is time (none given: all of them),
   * the rest come back with `html: null` for a later pass. `language` is the app's
   * language the blocks are rendered in: an untitled callout is titled in it, so a block
   * cached in another language is rendered again (and the old one kept for a switch back).
   */
  render(source: string, shouldYield: () => boolean = () => false, language = ''): PreviewBlock[] {
    // Taken out before the split: a comment may open in one block and close in another.
    const parsed = this.#splitter.split(stripObsidianComments(source));
    const texts = parsed.map((block) => block.text);
    const references = this.#referencesOf(texts);
    const numbers = footnoteNumbers(texts);
    const occurrences = new Map<number, number>();
    const blocks: PreviewBlock[] = [];
    let fresh = 0;
    let yielded = false;
    for (const block of parsed) {
      const { footnotes, key: footnoteKey } = footnotesOf(block.text, numbers);
      let cacheKey = references ? `${block.text}\u0000${references}` : block.text;
      if (footnoteKey) cacheKey += `\u0002${footnoteKey}`;
      if (language) cacheKey += `\u0003${language}`;
      let entry = this.#cache.get(cacheKey);
      if (entry) {
        // Refreshed as most recently used.
        this.#cache.delete(cacheKey);
        this.#cache.set(cacheKey, entry);
      } else if (!yielded && !(yielded = fresh > 0 && shouldYield())) {
        // At least one block per pass, so a pass always makes progress.
        fresh += 1;
        const text = references ? `${block.text}\n\n${references}` : block.text;
        entry = { id: this.#nextId++, html: this.#render(text, footnotes) };
        this.#renders += 1;
        this.#cache.set(cacheKey, entry);
      }
      if (entry) {
        // The same text twice in a note (two `---` rules) needs two keys.
        const seen = occurrences.get(entry.id) ?? 0;
        occurrences.set(entry.id, seen + 1);
        blocks.push(this.#block(`${entry.id}.${seen}`, block.start_line, block.text, entry.html));
      } else {
        blocks.push(this.#block(`pending.${block.start_line}`, block.start_line, block.text, null));
      }
    }
    this.#evict(blocks.length + this.#spare);
    this.#shown = new Map(blocks.map((block) => [block.key, block]));
    return blocks;
  }

  clear(): void {
    this.#cache.clear();
    this.#definitions.clear();
  }

  /** Whether a block that looks like definitions is one: markdown-it renders a real one to nothing. */
  readonly #definitions = new Map<string, boolean>();

  /**
   * The note's link reference definitions, appended to every block so a block's links resolve.
   * Only blocks made of definitions alone: anything else would show up in every block. A line
   * that merely looks like one ("[^1]: a footnote", "[x]: two words") is a paragraph, and was
   * repeated under every block of the preview.
   */
  #referencesOf(texts: readonly string[]): string {
    const definitions: string[] = [];
    for (const text of texts) {
      if (
        !REFERENCE_DEFINITION.test(text) ||
        !text.split(/\r?\n|\r/).every((line) => REFERENCE_DEFINITION.test(line))
      )
        continue;
      let only = this.#definitions.get(text);
      if (only === undefined) {
        only = this.#render(text).trim() === '';
        if (this.#definitions.size >= 256) this.#definitions.clear();
        this.#definitions.set(text, only);
      }
      if (only) definitions.push(text);
    }
    return definitions.join('\n\n');
  }

  // The same object for an unchanged block lets a keyed list skip it entirely.
  #block(key: string, line: number, source: string, html: string | null): PreviewBlock {
    const shown = this.#shown.get(key);
    if (shown && shown.line === line && shown.source === source && shown.html === html) return shown;
    return { key, line, source, html };
  }

  #evict(limit: number): void {
    for (const key of this.#cache.keys()) {
      if (this.#cache.size <= limit) return;
      this.#cache.delete(key);
    }
  }
}
