import type { Token } from 'markdown-it';
import type { DocumentNode, DocumentNodeType, ExportDocument, SourcePosition } from '../../contracts/exports';
import { contentHash } from '../content-hash';
import { splitFrontMatter } from '../front-matter';
import type { CalloutMeta } from './obsidian-syntax';
import { createMarkdownParser, type FootnoteMeta, type TaskCheckboxMeta, type WikilinkMeta } from './syntax';

/**
 * Footnotes ride on existing node types as attributes: a reference is a `text` node (its text
 * `[^label]`) with `footnote_ref: label`; a definition is a `paragraph` with `footnote: label`
 * whose first child, the `[^label]: ` as written, has `footnote_marker: true`.
 */
export const FOOTNOTE_REFERENCE = 'footnote_ref';
export const FOOTNOTE_DEFINITION = 'footnote';
export const FOOTNOTE_MARKER = 'footnote_marker';

/**
 * Obsidian callouts ride on `blockquote` (its `callout` attribute the kind, `callout_fold`
 * '', '-' or '+'), their title on its first `paragraph` (`callout_title: true`, the title
 * in a `strong`), so an exporter that does not know callouts prints a quote with a bold title.
 */
export const CALLOUT = 'callout';
export const CALLOUT_FOLD = 'callout_fold';
export const CALLOUT_TITLE = 'callout_title';
/**
 * On a callout's title paragraph: the callout has no title of its own and shows its kind's
 * (English, as Obsidian writes it), which an exporter may put in the document's language.
 */
export const CALLOUT_DEFAULT_TITLE = 'callout_default_title';

/**
 * Obsidian's `==highlight==` rides on the leaves it covers (text, code, links' text): the
 * attribute is `true` on each, so an exporter that does not know it prints the text plainly.
 */
export const HIGHLIGHT = 'highlight';

/** Fence languages that become their own nodes instead of code. */
export const MERMAID_LANGUAGE = 'mermaid';
export const FUNCTION_PLOT_LANGUAGE = 'function-plot';

// Built once: registering the grammar costs more than parsing a typical note.
const parser = createMarkdownParser();
let plainParser: ReturnType<typeof createMarkdownParser> | undefined;

type Attributes = DocumentNode['attributes'];

function node(
  type: DocumentNodeType,
  attributes: Attributes = {},
  extra: { text?: string; position?: SourcePosition | undefined } = {},
): DocumentNode {
  const result: DocumentNode = { node_id: '', type, attributes, children: [] };
  if (extra.text !== undefined) result.text = extra.text;
  if (extra.position) result.position = extra.position;
  return result;
}

function positionOf(token: Token): SourcePosition | undefined {
  return token.map ? { start_line: token.map[0], end_line: token.map[1] } : undefined;
}

/** The text a reader sees in `root` (alt text for images, labels for links). */
export function plainText(root: DocumentNode): string {
  if (root.type === 'soft_break' || root.type === 'line_break') return '\n';
  if (root.type === 'image') return String(root.attributes['alt'] ?? '');
  if (root.children.length === 0) return root.text ?? '';
  return root.children.map(plainText).join('');
}

function fenceLanguage(info: string): string {
  return (info.trim().split(/\s+/)[0] ?? '').toLowerCase();
}

/**
 * Inline tokens to nodes. Open/close pairs nest; everything else is a leaf.
 */
function buildInline(tokens: readonly Token[], position: SourcePosition | undefined): DocumentNode[] {
  const root = node('paragraph');
  const stack: DocumentNode[] = [root];
  const top = (): DocumentNode => stack[stack.length - 1] ?? root;
  const open = (child: DocumentNode): void => {
    top().children.push(child);
    stack.push(child);
  };
  const leaf = (child: DocumentNode): void => {
    top().children.push(child);
  };
  const at = { position };
  let marks = 0;
  // Inside `==…==` every leaf that shows text carries the highlight.
  const marked = (attributes: Attributes = {}): Attributes =>
    marks > 0 ? { ...attributes, [HIGHLIGHT]: true } : attributes;

  for (const token of tokens) {
    switch (token.type) {
      case 'text':
        if (token.content !== '') leaf(node('text', marked(), { ...at, text: token.content }));
        break;
      case 'softbreak':
        leaf(node('soft_break', {}, at));
        break;
      case 'hardbreak':
        leaf(node('line_break', {}, at));
        break;
      case 'code_inline':
        leaf(node('code_inline', marked(), { ...at, text: token.content }));
        break;
      case 'html_inline':
        leaf(node('html_inline', {}, { ...at, text: token.content }));
        break;
      case 'math_inline':
      case 'math_inline_display':
        leaf(
          node(
            'math_inline',
            { display: token.type === 'math_inline_display' },
            { ...at, text: token.content },
          ),
        );
        break;
      case 'wikilink': {
        const meta = token.meta as unknown as WikilinkMeta;
        const attributes: Attributes = marked({ target: meta.target, label: meta.label });
        if (meta.embed === true) attributes['embed'] = true;
        leaf(node('wikilink', attributes, { ...at, text: meta.label }));
        break;
      }
      case 'mark_open':
        marks++;
        break;
      case 'mark_close':
        marks = Math.max(0, marks - 1);
        break;
      case 'block_id':
        // A block id (`^id`) is an address, not content.
        break;
      case 'task_checkbox':
        // Read by the list-item builder; it is an attribute of the item, not content.
        leaf(
          node(
            'text',
            { task_checked: (token.meta as unknown as TaskCheckboxMeta).checked },
            { ...at, text: '' },
          ),
        );
        break;
      case 'image': {
        const alt = plainText({
          ...node('paragraph'),
          children: buildInline(token.children ?? [], position),
        });
        const attributes: Attributes = {
          src: token.attrGet('src') ?? '',
          alt,
          title: token.attrGet('title'),
        };
        // Obsidian's `![alt|200x100](…)`: CSS pixels (see obsidian-syntax).
        const width = Number(token.attrGet('width'));
        const height = Number(token.attrGet('height'));
        if (width > 0) attributes['width'] = width;
        if (height > 0) attributes['height'] = height;
        leaf(node('image', attributes, at));
        break;
      }
      case 'em_open':
        open(node('emphasis', {}, at));
        break;
      case 'strong_open':
        open(node('strong', {}, at));
        break;
      case 's_open':
        open(node('strikethrough', {}, at));
        break;
      case 'link_open':
        open(
          node(
            'link',
            {
              href: token.attrGet('href') ?? '',
              title: token.attrGet('title'),
              autolink: token.markup === 'autolink' || token.markup === 'linkify',
            },
            at,
          ),
        );
        break;
      case 'em_close':
      case 'strong_close':
      case 's_close':
      case 'link_close':
        if (stack.length > 1) stack.pop();
        break;
      case 'footnote_ref':
        // Text as written, so a consumer that does not set footnotes prints `[^1]`; the
        // attribute tells the exporters it is a reference to a footnote defined in the note.
        leaf(
          node(
            'text',
            { [FOOTNOTE_REFERENCE]: (token.meta as unknown as FootnoteMeta).label },
            { ...at, text: token.content },
          ),
        );
        break;
      default:
        // An inline rule added later without a case here still keeps its text.
        if (token.content) leaf(node('text', {}, { ...at, text: token.content }));
    }
  }
  return root.children;
}

const CONTAINER_OPEN: Readonly<Record<string, DocumentNodeType>> = {
  paragraph_open: 'paragraph',
  heading_open: 'heading',
  blockquote_open: 'blockquote',
  callout_open: 'blockquote',
  callout_title_open: 'paragraph',
  bullet_list_open: 'list',
  ordered_list_open: 'list',
  list_item_open: 'list_item',
  table_open: 'table',
  tr_open: 'table_row',
  th_open: 'table_cell',
  td_open: 'table_cell',
};

function alignOf(token: Token): string | null {
  const style = String(token.attrGet('style') ?? '');
  const match = /text-align:\s*(left|right|center)/.exec(style);
  return match?.[1] ?? null;
}

function containerAttributes(token: Token, inHead: boolean): Attributes {
  switch (token.type) {
    case 'heading_open':
      return { level: Number(token.tag.slice(1)) };
    case 'bullet_list_open':
      return { ordered: false, start: null, tight: true, marker: token.markup };
    case 'ordered_list_open':
      return { ordered: true, start: Number(token.attrGet('start') ?? 1), tight: true, marker: token.markup };
    case 'list_item_open':
      return { checked: null };
    case 'callout_open': {
      const meta = token.meta as unknown as CalloutMeta;
      return { [CALLOUT]: meta.kind, [CALLOUT_FOLD]: meta.fold };
    }
    case 'callout_title_open':
      return (token.meta as unknown as CalloutMeta).titled === false
        ? { [CALLOUT_TITLE]: true, [CALLOUT_DEFAULT_TITLE]: true }
        : { [CALLOUT_TITLE]: true };
    case 'tr_open':
      return { header: inHead };
    case 'th_open':
    case 'td_open':
      return { header: token.type === 'th_open', align: alignOf(token) };
    default:
      return {};
  }
}

function leafBlock(token: Token): DocumentNode | undefined {
  const position = positionOf(token);
  switch (token.type) {
    case 'fence': {
      const info = parser.utils.unescapeAll(token.info).trim();
      const language = info.split(/\s+/)[0] ?? '';
      const kind = fenceLanguage(info);
      if (kind === MERMAID_LANGUAGE) return node('mermaid', {}, { text: token.content, position });
      if (kind === FUNCTION_PLOT_LANGUAGE)
        return node('function_plot', {}, { text: token.content, position });
      return node(
        'code_block',
        { language: language || null, info, fenced: true },
        { text: token.content, position },
      );
    }
    case 'code_block':
      return node(
        'code_block',
        { language: null, info: '', fenced: false },
        { text: token.content, position },
      );
    case 'math_block':
      return node('math_block', {}, { text: token.content, position });
    case 'hr':
      return node('thematic_break', {}, { position });
    case 'html_block':
      return node('html_block', {}, { text: token.content, position });
    case 'front_matter':
      return node('front_matter', {}, { text: token.content, position });
    default:
      return undefined;
  }
}

/** Moves a task list's checkbox marker from the item's first paragraph onto the item. */
function liftTaskMarker(item: DocumentNode): void {
  const paragraph = item.children[0];
  const marker = paragraph?.children[0];
  if (!paragraph || marker?.type !== 'text' || !('task_checked' in marker.attributes)) return;
  item.attributes['checked'] = marker.attributes['task_checked'] ?? null;
  paragraph.children.shift();
}

/**
 * Stable ids: a top-level block is named by a hash of its type and source text
 * (plus an occurrence number for repeats), so editing one block leaves every other
 * block's id, and its descendants' ids, unchanged. Descendants extend their
 * parent's id with their index.
 */
function assignIds(root: DocumentNode, lines: readonly string[]): void {
  root.node_id = 'doc';
  const seen = new Map<string, number>();
  for (const block of root.children) {
    const source = block.position
      ? lines.slice(block.position.start_line, block.position.end_line).join('\n')
      : plainText(block);
    const base = `n${contentHash(`${block.type}\u0000${source.trim()}`).slice(0, 12)}`;
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    block.node_id = count === 0 ? base : `${base}-${count}`;
    assignChildIds(block);
  }
}

function assignChildIds(parent: DocumentNode): void {
  parent.children.forEach((child, index) => {
    child.node_id = `${parent.node_id}.${index}`;
    assignChildIds(child);
  });
}

/**
 * The block stage alone, as markdown-it's `normalize` and `block` core rules run it:
 * the same grammar and boundaries, without inline parsing (inline tokens keep their
 * raw text and have no children).
 */
function blockTokens(active: ReturnType<typeof createMarkdownParser>, source: string): Token[] {
  const tokens: Token[] = [];
  const normalized = source.replace(/\r\n?/g, '\n').replace(/\0/g, '\uFFFD');
  active.block.parse(normalized, active, {}, tokens);
  return tokens;
}

/**
 * Markdown to the Document AST (§10.3) through the app's one Markdown grammar.
 * `extensions: false` parses plain CommonMark (for conformance checks); `inline: false`
 * builds only the block structure (the indexer's blocks need no more), with no inline
 * children, headings without text and no node ids.
 */
export function parseDocumentAst(
  source: string,
  options: { extensions?: boolean; inline?: boolean } = {},
): DocumentNode {
  const active =
    options.extensions === false ? (plainParser ??= createMarkdownParser({ extensions: false })) : parser;
  // A byte-order mark is not content; left in, it would hide a heading on line 0.
  const text = source.startsWith('\uFEFF') ? source.slice(1) : source;
  const tokens = options.inline === false ? blockTokens(active, text) : active.parse(text, {});
  const lines = text.split(/\r\n|\r|\n/);
  const root = node('document', {}, { position: { start_line: 0, end_line: lines.length } });
  const stack: DocumentNode[] = [root];
  let inHead = false;
  // The Document AST (§10.3) has no footnote node: a definition is its paragraph, marked with
  // its label and opening with its `[^label]: ` as written (marked too), so a consumer that
  // does not set footnotes prints it as typed.
  let footnoteLabel: string | null = null;

  for (const token of tokens) {
    const parent = stack[stack.length - 1] ?? root;
    if (token.type === 'footnote_open') footnoteLabel = (token.meta as unknown as FootnoteMeta).label;
    else if (token.type === 'thead_open') inHead = true;
    else if (token.type === 'thead_close') inHead = false;
    else if (token.type === 'tbody_open' || token.type === 'tbody_close') continue;
    else if (token.nesting === 1) {
      const type = CONTAINER_OPEN[token.type];
      if (!type) continue;
      const container = node(type, containerAttributes(token, inHead), { position: positionOf(token) });
      // markdown-it marks the paragraphs of a tight list hidden.
      if (type === 'paragraph' && token.hidden) container.attributes['tight'] = true;
      if (type === 'paragraph' && footnoteLabel !== null)
        container.attributes[FOOTNOTE_DEFINITION] = footnoteLabel;
      parent.children.push(container);
      stack.push(container);
    } else if (token.nesting === -1) {
      if (!CONTAINER_OPEN[token.type.replace(/_close$/, '_open')]) continue;
      const closed = stack.pop();
      if (closed?.type === 'heading') closed.text = plainText(closed);
      if (closed?.attributes[CALLOUT_TITLE] === true)
        closed.children = [
          { ...node('strong', {}, { position: closed.position }), children: closed.children },
        ];
      if (closed?.type === 'list_item') liftTaskMarker(closed);
      if (closed?.type === 'list') {
        closed.attributes['tight'] = !closed.children.some((item) =>
          item.children.some((child) => child.type === 'paragraph' && child.attributes['tight'] !== true),
        );
      }
    } else if (token.type === 'inline') {
      if (footnoteLabel !== null)
        parent.children.push(
          node(
            'text',
            { [FOOTNOTE_MARKER]: true },
            { position: parent.position, text: `[^${footnoteLabel}]: ` },
          ),
        );
      footnoteLabel = null;
      parent.children.push(...buildInline(token.children ?? [], parent.position));
    } else if (token.type === 'obsidian_comment') {
      // Never content; but the block splitter needs the comment as one block, or a comment
      // with blank lines in it would be cut up and its middle rendered on its own.
      if (options.inline === false)
        parent.children.push(node('html_block', {}, { text: '', position: positionOf(token) }));
    } else {
      const leaf = leafBlock(token);
      if (leaf) parent.children.push(leaf);
    }
  }
  // The outline feeds block splitting, which names blocks its own way.
  if (options.inline !== false) assignIds(root, lines);
  return root;
}

function parseMetadata(source: string): Record<string, unknown> {
  try {
    return splitFrontMatter(source).data;
  } catch {
    // Broken YAML is still shown as a front_matter node; it just has no fields.
    return {};
  }
}

/** A whole exportable document: AST, title and front-matter fields. */
export function documentFromMarkdown(source: string, title: string): ExportDocument {
  return { title, root: parseDocumentAst(source), metadata: parseMetadata(source) };
}

/** Depth-first walk; `visit` returning false skips the node's children. */
export function walkDocument(
  root: DocumentNode,
  visit: (node: DocumentNode, parent?: DocumentNode) => boolean | void,
): void {
  const step = (current: DocumentNode, parent?: DocumentNode): void => {
    if (visit(current, parent) === false) return;
    for (const child of current.children) step(child, current);
  };
  step(root);
}
