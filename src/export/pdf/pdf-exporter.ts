import fontkit from '@pdf-lib/fontkit';
import {
  clip,
  closePath,
  concatTransformationMatrix,
  degrees,
  endPath,
  lineTo,
  moveTo,
  popGraphicsState,
  pushGraphicsState,
  PDFArray,
  PDFDict,
  PDFDocument,
  PDFName,
  PDFNumber,
  PDFString,
  rgb,
  type PDFFont,
  type PDFImage,
  type PDFPage,
  type PDFRef,
  type RGB,
} from 'pdf-lib';
import type { DocumentNode, ExportDocument, ExportPageSize } from '../../contracts/exports';
import { parseFunctionPlot, samplePlot } from '../../core/function-plot';
import { plainText } from '../../core/markdown/document-ast';
import {
  assertRepresentable,
  ExportError,
  isDarkExport,
  WarningList,
  type DocumentExporter,
  type ExportContext,
  type ExportResult,
} from '../exporter';
import { typesetFormulas } from '../math/formulas';
import { multiply, type Matrix } from '../math/matrix';
import type { MathDrawing } from '../math/tex-drawing';
import { rasterizeVisuals, renderVisuals } from '../visuals';
import { DEFAULT_PDF_PALETTE, paletteFromThemeCss, type PdfPalette } from './pdf-palette';
import type { FontSubsetter } from './font-subset';

/** Reads the CJK font's bytes (cjk-font.ts in the app; a file in tests). */
export type FontLoader = () => Promise<Uint8Array>;

/** Characters the layout may draw besides the note's own: list markers, page numbers, plot axes. */
const LAYOUT_CHARACTERS = `${Array.from({ length: 0x7f - 0x20 }, (_, index) => String.fromCharCode(0x20 + index)).join('')}•`;

/** Points (1/72 in). */
const PAGE_SIZES: Record<ExportPageSize, [number, number]> = {
  A4: [595.28, 841.89],
  A5: [419.53, 595.28],
  Letter: [612, 792],
  Legal: [612, 1008],
};
const MARGIN = 56;
const BODY_SIZE = 10.5;
const LINE_GAP = 1.45;
const HEADING_SIZES = [0, 20, 16, 14, 12.5, 11.5, 11];

interface Style {
  size: number;
  color: RGB;
  bold?: boolean;
  italic?: boolean;
  strike?: boolean;
  underline?: boolean;
  link?: string;
}

interface Run {
  text: string;
  style: Style;
  /** An inline formula, typeset: drawn as paths, never broken. */
  math?: MathDrawing;
}

/** One word, one CJK character or one formula: the units a line may break between. */
interface Piece {
  text: string;
  style: Style;
  width: number;
  space: boolean;
  math?: MathDrawing;
}

/** What goes left of a list item's first line: its bullet or number, or a task's box. */
type Prefix = { text: string; style: Style } | { checked: boolean; style: Style };

/** Points per MathJax unit (1000 an em) for a formula set at `size`. */
const mathScale = (size: number) => size / 1000;

const CJK_RANGE = '\u2e80-\u9fff\uf900-\ufaff\uff00-\uffef\u3000-\u303f';
/** A line break, a space, one CJK character, or a run of anything else (a Latin word). */
const PIECE = new RegExp(`\\n|\\s+|[${CJK_RANGE}]|[^\\s${CJK_RANGE}]+`, 'g');

/** A diagram drawn by the page, embedded as PNG; `width` and `height` in CSS pixels. */
interface Picture {
  image: PDFImage;
  width: number;
  height: number;
}

/** Writes the Document AST onto pages: a small flow layout over pdf-lib. */
class Layout {
  readonly pdf: PDFDocument;
  readonly font: PDFFont;
  readonly warnings: WarningList;
  readonly palette: PdfPalette;
  readonly width: number;
  readonly height: number;
  readonly pages: PDFPage[] = [];
  readonly outline: Array<{ title: string; level: number; page: PDFPage; y: number }> = [];
  readonly links: Array<{ page: PDFPage; x: number; y: number; width: number; height: number; url: string }> =
    [];
  page!: PDFPage;
  y = 0;
  indent = 0;
  /** Set while a table cell is laid out: the cell's width instead of the page's. */
  columnWidth: number | undefined;
  /** Mermaid diagrams by node id; absent where no page could draw them. */
  pictures: ReadonlyMap<string, Picture> | undefined;
  /** Typeset formulas by node id; a formula missing here is set as its TeX source. */
  formulas: ReadonlyMap<string, MathDrawing> = new Map();

  constructor(
    pdf: PDFDocument,
    font: PDFFont,
    size: [number, number],
    warnings: WarningList,
    palette: PdfPalette,
  ) {
    this.pdf = pdf;
    this.font = font;
    this.warnings = warnings;
    this.palette = palette;
    [this.width, this.height] = size;
    this.newPage();
  }

  get left(): number {
    return MARGIN + this.indent;
  }

  get available(): number {
    return this.columnWidth ?? this.width - MARGIN * 2 - this.indent;
  }

  newPage(): void {
    this.page = this.pdf.addPage([this.width, this.height]);
    this.pages.push(this.page);
    // First on the page, so everything else is drawn over it.
    if (this.palette.background)
      this.page.drawRectangle({
        x: 0,
        y: 0,
        width: this.width,
        height: this.height,
        color: this.palette.background,
      });
    this.y = this.height - MARGIN;
  }

  ensure(height: number): void {
    if (this.y - height < MARGIN) this.newPage();
  }

  gap(points: number): void {
    this.y -= points;
  }

  measure(text: string, size: number): number {
    return this.font.widthOfTextAtSize(text, size);
  }

  /** Runs broken into pieces: Latin words stay whole, CJK characters break anywhere. */
  pieces(runs: readonly Run[]): Piece[] {
    const pieces: Piece[] = [];
    for (const run of runs) {
      if (run.math) {
        const width = run.math.width * mathScale(run.style.size);
        pieces.push({ text: run.text, style: run.style, width, space: false, math: run.math });
        continue;
      }
      for (const part of run.text.match(PIECE) ?? []) {
        if (part === '\n') {
          pieces.push({ text: '\n', style: run.style, width: 0, space: true });
          continue;
        }
        const space = /^\s+$/.test(part);
        const text = space ? ' ' : part;
        pieces.push({ text, style: run.style, width: this.measure(text, run.style.size), space });
      }
    }
    return pieces;
  }

  /** Lays out a paragraph of runs, wrapping at `available`; a too-long word is split by characters. */
  paragraph(runs: readonly Run[], options: { lineHeight?: number; firstLinePrefix?: Prefix } = {}): void {
    const size = runs[0]?.style.size ?? BODY_SIZE;
    const lineHeight = options.lineHeight ?? size * LINE_GAP;
    this.wrap(runs).forEach((line, index) => {
      // A tall inline formula (a fraction, a sum) makes its line taller instead of overlapping.
      let above = 0;
      let below = 0;
      for (const piece of line) {
        if (!piece.math) continue;
        const scale = mathScale(piece.style.size);
        above = Math.max(above, piece.math.ascent * scale - size * 0.95);
        below = Math.max(below, piece.math.descent * scale - size * 0.3);
      }
      const height = lineHeight + above + below;
      this.ensure(height);
      this.y -= height;
      const baseline = this.y + below + (lineHeight - size) / 2 + size * 0.22;
      const prefix = index === 0 ? options.firstLinePrefix : undefined;
      if (prefix && 'checked' in prefix) {
        this.checkbox(prefix.checked, baseline, prefix.style);
      } else if (prefix) {
        this.page.drawText(prefix.text, {
          x: this.left - this.measure(prefix.text, prefix.style.size) - 6,
          y: baseline,
          size: prefix.style.size,
          font: this.font,
          color: prefix.style.color,
        });
      }
      let x = this.left;
      for (const piece of line) {
        this.drawPiece(piece, x, baseline);
        x += piece.width;
      }
    });
  }

  /**
   * A task's box left of its first line, drawn as lines: the CJK font has no ☐ or
   * ☑, and a glyph it lacks prints as an empty "tofu" box whether ticked or not.
   */
  checkbox(checked: boolean, baseline: number, style: Style): void {
    const side = style.size * 0.78;
    const x = this.left - side - 6;
    const bottom = baseline - style.size * 0.06;
    this.page.drawRectangle({
      x,
      y: bottom,
      width: side,
      height: side,
      borderColor: style.color,
      borderWidth: 0.8,
    });
    if (checked) {
      // drawSvgPath's origin is the box's top left, y pointing down.
      this.page.drawSvgPath(
        `M${side * 0.2} ${side * 0.52}L${side * 0.42} ${side * 0.76}L${side * 0.82} ${side * 0.22}`,
        { x, y: bottom + side, borderColor: style.color, borderWidth: 1.3 },
      );
    }
  }

  /** The runs broken into lines that fit `available`. */
  wrap(runs: readonly Run[]): Piece[][] {
    const lines: Piece[][] = [[]];
    let width = 0;
    const pushLine = () => {
      lines.push([]);
      width = 0;
    };
    for (const piece of this.pieces(runs)) {
      if (piece.text === '\n') {
        pushLine();
        continue;
      }
      const line = lines[lines.length - 1] ?? [];
      if (piece.space && line.length === 0) continue;
      if (width + piece.width > this.available && line.length > 0) {
        pushLine();
        if (piece.space) continue;
      }
      if (piece.width > this.available && !piece.math) {
        // A URL or hash longer than the line: split it where it must be.
        for (const character of Array.from(piece.text)) {
          const w = this.measure(character, piece.style.size);
          if (width + w > this.available) pushLine();
          (lines[lines.length - 1] ?? []).push({ ...piece, text: character, width: w });
          width += w;
        }
        continue;
      }
      (lines[lines.length - 1] ?? []).push(piece);
      width += piece.width;
    }
    return lines;
  }

  drawPiece(piece: Piece, x: number, y: number): void {
    const { style } = piece;
    if (piece.math) {
      this.formula(piece.math, x, y, mathScale(style.size), style.color);
    } else if (!piece.space) {
      const options = { x, y, size: style.size, font: this.font, color: style.color };
      this.page.drawText(piece.text, style.italic ? { ...options, xSkew: degrees(12) } : options);
      // One regular font: bold is the same glyphs drawn twice, a hair apart.
      if (style.bold) this.page.drawText(piece.text, { ...options, x: x + style.size * 0.035 });
    }
    if (style.underline || style.strike) {
      const lineY = style.strike ? y + style.size * 0.3 : y - style.size * 0.12;
      this.page.drawLine({
        start: { x, y: lineY },
        end: { x: x + piece.width, y: lineY },
        thickness: 0.6,
        color: style.color,
      });
    }
    if (style.link)
      this.links.push({
        page: this.page,
        x,
        y: y - style.size * 0.2,
        width: piece.width,
        height: style.size * 1.2,
        url: style.link,
      });
  }

  /**
   * A typeset formula as vector paths, its baseline at `y`. Each shape is drawn under
   * its own matrix; pdf-lib's drawSvgPath flips y itself, so the flip is undone here.
   */
  formula(drawing: MathDrawing, x: number, y: number, scale: number, color: RGB): void {
    const place: Matrix = [scale, 0, 0, -scale, x, y];
    for (const shape of drawing.shapes) {
      const [a, b, c, d, e, f] = multiply(multiply(place, shape.matrix), [1, 0, 0, -1, 0, 0]);
      this.page.pushOperators(pushGraphicsState());
      if (shape.clip) {
        const { x: cx, y: cy, width, height } = shape.clip;
        const m = multiply(place, shape.clip.matrix);
        const corners = [
          [cx, cy],
          [cx + width, cy],
          [cx + width, cy + height],
          [cx, cy + height],
        ].map(([px = 0, py = 0]) => [m[0] * px + m[2] * py + m[4], m[1] * px + m[3] * py + m[5]] as const);
        this.page.pushOperators(
          ...corners.map(([px, py], index) => (index === 0 ? moveTo(px, py) : lineTo(px, py))),
          closePath(),
          clip(),
          endPath(),
        );
      }
      this.page.pushOperators(concatTransformationMatrix(a, b, c, d, e, f));
      if (shape.kind === 'text') {
        this.page.drawText(shape.text, { x: 0, y: 0, size: shape.size, font: this.font, color });
      } else if (shape.stroke !== undefined) {
        this.page.drawSvgPath(shape.d, { x: 0, y: 0, borderColor: color, borderWidth: shape.stroke });
      } else {
        this.page.drawSvgPath(shape.d, { x: 0, y: 0, color });
      }
      this.page.pushOperators(popGraphicsState());
    }
  }

  /** A display formula centred on its own line, shrunk to the column when wider. */
  displayFormula(drawing: MathDrawing): void {
    let scale = mathScale(BODY_SIZE * 1.15);
    scale = Math.min(scale, this.available / Math.max(1, drawing.width));
    const width = drawing.width * scale;
    const height = (drawing.ascent + drawing.descent) * scale;
    this.gap(6);
    this.ensure(height);
    this.formula(
      drawing,
      this.left + (this.available - width) / 2,
      this.y - drawing.ascent * scale,
      scale,
      this.palette.text,
    );
    this.y -= height;
    this.gap(8);
  }

  rule(): void {
    this.ensure(12);
    this.y -= 6;
    this.page.drawLine({
      start: { x: this.left, y: this.y },
      end: { x: this.width - MARGIN, y: this.y },
      thickness: 0.8,
      color: this.palette.rule,
    });
    this.y -= 6;
  }

  /** A picture centred at its CSS size (0.75 pt a pixel), shrunk to fit the column and the page. */
  picture(picture: Picture): void {
    let width = Math.min(this.available, picture.width * 0.75);
    let height = (width * picture.height) / Math.max(1, picture.width);
    const tallest = this.height - MARGIN * 2 - 12;
    if (height > tallest) {
      width *= tallest / height;
      height = tallest;
    }
    this.gap(6);
    this.ensure(height);
    this.page.drawImage(picture.image, {
      x: this.left + (this.available - width) / 2,
      y: this.y - height,
      width,
      height,
    });
    this.y -= height;
    this.gap(8);
  }

  /** Pre-formatted text on a tinted background, split across pages line by line. */
  code(text: string): void {
    const size = BODY_SIZE * 0.9;
    const lineHeight = size * 1.4;
    const lines = text.replace(/\n$/, '').split('\n');
    this.gap(4);
    for (const line of lines) {
      this.ensure(lineHeight);
      this.page.drawRectangle({
        x: this.left,
        y: this.y - lineHeight,
        width: this.available,
        height: lineHeight,
        color: this.palette.codeBackground,
      });
      this.indent += 8;
      this.paragraph(
        [{ text: line.replace(/\t/g, '    ') || ' ', style: { size, color: this.palette.codeText } }],
        {
          lineHeight,
        },
      );
      this.indent -= 8;
    }
    this.gap(6);
  }
}

function inlineRuns(nodes: readonly DocumentNode[], style: Style, layout: Layout): Run[] {
  const { warnings, palette } = layout;
  const runs: Run[] = [];
  for (const node of nodes) {
    switch (node.type) {
      case 'text':
        runs.push({ text: node.text ?? '', style });
        break;
      case 'soft_break':
        runs.push({ text: ' ', style });
        break;
      case 'line_break':
        runs.push({ text: '\n', style });
        break;
      case 'emphasis':
        runs.push(...inlineRuns(node.children, { ...style, italic: true }, layout));
        break;
      case 'strong':
        runs.push(...inlineRuns(node.children, { ...style, bold: true }, layout));
        break;
      case 'strikethrough':
        runs.push(...inlineRuns(node.children, { ...style, strike: true }, layout));
        break;
      case 'link': {
        const href = String(node.attributes['href'] ?? '');
        const external = /^(?:https?|mailto):/i.test(href);
        runs.push(
          ...inlineRuns(
            node.children,
            { ...style, color: palette.link, underline: true, ...(external && { link: href }) },
            layout,
          ),
        );
        break;
      }
      case 'wikilink':
        runs.push({ text: node.text ?? '', style: { ...style, underline: true } });
        break;
      case 'code_inline':
        runs.push({ text: node.text ?? '', style: { ...style, color: palette.inlineCode } });
        break;
      case 'math_inline': {
        const drawing = layout.formulas.get(node.node_id);
        if (drawing) runs.push({ text: node.text ?? '', style, math: drawing });
        else runs.push({ text: node.text ?? '', style: { ...style, color: palette.inlineCode } });
        break;
      }
      case 'image':
        warnings.add('PDF: inline images are shown as their alt text.');
        runs.push({
          text: `[${String(node.attributes['alt'] ?? '')}]`,
          style: { ...style, color: palette.muted },
        });
        break;
      case 'html_inline':
        warnings.add('PDF: raw HTML is left out.');
        break;
      default:
        runs.push(...inlineRuns(node.children, style, layout));
    }
  }
  return runs;
}

function drawPlot(layout: Layout, node: DocumentNode, warnings: WarningList): void {
  const parsed = parseFunctionPlot(node.text ?? '');
  const error = parsed.diagnostics.find((item) => item.severity === 'error');
  if (!parsed.plot || error) {
    warnings.add(
      `${error?.code ?? 'FUNCTION_PLOT_PARSE_FAILED'}: Function plot kept as source: ${error?.message ?? ''}`,
    );
    layout.code(node.text ?? '');
    return;
  }
  const sampled = samplePlot(parsed.plot, 300);
  const width = Math.min(layout.available, 420);
  const height = width * 0.6;
  layout.ensure(height + 24);
  layout.gap(8);
  const x0 = layout.left + (layout.available - width) / 2;
  const top = layout.y;
  const [dx0, dx1] = sampled.domain;
  const [dy0, dy1] = sampled.range;
  const sx = (x: number) => ((x - dx0) / (dx1 - dx0)) * width;
  const sy = (y: number) => Math.min(Math.max((1 - (y - dy0) / (dy1 - dy0)) * height, -2), height + 2);
  layout.page.drawRectangle({
    x: x0,
    y: top - height,
    width,
    height,
    borderColor: layout.palette.tableBorder,
    borderWidth: 0.8,
  });
  if (dy0 <= 0 && dy1 >= 0)
    layout.page.drawSvgPath(`M0 ${sy(0)}H${width}`, {
      x: x0,
      y: top,
      borderColor: layout.palette.muted,
      borderWidth: 0.6,
    });
  if (dx0 <= 0 && dx1 >= 0)
    layout.page.drawSvgPath(`M${sx(0)} 0V${height}`, {
      x: x0,
      y: top,
      borderColor: layout.palette.muted,
      borderWidth: 0.6,
    });
  sampled.series.forEach((series, index) => {
    const color = hexColor(series.color) ?? layout.palette.link;
    for (const segment of series.segments) {
      const d = segment
        .map(([x, y], i) => `${i === 0 ? 'M' : 'L'}${sx(x).toFixed(2)} ${sy(y).toFixed(2)}`)
        .join('');
      layout.page.drawSvgPath(d, { x: x0, y: top, borderColor: color, borderWidth: 1.4 });
    }
    layout.page.drawText(series.label, {
      x: x0 + 8,
      y: top - 14 - index * 12,
      size: 8.5,
      font: layout.font,
      color,
    });
  });
  layout.page.drawText(`${dx0}`, {
    x: x0,
    y: top - height - 11,
    size: 8,
    font: layout.font,
    color: layout.palette.muted,
  });
  const right = `${dx1}`;
  layout.page.drawText(right, {
    x: x0 + width - layout.measure(right, 8),
    y: top - height - 11,
    size: 8,
    font: layout.font,
    color: layout.palette.muted,
  });
  layout.y = top - height - 18;
}

function hexColor(value: string): RGB | undefined {
  const match = /^#([0-9a-f]{6})$/i.exec(value);
  if (!match) return undefined;
  const n = Number.parseInt(match[1] ?? '0', 16);
  return rgb(((n >> 16) & 255) / 255, ((n >> 8) & 255) / 255, (n & 255) / 255);
}

function table(layout: Layout, node: DocumentNode, warnings: WarningList): void {
  const rows = node.children;
  const columns = Math.max(1, ...rows.map((row) => row.children.length));
  const columnWidth = layout.available / columns;
  const size = BODY_SIZE * 0.95;
  layout.gap(4);
  for (const row of rows) {
    const header = row.attributes['header'] === true;
    const cells = row.children.map((cell) =>
      inlineRuns(cell.children, { size, color: layout.palette.text, bold: header }, layout),
    );
    // Each cell is laid out in its own column; the row is as tall as its tallest cell.
    const baseIndent = layout.indent;
    layout.ensure(size * LINE_GAP + 6);
    const rowTop = layout.y;
    const rowPage = layout.page;
    const tint = layout.palette.tableHeaderBackground;
    if (header && tint) {
      // The tint goes under the text, so the row's height is measured before it is drawn.
      layout.columnWidth = columnWidth - 8;
      const lines = Math.max(1, ...cells.map((runs) => layout.wrap(runs).length));
      layout.columnWidth = undefined;
      const height = Math.min(lines * size * LINE_GAP + 6, rowTop - MARGIN);
      layout.page.drawRectangle({
        x: layout.left,
        y: rowTop - height,
        width: columnWidth * columns,
        height,
        color: tint,
      });
    }
    let lowest = rowTop;
    let overflowed = false;
    cells.forEach((runs, index) => {
      layout.page = rowPage;
      layout.y = rowTop - 3;
      layout.indent = baseIndent + index * columnWidth + 4;
      layout.columnWidth = columnWidth - 8;
      layout.paragraph(runs.length ? runs : [{ text: ' ', style: { size, color: layout.palette.text } }]);
      if (layout.page === rowPage) lowest = Math.min(lowest, layout.y);
      else overflowed = true;
    });
    layout.columnWidth = undefined;
    layout.indent = baseIndent;
    if (overflowed) warnings.add('PDF: a table row taller than a page is cut at the page end.');
    layout.page = rowPage;
    layout.y = Math.min(lowest, rowTop) - 3;
    const x = layout.left;
    const height = rowTop - layout.y;
    for (let column = 0; column < columns; column++) {
      layout.page.drawRectangle({
        x: x + column * columnWidth,
        y: layout.y,
        width: columnWidth,
        height,
        borderColor: layout.palette.tableBorder,
        borderWidth: 0.7,
      });
    }
  }
  layout.gap(6);
}

function blocks(layout: Layout, nodes: readonly DocumentNode[], warnings: WarningList, tight = false): void {
  for (const node of nodes) {
    const attributes = node.attributes;
    switch (node.type) {
      case 'heading': {
        const level = Number(attributes['level'] ?? 1);
        const size = HEADING_SIZES[level] ?? BODY_SIZE;
        layout.gap(size * 0.6);
        layout.ensure(size * 3);
        layout.outline.push({ title: node.text ?? plainText(node), level, page: layout.page, y: layout.y });
        layout.paragraph(
          inlineRuns(node.children, { size, color: layout.palette.heading, bold: true }, layout),
        );
        layout.gap(size * 0.3);
        break;
      }
      case 'paragraph':
        layout.paragraph(inlineRuns(node.children, { size: BODY_SIZE, color: layout.palette.text }, layout));
        if (!tight) layout.gap(BODY_SIZE * 0.6);
        break;
      case 'list': {
        const ordered = attributes['ordered'] === true;
        let number = Number(attributes['start'] ?? 1);
        layout.indent += 18;
        for (const item of node.children) {
          const checked = item.attributes['checked'];
          const style = { size: BODY_SIZE, color: layout.palette.text };
          const prefix: Prefix =
            typeof checked === 'boolean' ? { checked, style } : { text: ordered ? `${number}.` : '•', style };
          number += 1;
          const [first, ...rest] = item.children;
          if (first?.type === 'paragraph') {
            layout.paragraph(
              inlineRuns(first.children, { size: BODY_SIZE, color: layout.palette.text }, layout),
              { firstLinePrefix: prefix },
            );
            if (attributes['tight'] !== true) layout.gap(BODY_SIZE * 0.4);
            blocks(layout, rest, warnings, attributes['tight'] === true);
          } else {
            layout.paragraph([{ text: ' ', style }], { firstLinePrefix: prefix });
            blocks(layout, item.children, warnings, attributes['tight'] === true);
          }
        }
        layout.indent -= 18;
        if (!tight) layout.gap(BODY_SIZE * 0.5);
        break;
      }
      case 'blockquote': {
        const startY = layout.y;
        const startPage = layout.page;
        layout.indent += 14;
        blocks(layout, node.children, warnings);
        layout.indent -= 14;
        if (layout.page === startPage) {
          layout.page.drawLine({
            start: { x: layout.left + 4, y: startY },
            end: { x: layout.left + 4, y: layout.y + 4 },
            thickness: 2.5,
            color: layout.palette.quoteBar,
          });
        }
        break;
      }
      case 'code_block':
        layout.code(node.text ?? '');
        break;
      case 'math_block': {
        const drawing = layout.formulas.get(node.node_id);
        if (drawing) layout.displayFormula(drawing);
        else layout.code(`Formula (TeX)\n${node.text ?? ''}`);
        break;
      }
      case 'mermaid': {
        const picture = layout.pictures?.get(node.node_id);
        if (picture) {
          layout.picture(picture);
          break;
        }
        // With a page to draw them, the reason a diagram is not drawn was already warned about.
        if (!layout.pictures) warnings.add('PDF: Mermaid diagrams are shown as their source.');
        layout.code(node.text ?? '');
        break;
      }
      case 'function_plot':
        drawPlot(layout, node, warnings);
        break;
      case 'table':
        table(layout, node, warnings);
        break;
      case 'thematic_break':
        layout.rule();
        break;
      case 'html_block':
        warnings.add('PDF: raw HTML is left out.');
        break;
      case 'front_matter':
        break;
      default:
        blocks(layout, node.children, warnings, tight);
    }
  }
}

/** Headings as the PDF outline (bookmarks), nested by level. */
function addOutline(pdf: PDFDocument, layout: Layout): void {
  if (layout.outline.length === 0) return;
  const context = pdf.context;
  const outlineRef = context.nextRef();
  type Entry = {
    ref: PDFRef;
    title: string;
    level: number;
    page: PDFPage;
    y: number;
    children: Entry[];
    parent?: Entry;
  };
  const root: Entry = {
    ref: outlineRef,
    title: '',
    level: 0,
    page: layout.pages[0] as PDFPage,
    y: 0,
    children: [],
  };
  const stack: Entry[] = [root];
  for (const item of layout.outline) {
    while ((stack[stack.length - 1]?.level ?? 0) >= item.level) stack.pop();
    const parent = stack[stack.length - 1] ?? root;
    const entry: Entry = { ...item, ref: context.nextRef(), children: [], parent };
    parent.children.push(entry);
    stack.push(entry);
  }
  const count = (entry: Entry): number => entry.children.reduce((sum, child) => sum + 1 + count(child), 0);
  const write = (entry: Entry): void => {
    entry.children.forEach((child, index) => {
      const dict = context.obj({
        Title: PDFString.of(child.title.slice(0, 200)),
        Parent: entry.ref,
        Dest: [child.page.ref, PDFName.of('XYZ'), null, PDFNumber.of(child.y), null],
      });
      const previous = entry.children[index - 1];
      const next = entry.children[index + 1];
      if (previous) dict.set(PDFName.of('Prev'), previous.ref);
      if (next) dict.set(PDFName.of('Next'), next.ref);
      const first = child.children[0];
      const last = child.children[child.children.length - 1];
      if (first && last) {
        dict.set(PDFName.of('First'), first.ref);
        dict.set(PDFName.of('Last'), last.ref);
        dict.set(PDFName.of('Count'), PDFNumber.of(count(child)));
      }
      context.assign(child.ref, dict);
      write(child);
    });
  };
  write(root);
  const first = root.children[0];
  const last = root.children[root.children.length - 1];
  if (!first || !last) return;
  context.assign(
    outlineRef,
    context.obj({ Type: 'Outlines', First: first.ref, Last: last.ref, Count: PDFNumber.of(count(root)) }),
  );
  pdf.catalog.set(PDFName.of('Outlines'), outlineRef);
  pdf.catalog.set(PDFName.of('PageMode'), PDFName.of('UseOutlines'));
}

function addLinks(pdf: PDFDocument, layout: Layout): void {
  for (const link of layout.links) {
    const annotation = pdf.context.register(
      pdf.context.obj({
        Type: 'Annot',
        Subtype: 'Link',
        Rect: [link.x, link.y, link.x + link.width, link.y + link.height],
        Border: [0, 0, 0],
        A: { Type: 'Action', S: 'URI', URI: PDFString.of(link.url) },
      }),
    );
    const annots = link.page.node.Annots();
    if (annots) annots.push(annotation);
    else link.page.node.set(PDFName.of('Annots'), pdf.context.obj([annotation]));
  }
}

/**
 * PDF readers (and pdffonts) recognise a subset font by a six-letter tag before its
 * name (ISO 32000 §9.6.4); pdf-lib names an embedded font `Name-1234`.
 */
function tagSubsetFont(pdf: PDFDocument, font: PDFFont, seed: string): void {
  let hash = 0;
  for (const character of `${seed}|${font.name}`)
    hash = (Math.imul(hash, 31) + (character.codePointAt(0) ?? 0)) >>> 0;
  const tag = Array.from({ length: 6 }, (_, index) =>
    String.fromCharCode(65 + ((hash >>> (index * 5)) % 26)),
  ).join('');
  const type0 = pdf.context.lookup(font.ref, PDFDict);
  const baseName = type0.get(PDFName.of('BaseFont'));
  if (!(baseName instanceof PDFName)) return;
  const name = PDFName.of(`${tag}+${baseName.decodeText().replace(/-\d+$/, '')}`);
  type0.set(PDFName.of('BaseFont'), name);
  const descendants = type0.lookup(PDFName.of('DescendantFonts'), PDFArray);
  const cidFont = descendants.lookup(0, PDFDict);
  cidFont.set(PDFName.of('BaseFont'), name);
  cidFont.lookup(PDFName.of('FontDescriptor'), PDFDict).set(PDFName.of('FontName'), name);
}

/** Every character the document's text, attributes (alt text, labels) and `extra` strings hold. */
export function documentCodePoints(root: DocumentNode, extra: readonly string[]): Set<number> {
  const codePoints = new Set<number>();
  const add = (text: string) => {
    for (const character of text) codePoints.add(character.codePointAt(0) ?? 0);
  };
  extra.forEach(add);
  const visit = (node: DocumentNode) => {
    if (node.text) add(node.text);
    for (const value of Object.values(node.attributes)) if (typeof value === 'string') add(value);
    node.children.forEach(visit);
  };
  visit(root);
  return codePoints;
}

/**
 * `loadFont` gives the full CJK font, `loadSubsetter` the subsetter (font-subset.ts
 * over the hb-subset WASM); each is loaded on the first PDF export and kept.
 */
export function createPdfExporter(
  loadFont: () => Promise<FontLoader>,
  loadSubsetter: () => Promise<FontSubsetter>,
): DocumentExporter {
  let loader: Promise<FontLoader> | undefined;
  let subsetter: Promise<FontSubsetter> | undefined;
  return {
    format: 'pdf',
    extension: 'pdf',
    mimeType: 'application/pdf',
    async export(document: ExportDocument, context: ExportContext): Promise<ExportResult> {
      const warnings = new WarningList();
      assertRepresentable(document.root, new Set(['html_block']), 'PDF');
      loader ??= loadFont();
      let fontBytes: Uint8Array;
      try {
        fontBytes = await (await loader)();
      } catch (error) {
        loader = undefined;
        throw new ExportError(
          'EXPORT_RENDER_FAILED',
          `The PDF font is not available: ${error instanceof Error ? error.message : 'unknown error'}`,
        );
      }
      context.signal.throwIfAborted();
      const metadata = context.options.include_metadata
        ? Object.entries(document.metadata).map(
            ([key, value]) => `${key}: ${Array.isArray(value) ? value.join(', ') : String(value)}`,
          )
        : [];
      let subsetBytes: Uint8Array;
      try {
        subsetter ??= loadSubsetter();
        const codePoints = documentCodePoints(document.root, [
          document.title,
          ...metadata,
          LAYOUT_CHARACTERS,
        ]);
        subsetBytes = await (await subsetter)(fontBytes, codePoints);
      } catch (error) {
        subsetter = undefined;
        throw new ExportError(
          'EXPORT_RENDER_FAILED',
          `The PDF font could not be subset: ${error instanceof Error ? error.message : 'unknown error'}`,
        );
      }
      context.signal.throwIfAborted();
      const pdf = await PDFDocument.create();
      pdf.registerFontkit(fontkit);
      // Only the glyphs this document uses, subset by HarfBuzz; pdf-lib embeds that file as it is.
      const font = await pdf.embedFont(subsetBytes, { subset: false });
      pdf.setTitle(document.title);
      pdf.setCreator('NotesAgent');
      pdf.setProducer('NotesAgent');
      const palette = context.theme
        ? paletteFromThemeCss(context.theme.css, context.theme.is_dark)
        : isDarkExport(context)
          ? paletteFromThemeCss('', true)
          : DEFAULT_PDF_PALETTE;
      const layout = new Layout(pdf, font, PAGE_SIZES[context.options.page_size], warnings, palette);
      if (context.rasterizer) {
        // Mermaid needs the page to draw; function plots are drawn below as vector paths.
        const visuals = await renderVisuals(document.root, context, warnings, { only: new Set(['mermaid']) });
        const pictures = new Map<string, Picture>();
        for (const [nodeId, raster] of await rasterizeVisuals(visuals, context, warnings, 'PDF'))
          pictures.set(nodeId, { image: await pdf.embedPng(raster.png), ...raster });
        layout.pictures = pictures;
      }
      layout.formulas = await typesetFormulas(document.root, warnings, 'PDF', context.signal);
      if (context.options.include_title) {
        layout.paragraph([{ text: document.title, style: { size: 22, color: palette.heading, bold: true } }]);
        layout.gap(12);
      }
      if (metadata.length > 0) {
        for (const line of metadata)
          layout.paragraph([{ text: line, style: { size: 9, color: palette.muted } }]);
        layout.gap(8);
      }
      const children = document.root.children;
      for (let index = 0; index < children.length; index++) {
        context.signal.throwIfAborted();
        blocks(layout, [children[index] as DocumentNode], warnings);
        context.progress?.('writing', index + 1, children.length);
      }
      const total = layout.pages.length;
      layout.pages.forEach((page, index) => {
        const label = `${index + 1} / ${total}`;
        page.drawText(label, {
          x: (layout.width - layout.measure(label, 8.5)) / 2,
          y: MARGIN / 2,
          size: 8.5,
          font,
          color: palette.muted,
        });
      });
      addOutline(pdf, layout);
      addLinks(pdf, layout);
      await font.embed();
      tagSubsetFont(pdf, font, document.title);
      const data = await pdf.save();
      return { data, warnings: warnings.toArray() };
    },
  };
}
