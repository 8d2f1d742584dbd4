import {
  AlignmentType,
  BorderStyle,
  CheckBox,
  Document,
  ExternalHyperlink,
  Footer,
  FootnoteReferenceRun,
  HeadingLevel,
  ImageRun,
  ImportedXmlComponent,
  LevelFormat,
  Packer,
  PageNumber,
  Paragraph,
  ShadingType,
  Table,
  TableCell,
  TableRow,
  TextRun,
  WidthType,
  type FileChild,
  type ParagraphChild,
} from 'docx';
import type { DocumentNode, ExportDocument, ExportPageSize } from '../../contracts/exports';
import { EXPORT_MIME_TYPES } from '../../contracts/exports';
import { styledCode, styledLines, type CodeTheme } from '../../core/code-highlight-themes';
import { HIGHLIGHT } from '../../core/markdown/document-ast';
import { withCalloutTitles } from '../callout-titles';
import { exportCodeTheme } from '../code-theme';
import {
  assertRepresentable,
  WarningList,
  type DocumentExporter,
  type ExportContext,
  type ExportResult,
} from '../exporter';
import { splitAtDisplayMath } from '../display-math';
import { printsTitle } from '../title-heading';
import {
  collectFootnotes,
  footnoteDefinition,
  footnoteReference,
  shownItems,
  type Footnotes,
} from '../footnotes';
import { formulasAsOmml } from '../math/formulas';
import { pictureBox, type AskedSize, type Box } from '../picture-box';
import {
  exportLanguage,
  rasterizeVisuals,
  renderVisuals,
  withFailureNotes,
  type RasterVisual,
  type VisualOutcome,
} from '../visuals';

/** Page sizes in twips (1/1440 in). */
const PAGE_SIZES: Record<ExportPageSize, { width: number; height: number }> = {
  A4: { width: 11906, height: 16838 },
  A5: { width: 8391, height: 11906 },
  Letter: { width: 12240, height: 15840 },
  Legal: { width: 12240, height: 20160 },
};
const HEADINGS = [
  HeadingLevel.HEADING_1,
  HeadingLevel.HEADING_1,
  HeadingLevel.HEADING_2,
  HeadingLevel.HEADING_3,
  HeadingLevel.HEADING_4,
  HeadingLevel.HEADING_5,
  HeadingLevel.HEADING_6,
] as const;
const CODE_FONT = 'Consolas';
const BULLET = 'bullet-list';
const ORDERED = 'ordered-list';
/** Word needs a raster fallback beside an SVG; a 1×1 transparent PNG when no page could draw one. */
const BLANK_PNG = Uint8Array.from(
  atob('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg=='),
  (character) => character.charCodeAt(0),
);
const RASTER_DATA_URL = /^data:image\/(png|jpe?g|gif);base64,([a-z0-9+/=\s]+)$/i;

interface RunStyle {
  bold?: boolean;
  italics?: boolean;
  strike?: boolean;
  code?: boolean;
  link?: boolean;
  /** Obsidian's `==highlight==`: Word's own highlighter, which its readers can find and clear. */
  highlight?: boolean;
}

function decodeBase64(text: string): Uint8Array {
  return Uint8Array.from(atob(text.replace(/\s+/g, '')), (character) => character.charCodeAt(0));
}

/** Pixel size of a PNG (IHDR) or a default for other formats. */
function imageSize(data: Uint8Array, type: string): { width: number; height: number } {
  if (type === 'png' && data.length > 24) {
    const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
    return { width: view.getUint32(16), height: view.getUint32(20) };
  }
  return { width: 400, height: 300 };
}

/** A picture's box in whole CSS pixels (Word's own unit here), no wider than the page's text. */
function docxBox(natural: Box, asked: AskedSize = {}): Box {
  const box = pictureBox(natural, asked, { width: 600 });
  return { width: Math.round(box.width), height: Math.round(box.height) };
}

class DocxWriter {
  readonly warnings: WarningList;
  readonly visuals: ReadonlyMap<string, VisualOutcome>;
  readonly rasters: ReadonlyMap<string, RasterVisual>;
  /** Office Math XML by node id; a formula missing here is written as its TeX source. */
  readonly formulas: ReadonlyMap<string, string>;
  #orderedInstance = 0;
  /** The export's `code_theme`: fenced code is written in its colours. */
  codeTheme: CodeTheme | undefined;
  /**
   * Numbered by the body's references alone: Word numbers its footnotes by where they are
   * referenced, and a footnote cannot hold one of its own.
   */
  footnotes: Footnotes = collectFootnotes({ node_id: '', type: 'document', attributes: {}, children: [] });
  /** Labels whose Word footnote is already referenced: a second reference repeats the number. */
  readonly #footnotesReferenced = new Set<string>();
  #inFootnote = false;

  constructor(
    warnings: WarningList,
    visuals: ReadonlyMap<string, VisualOutcome>,
    rasters: ReadonlyMap<string, RasterVisual>,
    formulas: ReadonlyMap<string, string> = new Map(),
  ) {
    this.warnings = warnings;
    this.visuals = visuals;
    this.rasters = rasters;
    this.formulas = formulas;
  }

  /** A reference: Word's own footnote mark the first time, its number in superscript after that. */
  footnoteReference(label: string): ParagraphChild | undefined {
    const note = this.footnotes.byLabel(label);
    if (!note) return undefined;
    if (note.references > 0 && !this.#inFootnote && !this.#footnotesReferenced.has(label)) {
      this.#footnotesReferenced.add(label);
      return new FootnoteReferenceRun(note.number);
    }
    return new TextRun({ text: String(note.number), superScript: true });
  }

  /** Word's footnotes, by the number their reference carries. */
  footnoteContents(): Record<number, { children: Paragraph[] }> {
    this.#inFootnote = true;
    const contents: Record<number, { children: Paragraph[] }> = {};
    for (const note of this.footnotes.notes)
      if (note.references > 0)
        contents[note.number] = {
          children: [new Paragraph({ style: 'FootnoteText', children: this.inline(note.content) })],
        };
    this.#inFootnote = false;
    return contents;
  }

  /**
   * A definition's place in the text: empty when Word shows it as a footnote, and for a
   * note nothing refers to, its number and text, as the preview shows it.
   */
  footnoteDefinition(
    paragraph: DocumentNode,
    label: string,
    numbering?: { reference: string; level: number; instance: number },
  ): Paragraph | undefined {
    const note = this.footnotes.byLabel(label);
    if (!note || !this.writesInPlace(paragraph)) return undefined;
    return new Paragraph({
      ...(numbering && { numbering }),
      children: [
        new TextRun({ text: String(note.number), superScript: true }),
        new TextRun(' '),
        ...this.inline(note.content),
      ],
    });
  }

  /** Whether a definition stays where it is written: a note nothing refers to has no Word footnote. */
  writesInPlace(paragraph: DocumentNode): boolean {
    const label = footnoteDefinition(paragraph);
    const note = label === undefined ? undefined : this.footnotes.byLabel(label);
    return note !== undefined && note.references === 0 && note.definition === paragraph;
  }

  /** The formula's `<m:oMath>` as a paragraph child (Word's own equation object). */
  math(node: DocumentNode, display: boolean): ParagraphChild | undefined {
    const omml = this.formulas.get(node.node_id);
    if (omml === undefined) return undefined;
    const xml = display ? `<m:oMathPara>${omml}</m:oMathPara>` : omml;
    // Word reads <m:oMath> and <m:oMathPara> as children of <w:p>, beside its runs.
    return ImportedXmlComponent.fromXmlString(xml) as unknown as ParagraphChild;
  }

  /** A displayed equation in a paragraph of its own; its TeX source where it could not be typeset. */
  displayFormula(node: DocumentNode, indent: { indent?: { left: number } }): FileChild[] {
    const math = this.math(node, true);
    if (math) return [new Paragraph({ children: [math], ...indent })];
    return [
      new Paragraph({
        shading: { type: ShadingType.CLEAR, fill: 'F3F4F6', color: 'auto' },
        spacing: { before: 0, after: 0 },
        children: [new TextRun({ text: 'Formula (TeX)', font: CODE_FONT, size: 16, italics: true })],
      }),
      ...this.code(node.text ?? ''),
    ];
  }

  inline(nodes: readonly DocumentNode[], style: RunStyle = {}): ParagraphChild[] {
    const runs: ParagraphChild[] = [];
    const text = (value: string, extra: RunStyle = {}) => {
      const merged = { ...style, ...extra };
      return new TextRun({
        text: value,
        ...(merged.bold && { bold: true }),
        ...(merged.italics && { italics: true }),
        ...(merged.strike && { strike: true }),
        ...(merged.code && {
          font: CODE_FONT,
          shading: { type: ShadingType.CLEAR, fill: 'F3F4F6', color: 'auto' },
        }),
        ...(merged.link && { style: 'Hyperlink' }),
        ...(merged.highlight && { highlight: 'yellow' }),
      });
    };
    const marked = (node: DocumentNode): RunStyle =>
      node.attributes[HIGHLIGHT] === true ? { highlight: true } : {};
    for (const node of nodes) {
      switch (node.type) {
        case 'text': {
          const label = footnoteReference(node);
          runs.push(
            (label !== undefined && this.footnoteReference(label)) || text(node.text ?? '', marked(node)),
          );
          break;
        }
        case 'soft_break':
          runs.push(text(' '));
          break;
        case 'line_break':
          runs.push(new TextRun({ text: '', break: 1 }));
          break;
        case 'emphasis':
          runs.push(...this.inline(node.children, { ...style, italics: true }));
          break;
        case 'strong':
          runs.push(...this.inline(node.children, { ...style, bold: true }));
          break;
        case 'strikethrough':
          runs.push(...this.inline(node.children, { ...style, strike: true }));
          break;
        case 'code_inline':
          runs.push(text(node.text ?? '', { code: true, ...marked(node) }));
          break;
        case 'link': {
          const href = String(node.attributes['href'] ?? '');
          if (/^(?:https?|mailto):/i.test(href)) {
            runs.push(
              new ExternalHyperlink({
                link: href,
                children: this.inline(node.children, { ...style, link: true }) as TextRun[],
              }),
            );
          } else {
            runs.push(...this.inline(node.children, style));
          }
          break;
        }
        case 'wikilink':
          runs.push(text(node.text ?? '', { italics: true, ...marked(node) }));
          break;
        case 'math_inline':
          runs.push(this.math(node, false) ?? new TextRun({ text: node.text ?? '', font: 'Cambria Math' }));
          break;
        case 'image':
          runs.push(this.image(node));
          break;
        case 'html_inline':
          this.warnings.add('DOCX: raw HTML is left out.');
          break;
        default:
          runs.push(...this.inline(node.children, style));
      }
    }
    return runs;
  }

  image(node: DocumentNode): ParagraphChild {
    const src = String(node.attributes['src'] ?? '');
    const alt = String(node.attributes['alt'] ?? '');
    const match = RASTER_DATA_URL.exec(src);
    if (!match) {
      // An export runs offline and never fetches: only images inside the note can go in.
      this.warnings.add(
        'DOCX: images that are not stored in the note (links to the web) are shown as their alt text.',
      );
      return new TextRun({ text: `[${alt}]`, italics: true });
    }
    const kind = (match[1] ?? 'png').toLowerCase();
    const type = kind === 'jpeg' || kind === 'jpg' ? 'jpg' : kind === 'gif' ? 'gif' : 'png';
    const data = decodeBase64(match[2] ?? '');
    return new ImageRun({
      type,
      data,
      transformation: docxBox(imageSize(data, type), node.attributes),
      altText: { name: alt, description: alt, title: alt },
    });
  }

  /** The SVG for readers that show it, and the page's PNG of it for the others (and for mammoth). */
  svgImage(svg: string, width: number, height: number, name: string, png?: Uint8Array): Paragraph {
    if (!png)
      this.warnings.add(
        'DOCX: diagrams and plots are SVG images; Word versions before 2016 show a blank box instead.',
      );
    return new Paragraph({
      alignment: AlignmentType.CENTER,
      children: [
        new ImageRun({
          type: 'svg',
          data: new TextEncoder().encode(svg),
          fallback: { type: 'png', data: png ?? BLANK_PNG },
          transformation: docxBox({ width, height }),
          altText: { name, description: name, title: name },
        }),
      ],
    });
  }

  /** `language` is given for fenced code only: diagram and formula sources stay plain. */
  code(text: string, language?: string): Paragraph[] {
    const theme = this.codeTheme;
    if (language !== undefined && theme && theme.id !== 'none')
      return this.colouredCode(text.replace(/\n$/, ''), language, theme);
    return text
      .replace(/\n$/, '')
      .split('\n')
      .map(
        (line) =>
          new Paragraph({
            shading: { type: ShadingType.CLEAR, fill: 'F3F4F6', color: 'auto' },
            spacing: { before: 0, after: 0 },
            children: [new TextRun({ text: line, font: CODE_FONT, size: 19 })],
          }),
      );
  }

  /** One paragraph per line on the theme's background, a run (`w:color`) per highlighted token. */
  colouredCode(text: string, language: string, theme: CodeTheme): Paragraph[] {
    const hex = (color: string | undefined) => (color ?? '#000000').replace('#', '').toUpperCase();
    return styledLines(styledCode(text, language, theme)).map(
      (runs) =>
        new Paragraph({
          shading: { type: ShadingType.CLEAR, fill: hex(theme.background), color: 'auto' },
          spacing: { before: 0, after: 0 },
          children: (runs.length ? runs : [{ text: '', style: undefined }]).map(
            (run) =>
              new TextRun({
                text: run.text,
                font: CODE_FONT,
                size: 19,
                color: hex(run.style?.color ?? theme.foreground),
                ...(run.style?.bold && { bold: true }),
                ...(run.style?.italic && { italics: true }),
              }),
          ),
        }),
    );
  }

  blocks(
    nodes: readonly DocumentNode[],
    list?: { reference: string; level: number; instance: number },
    quote = 0,
  ): FileChild[] {
    const out: FileChild[] = [];
    for (const node of nodes) {
      const indent = quote > 0 ? { indent: { left: 567 * quote } } : {};
      switch (node.type) {
        case 'heading':
          out.push(
            new Paragraph({
              heading: HEADINGS[Number(node.attributes['level'] ?? 1)] ?? HeadingLevel.HEADING_6,
              children: this.inline(node.children),
            }),
          );
          break;
        case 'paragraph': {
          const footnote = footnoteDefinition(node);
          if (footnote !== undefined) {
            const written = this.footnoteDefinition(node, footnote);
            if (written) out.push(written);
            break;
          }
          // `$$…$$` in the line is a displayed equation of its own paragraph, as the preview
          // centres it: Word shows <m:oMathPara> beside text as an inline equation.
          for (const piece of splitAtDisplayMath(node)) {
            if ('formula' in piece) {
              out.push(...this.displayFormula(piece.formula, indent));
              continue;
            }
            out.push(
              new Paragraph({
                children: this.inline(piece.inline, quote > 0 ? { italics: true } : {}),
                ...indent,
                ...(list && { numbering: list }),
              }),
            );
            list = undefined;
          }
          list = undefined;
          break;
        }
        case 'list': {
          const ordered = node.attributes['ordered'] === true;
          const level = list ? list.level + 1 : 0;
          const items = shownItems(node, (paragraph) => this.writesInPlace(paragraph));
          if (items.length === 0) break;
          const instance = ordered ? ++this.#orderedInstance : 0;
          for (const item of items) {
            const checked = item.attributes['checked'];
            const [first, ...rest] = item.children;
            const reference = ordered ? ORDERED : BULLET;
            const numbering = { reference, level: Math.min(level, 8), instance };
            // A footnote defined in an item is written as a footnote: the item keeps just its number.
            if (first?.type === 'paragraph' && footnoteDefinition(first) === undefined) {
              // A content control, so Word shows a box the reader can tick, not a glyph in the text.
              const box = typeof checked === 'boolean' ? [new CheckBox({ checked }), new TextRun(' ')] : [];
              // The item's text up to a `$$…$$` in it carries the number; the formula and the rest follow.
              const [lead, ...after] = splitAtDisplayMath(first);
              const opensWithText = lead !== undefined && 'inline' in lead;
              out.push(
                new Paragraph({
                  numbering,
                  children: [...box, ...this.inline(opensWithText ? lead.inline : [])],
                }),
              );
              for (const piece of opensWithText ? after : [lead, ...after]) {
                if (!piece) continue;
                out.push(
                  ...('formula' in piece
                    ? this.displayFormula(piece.formula, indent)
                    : [new Paragraph({ children: this.inline(piece.inline), ...indent })]),
                );
              }
              out.push(...this.blocks(rest, { reference, level: Math.min(level, 8), instance }, quote));
            } else {
              // A note nothing refers to stays where it is written: in the item, with its bullet.
              const label = first ? footnoteDefinition(first) : undefined;
              const inPlace =
                first && label !== undefined ? this.footnoteDefinition(first, label, numbering) : undefined;
              out.push(inPlace ?? new Paragraph({ numbering, children: [] }));
              out.push(
                ...this.blocks(
                  inPlace ? rest : item.children,
                  { reference, level: Math.min(level, 8), instance },
                  quote,
                ),
              );
            }
          }
          break;
        }
        case 'blockquote':
          out.push(...this.blocks(node.children, undefined, quote + 1));
          break;
        case 'code_block': {
          const language = node.attributes['language'];
          out.push(...this.code(node.text ?? '', typeof language === 'string' ? language : ''));
          break;
        }
        case 'math_block':
          out.push(...this.displayFormula(node, indent));
          break;
        case 'mermaid':
        case 'function_plot': {
          const outcome = this.visuals.get(node.node_id);
          if (outcome?.ok && typeof outcome.result.content === 'string') {
            out.push(
              this.svgImage(
                outcome.result.content,
                outcome.result.width,
                outcome.result.height,
                node.type === 'mermaid' ? 'Diagram' : 'Function plot',
                this.rasters.get(node.node_id)?.png,
              ),
            );
          } else {
            out.push(...this.code(node.text ?? ''));
          }
          break;
        }
        case 'table':
          out.push(this.table(node));
          break;
        case 'thematic_break':
          out.push(
            new Paragraph({
              border: { bottom: { style: BorderStyle.SINGLE, size: 6, color: 'CCCCCC', space: 1 } },
              children: [],
            }),
          );
          break;
        case 'html_block':
          this.warnings.add('DOCX: raw HTML is left out.');
          break;
        case 'front_matter':
          break;
        default:
          out.push(...this.blocks(node.children, list, quote));
      }
    }
    return out;
  }

  table(node: DocumentNode): Table {
    const columns = Math.max(1, ...node.children.map((row) => row.children.length));
    return new Table({
      width: { size: 100, type: WidthType.PERCENTAGE },
      rows: node.children.map(
        (row) =>
          new TableRow({
            ...(row.attributes['header'] === true && { tableHeader: true }),
            children: Array.from({ length: columns }, (_, index) => {
              const cell = row.children[index];
              const align = cell?.attributes['align'];
              return new TableCell({
                children: [
                  new Paragraph({
                    ...(align === 'right' && { alignment: AlignmentType.RIGHT }),
                    ...(align === 'center' && { alignment: AlignmentType.CENTER }),
                    children: cell
                      ? this.inline(cell.children, row.attributes['header'] === true ? { bold: true } : {})
                      : [],
                  }),
                ],
              });
            }),
          }),
      ),
    });
  }
}

function numberingLevels(format: 'bullet' | 'decimal') {
  return Array.from({ length: 9 }, (_, level) => ({
    level,
    format: format === 'bullet' ? LevelFormat.BULLET : LevelFormat.DECIMAL,
    text: format === 'bullet' ? (['•', '◦', '▪'][level % 3] ?? '•') : `%${level + 1}.`,
    alignment: AlignmentType.LEFT,
    style: { paragraph: { indent: { left: 720 * (level + 1), hanging: 360 } } },
  }));
}

export const docxExporter: DocumentExporter = {
  format: 'docx',
  extension: 'docx',
  mimeType: EXPORT_MIME_TYPES.docx,
  async export(source: ExportDocument, context: ExportContext): Promise<ExportResult> {
    const warnings = new WarningList();
    assertRepresentable(source.root, new Set(['html_block']), 'DOCX');
    // Untitled callouts in the words the app titles them with.
    const document = withCalloutTitles(source);
    // A Word page is white whatever the app's theme: diagrams are drawn for it.
    const visuals = await renderVisuals(document.root, context, warnings, { theme: 'light' });
    const rasters = await rasterizeVisuals(visuals, context, warnings, 'DOCX');
    const formulas = await formulasAsOmml(document.root, warnings, 'DOCX');
    context.signal.throwIfAborted();
    const writer = new DocxWriter(warnings, visuals, rasters, formulas);
    writer.codeTheme = exportCodeTheme(context);
    writer.footnotes = collectFootnotes(document.root, { skipNotes: true });
    // A diagram kept as source says why under it, in the words the HTML export uses.
    const root = withFailureNotes(document.root, visuals, exportLanguage(document));
    const children: FileChild[] = [];
    if (printsTitle(document, context.options.include_title))
      children.push(new Paragraph({ heading: HeadingLevel.TITLE, children: [new TextRun(document.title)] }));
    if (context.options.include_metadata) {
      for (const [key, value] of Object.entries(document.metadata)) {
        children.push(
          new Paragraph({
            children: [
              new TextRun({ text: `${key}: `, bold: true }),
              new TextRun(Array.isArray(value) ? value.join(', ') : String(value)),
            ],
          }),
        );
      }
    }
    const nodes = root.children;
    for (const [index, node] of nodes.entries()) {
      context.signal.throwIfAborted();
      children.push(...writer.blocks([node]));
      context.progress?.('writing', index + 1, nodes.length);
    }
    const file = new Document({
      title: document.title,
      creator: 'NotesAgent',
      styles: {
        default: {
          document: { run: { font: { ascii: 'Calibri', eastAsia: 'Microsoft YaHei', hAnsi: 'Calibri' } } },
        },
      },
      footnotes: writer.footnoteContents(),
      numbering: {
        config: [
          { reference: BULLET, levels: numberingLevels('bullet') },
          { reference: ORDERED, levels: numberingLevels('decimal') },
        ],
      },
      sections: [
        {
          properties: {
            page: {
              size: PAGE_SIZES[context.options.page_size],
              margin: { top: 1134, bottom: 1134, left: 1134, right: 1134 },
            },
          },
          footers: {
            default: new Footer({
              children: [
                new Paragraph({
                  alignment: AlignmentType.CENTER,
                  children: [new TextRun({ children: [PageNumber.CURRENT, ' / ', PageNumber.TOTAL_PAGES] })],
                }),
              ],
            }),
          },
          children,
        },
      ],
    });
    context.signal.throwIfAborted();
    const data = await Packer.pack(file, 'uint8array');
    return { data, warnings: warnings.toArray() };
  },
};
