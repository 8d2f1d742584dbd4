import fontkit, { type Font } from '@pdf-lib/fontkit';
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
  LineJoinStyle,
  setCharacterSqueeze,
  setLineJoin,
  setLineWidth,
  setStrokingColor,
  setTextRenderingMode,
  TextRenderingMode,
  PDFArray,
  PDFDict,
  PDFDocument,
  PDFHexString,
  PDFNull,
  PDFName,
  type PDFFont,
  type PDFImage,
  type PDFPage,
  type RGB,
} from 'pdf-lib';
import type { DocumentNode, ExportDocument, ExportPageSize } from '../../contracts/exports';
import type { CodeTheme } from '../../core/code-highlight-themes';
import { HIGHLIGHT, plainText } from '../../core/markdown/document-ast';
import { codeBlockColours, exportCodeTheme } from '../code-theme';
import {
  collectFootnotes,
  footnoteDefinition,
  footnoteReference,
  notesHeading,
  shownItems,
  shownItemsTight,
  type Footnotes,
} from '../footnotes';
import {
  assertRepresentable,
  ExportError,
  isDarkExport,
  WarningList,
  type DocumentExporter,
  type ExportContext,
  type ExportResult,
} from '../exporter';
import { splitAtDisplayMath } from '../display-math';
import { formulasAsText, typesetFormulas } from '../math/formulas';
import { multiply, type Matrix } from '../math/matrix';
import type { MathDrawing } from '../math/tex-drawing';
import { rasterizeVisuals, renderVisuals, withVisualFailureNotes } from '../visuals';
import { withCalloutTitles } from '../callout-titles';
import { printsTitle } from '../title-heading';
import { pictureBox, type AskedSize } from '../picture-box';
import { CODE_LINE_HEIGHT, drawCodeBlock, type MonoFont } from './code-block';
import { defaultMonoFontLoader, type FontLoader } from './font-loader';
import type { FontSubsetter } from './font-subset';
import { codeText, embedMonoFont } from './mono-font';
import { uriHexDigits } from './pdf-link';
import { addOutline, type OutlineItem } from './pdf-outline';
import { DEFAULT_PDF_PALETTE, paletteFromThemeCss, type PdfPalette } from './pdf-palette';
import { drawPlot, plotBlockHeight, plotParses } from './pdf-plot';
import { carryOver, fitReferringLine, footHeight } from './footnote-space';
import { textOutline } from './text-outline';

export type { FontLoader } from './font-loader';

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
/** Footnotes at a page's foot: smaller text, indented past their number, under a short rule. */
const NOTE_SIZE = BODY_SIZE * 0.85;
const NOTE_LINE_GAP = 1.35;
const NOTE_INDENT = 12;
/** The gap over the foot's rule and under it, rule included. */
const NOTE_SEPARATOR = 12;
/** The outline bold text is stroked with, per point of type (both sides: about what a bold face adds). */
const BOLD_STROKE = 0.035;

/** Lines of body text a page keeps above a footnote carried over from the page before. */
const BODY_KEPT_OVER_CARRIED_NOTES = 4;

interface Style {
  size: number;
  color: RGB;
  bold?: boolean;
  italic?: boolean;
  strike?: boolean;
  underline?: boolean;
  link?: string;
  /** Code: set in the monospaced font where it has the glyph, on the code background. */
  code?: boolean;
  /** Points the text sits above the baseline: a footnote's number. */
  rise?: number;
  /** The number of the footnote this text refers to: a link to the note. */
  footnote?: number;
  /** Obsidian's `==highlight==`: on the palette's highlight colour. */
  highlight?: boolean;
}

interface Run {
  text: string;
  style: Style;
  /** An inline formula, typeset: drawn as paths, never broken. */
  math?: MathDrawing;
  /** The formula as readable text, laid invisibly over its drawing. */
  mathText?: string;
}

/** A stretch of a piece in one font. */
interface Part {
  text: string;
  font: PDFFont;
  width: number;
}

/** One word, one CJK character or one formula: the units a line may break between. */
interface Piece {
  text: string;
  style: Style;
  width: number;
  space: boolean;
  math?: MathDrawing;
  mathText?: string;
  /** More than one only in code, where a word may mix the monospaced font and the CJK one. */
  parts: Part[];
}

type Align = 'left' | 'right' | 'center';

/** What goes left of a list item's first line: its bullet or number, or a task's box. */
type Prefix = { text: string; style: Style } | { checked: boolean; style: Style };

/** A line of a footnote, laid out when its reference is and drawn at the foot of its page. */
interface NoteLine {
  note: number;
  /** The note's first line: its number goes left of it. */
  first: boolean;
  pieces: Piece[];
  size: number;
  height: number;
  below: number;
  lineHeight: number;
}

/** Points per MathJax unit (1000 an em) for a formula set at `size`. */
const mathScale = (size: number) => size / 1000;

const CJK_RANGE = '\u2e80-\u9fff\uf900-\ufaff\uff00-\uffef\u3000-\u303f';
/** A line break, a space, one CJK character, or a run of anything else (a Latin word). */
const PIECE = new RegExp(`\\n|\\s+|[${CJK_RANGE}]|[^\\s${CJK_RANGE}]+`, 'g');

/**
 * A picture embedded once: a diagram drawn by the page (PNG) or one the note holds, with its own
 * `width` and `height` in CSS pixels and, for the note's, the size the note asks for.
 */
interface Picture {
  image: PDFImage;
  width: number;
  height: number;
  asked?: AskedSize;
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
  readonly outline: OutlineItem[] = [];
  /** Areas that link to a web address (`url`) or to a place in the document (`target`). */
  readonly links: Array<{
    page: PDFPage;
    x: number;
    y: number;
    width: number;
    height: number;
    url?: string;
    target?: string;
  }> = [];
  /** Places links may go to, by name (`fn-1` a note, `fnref-1` its first reference): the top of a line. */
  readonly destinations = new Map<string, { page: PDFPage; y: number }>();
  page!: PDFPage;
  y = 0;
  indent = 0;
  /** Set while a table cell is laid out: the cell's width instead of the page's. */
  columnWidth: number | undefined;
  /** Mermaid diagrams by node id; absent where no page could draw them. */
  pictures: ReadonlyMap<string, Picture> | undefined;
  /** The note's own images (data: URLs pdf-lib can embed) by node id. */
  images: ReadonlyMap<string, Picture> = new Map();
  /** Typeset formulas by node id; a formula missing here is set as its TeX source. */
  formulas: ReadonlyMap<string, MathDrawing> = new Map();
  /** Each formula as one line of text (tex-linear.ts), by node id: what copy, search and screen readers get. */
  formulaTexts: ReadonlyMap<string, string> = new Map();
  /** Absent when the note has no code or the font could not be loaded: code is then set in `font`. */
  mono: MonoFont | undefined;
  /** `font`'s glyph outlines: what a formula's `\text{}` draws where the math font lacks a character. */
  outlines: Font | undefined;
  /** The export's `code_theme`: fenced code is drawn in its colours. */
  codeTheme: CodeTheme | undefined;
  codeBlock: { background: string; foreground: string } | undefined;
  /** The note's footnotes: numbers in the text, each note at the foot of the page that first refers to it. */
  footnotes: Footnotes = collectFootnotes({ node_id: '', type: 'document', attributes: {}, children: [] });
  /** Each page's footnote lines, drawn once the body is laid out. */
  readonly feet = new Map<PDFPage, NoteLine[]>();
  /** Footnote lines that did not fit at their page's foot and go on at the next page's. */
  carried: NoteLine[] = [];
  /** The numbers of the notes already set at a page's foot. */
  readonly notesAtFoot = new Set<number>();

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

  /** Where the body ends on this page: above the bottom margin and the page's footnotes. */
  get bottom(): number {
    return MARGIN + footHeight(this.feet.get(this.page) ?? [], NOTE_SEPARATOR);
  }

  /** `notesOnly`: a page for footnotes carried past the body's end, which they may fill. */
  newPage(notesOnly = false): void {
    this.page = this.pdf.addPage([this.width, this.height]);
    this.pages.push(this.page);
    if (this.carried.length > 0) {
      const kept = notesOnly ? 0 : BODY_KEPT_OVER_CARRIED_NOTES * BODY_SIZE * LINE_GAP;
      const fit = carryOver(this.carried, this.height - MARGIN * 2 - kept, NOTE_SEPARATOR);
      this.feet.set(this.page, fit.placed);
      this.carried = fit.carried;
    }
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
    if (this.y - height < this.bottom) this.newPage();
  }

  /**
   * Room for a body line of `height` that first refers to the footnotes `notes`, with
   * their lines at this page's foot (see footnote-space.ts): a new page where they do not fit.
   */
  ensureWithNotes(height: number, notes: readonly number[]): void {
    const lines = notes.flatMap((number) => this.noteLines(number));
    notes.forEach((number) => this.notesAtFoot.add(number));
    // The foot may still be setting an earlier note: these then follow it on the next page.
    if (this.carried.length > 0) this.ensure(height);
    if (this.carried.length > 0) {
      this.carried.push(...lines);
      return;
    }
    for (;;) {
      const foot = this.feet.get(this.page) ?? [];
      const fit = fitReferringLine({
        room: this.y - MARGIN,
        lineHeight: height,
        foot,
        separator: NOTE_SEPARATOR,
        notes: lines,
        pageTop: this.y >= this.height - MARGIN,
      });
      if (!fit) {
        this.newPage();
        continue;
      }
      this.feet.set(this.page, [...foot, ...fit.placed]);
      this.carried.push(...fit.carried);
      return;
    }
  }

  /** Footnote `number`'s text broken into lines as the foot sets them. */
  noteLines(number: number): NoteLine[] {
    const note = this.footnotes.notes[number - 1];
    if (!note) return [];
    const style = { size: NOTE_SIZE, color: this.palette.text };
    const runs = inlineRuns(note.content, style, this);
    const saved = this.columnWidth;
    this.columnWidth = this.width - MARGIN * 2 - NOTE_INDENT;
    const wrapped = this.wrap(runs.length > 0 ? runs : [{ text: ' ', style }]);
    this.columnWidth = saved;
    const lineHeight = NOTE_SIZE * NOTE_LINE_GAP;
    return wrapped.map((pieces, index) => ({
      note: number,
      first: index === 0,
      pieces,
      size: NOTE_SIZE,
      lineHeight,
      ...this.lineBox(pieces, NOTE_SIZE, lineHeight),
    }));
  }

  /** A line's height, taller than `lineHeight` where an inline formula reaches above or below it. */
  lineBox(line: readonly Piece[], size: number, lineHeight: number): { height: number; below: number } {
    let above = 0;
    let below = 0;
    for (const piece of line) {
      if (!piece.math) continue;
      const scale = mathScale(piece.style.size);
      above = Math.max(above, piece.math.ascent * scale - size * 0.95);
      below = Math.max(below, piece.math.descent * scale - size * 0.3);
    }
    return { height: lineHeight + above + below, below };
  }

  /** Each page's footnotes at its foot, under a short rule; a note's number leads back to its reference. */
  drawFeet(): void {
    const saved = this.page;
    for (const [page, lines] of this.feet) {
      if (lines.length === 0) continue;
      this.page = page;
      let y = MARGIN + footHeight(lines, NOTE_SEPARATOR);
      const ruleY = y - NOTE_SEPARATOR / 2;
      page.drawLine({
        start: { x: MARGIN, y: ruleY },
        end: { x: MARGIN + Math.min(144, (this.width - MARGIN * 2) / 3), y: ruleY },
        thickness: 0.6,
        color: this.palette.rule,
      });
      y -= NOTE_SEPARATOR;
      for (const line of lines) {
        const top = y;
        y -= line.height;
        const baseline = y + line.below + (line.lineHeight - line.size) / 2 + line.size * 0.22;
        if (line.first) {
          const label = String(line.note);
          const style = { size: line.size * 0.75, color: this.palette.link };
          // Close to the text, as a copied note reads "1 Note text", not the numbers in a column apart.
          page.drawText(label, {
            x: MARGIN + NOTE_INDENT - this.measure(label, style.size) - line.size * 0.25,
            y: baseline + line.size * 0.3,
            size: style.size,
            font: this.font,
            color: style.color,
          });
          this.destinations.set(`fn-${line.note}`, { page, y: top });
          this.links.push({
            page,
            x: MARGIN - 2,
            y,
            width: NOTE_INDENT,
            height: line.height,
            target: `fnref-${line.note}`,
          });
        }
        let x = MARGIN + NOTE_INDENT;
        for (const piece of line.pieces) {
          this.drawPiece(piece, x, baseline);
          x += piece.width;
        }
      }
    }
    this.page = saved;
  }

  gap(points: number): void {
    this.y -= points;
  }

  measure(text: string, size: number, font: PDFFont = this.font): number {
    return font.widthOfTextAtSize(text, size);
  }

  /** `text` split where its font changes: code takes the monospaced font for what it covers. */
  parts(text: string, style: Style): Part[] {
    const { mono } = this;
    if (!style.code || !mono) return [{ text, font: this.font, width: this.measure(text, style.size) }];
    const parts: Part[] = [];
    for (const character of text) {
      const font = mono.covers.has(character.codePointAt(0) ?? 0) ? mono.font : this.font;
      const last = parts[parts.length - 1];
      if (last?.font === font) last.text += character;
      else parts.push({ text: character, font, width: 0 });
    }
    for (const part of parts) part.width = this.measure(part.text, style.size, part.font);
    return parts;
  }

  piece(text: string, style: Style, space: boolean): Piece {
    const parts = this.parts(text, style);
    const width = parts.reduce((sum, part) => sum + part.width, 0);
    return { text, style, width, space, parts };
  }

  /** Runs broken into pieces: Latin words stay whole, CJK characters break anywhere. */
  pieces(runs: readonly Run[]): Piece[] {
    const pieces: Piece[] = [];
    for (const run of runs) {
      if (run.math) {
        const width = run.math.width * mathScale(run.style.size);
        const { text, style, math, mathText } = run;
        pieces.push({ text, style, width, space: false, math, ...(mathText && { mathText }), parts: [] });
        continue;
      }
      for (const part of run.text.match(PIECE) ?? []) {
        if (part === '\n') {
          pieces.push({ text: '\n', style: run.style, width: 0, space: true, parts: [] });
          continue;
        }
        const space = /^\s+$/.test(part);
        pieces.push(this.piece(space ? ' ' : part, run.style, space));
      }
    }
    return pieces;
  }

  /** Lays out a paragraph of runs, wrapping at `available`; a too-long word is split by characters. */
  paragraph(
    runs: readonly Run[],
    options: { lineHeight?: number; firstLinePrefix?: Prefix; align?: Align } = {},
  ): void {
    const size = runs[0]?.style.size ?? BODY_SIZE;
    const lineHeight = options.lineHeight ?? size * LINE_GAP;
    this.wrap(runs).forEach((line, index) => {
      // A tall inline formula (a fraction, a sum) makes its line taller instead of overlapping.
      const { height, below } = this.lineBox(line, size, lineHeight);
      const notes = [
        ...new Set(
          line.flatMap((piece) =>
            piece.style.footnote !== undefined && !this.notesAtFoot.has(piece.style.footnote)
              ? [piece.style.footnote]
              : [],
          ),
        ),
      ];
      if (notes.length > 0) this.ensureWithNotes(height, notes);
      else this.ensure(height);
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
      let x = this.left + this.alignOffset(line, options.align);
      for (const piece of line) {
        this.drawPiece(piece, x, baseline);
        x += piece.width;
      }
    });
  }

  /** How far right a line starts so that it ends at the column's right edge, or sits centred. */
  alignOffset(line: readonly Piece[], align: Align | undefined): number {
    if (align !== 'right' && align !== 'center') return 0;
    let end = line.length;
    while (end > 0 && line[end - 1]?.space) end -= 1;
    const width = line.slice(0, end).reduce((sum, piece) => sum + piece.width, 0);
    const room = Math.max(0, this.available - width);
    return align === 'right' ? room : room / 2;
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
      // A footnote's number stays with the word it follows, a few points into the margin if need be.
      if (width + piece.width > this.available && line.length > 0 && piece.style.rise === undefined) {
        pushLine();
        if (piece.space) continue;
      }
      if (piece.width > this.available && !piece.math) {
        // A URL or hash longer than the line: split it where it must be.
        for (const character of Array.from(piece.text)) {
          const split = this.piece(character, piece.style, false);
          if (width + split.width > this.available) pushLine();
          (lines[lines.length - 1] ?? []).push(split);
          width += split.width;
        }
        continue;
      }
      (lines[lines.length - 1] ?? []).push(piece);
      width += piece.width;
    }
    return lines;
  }

  drawPiece(piece: Piece, x: number, baseline: number): void {
    const { style } = piece;
    const y = baseline + (style.rise ?? 0);
    if (style.highlight)
      this.page.drawRectangle({
        x,
        y: y - style.size * 0.3,
        width: piece.width,
        height: style.size * 1.22,
        color: this.palette.highlight,
      });
    else if (style.code)
      this.page.drawRectangle({
        x,
        y: y - style.size * 0.3,
        width: piece.width,
        height: style.size * 1.22,
        color: this.palette.codeBackground,
      });
    if (piece.math) {
      this.formula(piece.math, x, y, mathScale(style.size), style.color, piece.mathText);
    } else if (!piece.space) {
      let partX = x;
      for (const part of piece.parts) {
        const upright = { x: partX, y, size: style.size, font: part.font, color: style.color };
        // One regular font: italic is its glyphs slanted. pdf-lib's ySkew leans the verticals
        // and keeps the baseline; xSkew would tilt the baseline, lifting each word's end.
        const options = style.italic ? { ...upright, ySkew: degrees(12) } : upright;
        if (style.bold) this.boldText(part.text, options);
        else this.page.drawText(part.text, options);
        partX += part.width;
      }
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
    if (style.footnote !== undefined) {
      const area = {
        page: this.page,
        x,
        y: y - style.size * 0.2,
        width: piece.width,
        height: style.size * 1.2,
      };
      this.links.push({ ...area, target: `fn-${style.footnote}` });
      const back = `fnref-${style.footnote}`;
      if (!this.destinations.has(back))
        this.destinations.set(back, { page: this.page, y: baseline + BODY_SIZE * 1.2 });
    }
  }

  /**
   * A typeset formula as vector paths, its baseline at `y`. Each shape is drawn under
   * its own matrix; pdf-lib's drawSvgPath flips y itself, so the flip is undone here.
   */
  formula(drawing: MathDrawing, x: number, y: number, scale: number, color: RGB, text?: string): void {
    const place: Matrix = [scale, 0, 0, -scale, x, y];
    if (text) this.invisibleText(text, x, y, drawing.width * scale, scale * 1000);
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
        // As outlines, not text: the invisible text over the formula already says these words.
        const outline = this.outlines && textOutline(this.outlines, shape.text, shape.size);
        if (outline?.d) this.page.drawSvgPath(outline.d, { x: 0, y: 0, color });
        else if (!outline)
          this.page.drawText(shape.text, { x: 0, y: 0, size: shape.size, font: this.font, color });
      } else if (shape.stroke !== undefined) {
        this.page.drawSvgPath(shape.d, { x: 0, y: 0, borderColor: color, borderWidth: shape.stroke });
      } else {
        this.page.drawSvgPath(shape.d, { x: 0, y: 0, color });
      }
      this.page.pushOperators(popGraphicsState());
    }
  }

  /**
   * Bold from the one regular font: the glyphs filled and outlined in their colour
   * (render mode 2), so they thicken. A second copy drawn a hair apart would thicken
   * them as well, but copying and search would read every character twice.
   */
  boldText(text: string, options: Parameters<PDFPage['drawText']>[1] & { size: number; color: RGB }): void {
    // Text state is part of the graphics state: q…Q keeps it to this run.
    this.page.pushOperators(
      pushGraphicsState(),
      setTextRenderingMode(TextRenderingMode.FillAndOutline),
      setLineWidth(options.size * BOLD_STROKE),
      setLineJoin(LineJoinStyle.Round),
      setStrokingColor(options.color),
    );
    this.page.drawText(text, options);
    this.page.pushOperators(popGraphicsState());
  }

  /**
   * `text` on the baseline at `x`, stretched to `width`, in render mode 3 (neither
   * filled nor stroked): the page shows the drawing under it, while copying, search
   * and screen readers get the text, and a selection covers the formula.
   */
  invisibleText(text: string, x: number, y: number, width: number, size: number): void {
    const natural = this.measure(text, size);
    if (natural <= 0 || width <= 0) return;
    // Text state is part of the graphics state: q…Q keeps it to this run.
    this.page.pushOperators(
      pushGraphicsState(),
      setTextRenderingMode(TextRenderingMode.Invisible),
      setCharacterSqueeze((100 * width) / natural),
    );
    this.page.drawText(text, { x, y, size, font: this.font });
    this.page.pushOperators(popGraphicsState());
  }

  /** A display formula centred on its own line, shrunk to the column when wider. */
  displayFormula(drawing: MathDrawing, text?: string): void {
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
      text,
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

  /** A picture's size on the page: its CSS size (0.75 pt a pixel), shrunk to fit the column and the page. */
  pictureSize(picture: Picture): { width: number; height: number } {
    const room = { width: this.available / 0.75, height: (this.height - MARGIN * 2 - 12) / 0.75 };
    const box = pictureBox(picture, picture.asked ?? {}, room);
    return { width: box.width * 0.75, height: box.height * 0.75 };
  }

  /** A picture centred in the column. */
  picture(picture: Picture): void {
    const { width, height } = this.pictureSize(picture);
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

  code(text: string, language = ''): void {
    drawCodeBlock(this, text, language);
  }
}

/** A leaf's style with Obsidian's `==highlight==` when it carries one (see document-ast). */
function marked(node: DocumentNode, style: Style): Style {
  return node.attributes[HIGHLIGHT] === true ? { ...style, highlight: true } : style;
}

function inlineRuns(nodes: readonly DocumentNode[], style: Style, layout: Layout): Run[] {
  const { warnings, palette } = layout;
  const runs: Run[] = [];
  for (const node of nodes) {
    switch (node.type) {
      case 'text': {
        const label = footnoteReference(node);
        const note = label === undefined ? undefined : layout.footnotes.byLabel(label);
        if (note)
          runs.push({
            text: String(note.number),
            style: {
              ...style,
              size: style.size * 0.62,
              rise: style.size * 0.38,
              color: palette.link,
              footnote: note.number,
            },
          });
        else runs.push({ text: node.text ?? '', style: marked(node, style) });
        break;
      }
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
        runs.push({ text: node.text ?? '', style: marked(node, { ...style, underline: true }) });
        break;
      case 'code_inline':
        runs.push({
          text: node.text ?? '',
          style: marked(node, { ...style, color: palette.inlineCode, code: true }),
        });
        break;
      case 'math_inline': {
        const drawing = layout.formulas.get(node.node_id);
        const mathText = layout.formulaTexts.get(node.node_id);
        if (drawing)
          runs.push({ text: node.text ?? '', style, math: drawing, ...(mathText && { mathText }) });
        else runs.push({ text: node.text ?? '', style: { ...style, color: palette.inlineCode } });
        break;
      }
      case 'image':
        warnings.add(imageWarning(node, layout));
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

/** A data: URL's image, in a format pdf-lib embeds. */
const EMBEDDABLE_IMAGE = /^data:image\/(png|jpe?g);base64,([a-z0-9+/=\s]+)$/i;

/** Why an image is set as its alt text. */
function imageWarning(node: DocumentNode, layout: Layout): string {
  const src = String(node.attributes['src'] ?? '');
  // An export runs offline and never fetches: only images inside the note can go in.
  if (!/^data:/i.test(src))
    return 'PDF: images that are not stored in the note (links to the web) are shown as their alt text.';
  if (!EMBEDDABLE_IMAGE.test(src)) return 'PDF: images other than PNG and JPEG are shown as their alt text.';
  return layout.images.has(node.node_id)
    ? 'PDF: images inside tables and list items are shown as their alt text.'
    : 'PDF: an image that could not be read is shown as its alt text.';
}

/**
 * A paragraph's inline nodes cut at its drawable images: runs of inline content
 * and pictures, in order. Space and line breaks next to a picture are dropped.
 */
function splitAtImages(
  nodes: readonly DocumentNode[],
  images: ReadonlyMap<string, Picture>,
): Array<{ inline: DocumentNode[] } | { picture: Picture }> {
  const parts: Array<{ inline: DocumentNode[] } | { picture: Picture }> = [];
  let inline: DocumentNode[] = [];
  const blank = (node: DocumentNode) =>
    node.type === 'soft_break' || node.type === 'line_break' || (node.type === 'text' && !node.text?.trim());
  const flush = () => {
    if (inline.some((node) => !blank(node))) parts.push({ inline });
    inline = [];
  };
  for (const node of nodes) {
    const picture = node.type === 'image' ? images.get(node.node_id) : undefined;
    if (!picture) {
      inline.push(node);
      continue;
    }
    flush();
    parts.push({ picture });
  }
  flush();
  return parts;
}

/** Every PNG or JPEG the note holds as a data: URL, embedded once per node. */
async function embedNoteImages(pdf: PDFDocument, root: DocumentNode): Promise<Map<string, Picture>> {
  const images = new Map<string, Picture>();
  const visit = async (node: DocumentNode) => {
    const match = node.type === 'image' ? EMBEDDABLE_IMAGE.exec(String(node.attributes['src'] ?? '')) : null;
    if (match) {
      try {
        const bytes = Uint8Array.from(atob((match[2] ?? '').replace(/\s+/g, '')), (c) => c.charCodeAt(0));
        const image =
          (match[1] ?? '').toLowerCase() === 'png' ? await pdf.embedPng(bytes) : await pdf.embedJpg(bytes);
        images.set(node.node_id, { image, width: image.width, height: image.height, asked: node.attributes });
      } catch {
        // Not a readable PNG or JPEG: it stays its alt text, with a warning where it is set.
      }
    }
    for (const child of node.children) await visit(child);
  };
  await visit(root);
  return images;
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
    const aligns = row.children.map((cell) => {
      const align = cell.attributes['align'];
      return align === 'right' || align === 'center' ? align : undefined;
    });
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
      layout.paragraph(runs.length ? runs : [{ text: ' ', style: { size, color: layout.palette.text } }], {
        align: aligns[index],
      });
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

/**
 * About how much of the page the start of `node` needs: a heading is kept with it
 * (keep-with-next). Two lines of text, the first rows of a table or code, or the
 * whole of what cannot be split (a plot, a picture, a formula).
 */
function leadIn(layout: Layout, node: DocumentNode | undefined): number {
  if (!node) return 0;
  const body = BODY_SIZE * LINE_GAP;
  const codeLines = (text: string) =>
    4 + Math.min(2, text.replace(/\n$/, '').split('\n').length) * CODE_LINE_HEIGHT;
  switch (node.type) {
    case 'paragraph': {
      const [first] = splitAtImages(node.children, layout.images);
      if (first && 'picture' in first) return layout.pictureSize(first.picture).height + 6;
      const runs = [{ text: plainText(node), style: { size: BODY_SIZE, color: layout.palette.text } }];
      return Math.min(2, layout.wrap(runs).length) * body;
    }
    case 'heading': {
      const size = HEADING_SIZES[Number(node.attributes['level'] ?? 1)] ?? BODY_SIZE;
      return size * (0.6 + LINE_GAP + 0.3) + 2 * body;
    }
    case 'code_block':
      return codeLines(node.text ?? '');
    case 'table':
      return 4 + Math.min(2, node.children.length) * (BODY_SIZE * 0.95 * LINE_GAP + 6);
    case 'function_plot':
      return plotBlockHeight(layout.available, node) ?? codeLines(node.text ?? '');
    case 'mermaid': {
      const picture = layout.pictures?.get(node.node_id);
      return picture ? layout.pictureSize(picture).height + 6 : codeLines(node.text ?? '');
    }
    case 'math_block': {
      const drawing = layout.formulas.get(node.node_id);
      if (!drawing) return codeLines(`Formula (TeX)\n${node.text ?? ''}`);
      const scale = Math.min(mathScale(BODY_SIZE * 1.15), layout.available / Math.max(1, drawing.width));
      return (drawing.ascent + drawing.descent) * scale + 6;
    }
    case 'thematic_break':
      return 12;
    case 'front_matter':
    case 'html_block':
      return 0;
    default:
      return node.children[0] ? leadIn(layout, node.children[0]) : body;
  }
}

/** A displayed formula, centred on its own lines; its TeX source where it could not be typeset. */
function formulaBlock(layout: Layout, node: DocumentNode): void {
  const drawing = layout.formulas.get(node.node_id);
  if (drawing) layout.displayFormula(drawing, layout.formulaTexts.get(node.node_id));
  else layout.code(`Formula (TeX)\n${node.text ?? ''}`);
}

/** A list item's first paragraph: the marker on its first line, a `$$…$$` in it centred below. */
function itemParagraph(layout: Layout, paragraph: DocumentNode, prefix: Prefix): void {
  const style = { size: BODY_SIZE, color: layout.palette.text };
  let marker: Prefix | undefined = prefix;
  for (const piece of splitAtDisplayMath(paragraph)) {
    if ('formula' in piece) {
      // The marker keeps its own line when the item starts with a formula.
      if (marker) layout.paragraph([{ text: ' ', style }], { firstLinePrefix: marker });
      marker = undefined;
      formulaBlock(layout, piece.formula);
    } else {
      layout.paragraph(inlineRuns(piece.inline, style, layout), marker ? { firstLinePrefix: marker } : {});
      marker = undefined;
    }
  }
  if (marker) layout.paragraph([{ text: ' ', style }], { firstLinePrefix: marker });
}

function blocks(layout: Layout, nodes: readonly DocumentNode[], warnings: WarningList, tight = false): void {
  nodes.forEach((node, index) => block(layout, node, nodes[index + 1], warnings, tight));
}

function block(
  layout: Layout,
  node: DocumentNode,
  next: DocumentNode | undefined,
  warnings: WarningList,
  tight = false,
): void {
  const attributes = node.attributes;
  switch (node.type) {
    case 'heading': {
      const level = Number(attributes['level'] ?? 1);
      const size = HEADING_SIZES[level] ?? BODY_SIZE;
      const runs = inlineRuns(node.children, { size, color: layout.palette.heading, bold: true }, layout);
      layout.gap(size * 0.6);
      const own = layout.wrap(runs).length * size * LINE_GAP + size * 0.3;
      // A heading alone at a page's foot leads nowhere: it goes over with the start of what follows.
      layout.ensure(Math.min(own + leadIn(layout, next), layout.height - MARGIN * 2));
      layout.outline.push({ title: node.text ?? plainText(node), level, page: layout.page, y: layout.y });
      layout.paragraph(runs);
      layout.gap(size * 0.3);
      break;
    }
    case 'paragraph':
      // A definition is set with the notes at the end, not where it is written.
      if (footnoteDefinition(node) !== undefined) break;
      // `$$…$$` in the line is centred on its own, as the preview shows it; an image the
      // note holds is drawn at its own size between the text around it.
      for (const piece of splitAtDisplayMath(node)) {
        if ('formula' in piece) {
          formulaBlock(layout, piece.formula);
          continue;
        }
        for (const part of splitAtImages(piece.inline, layout.images)) {
          if ('picture' in part) layout.picture(part.picture);
          else
            layout.paragraph(
              inlineRuns(part.inline, { size: BODY_SIZE, color: layout.palette.text }, layout),
            );
        }
      }
      if (!tight) layout.gap(BODY_SIZE * 0.6);
      break;
    case 'list': {
      const ordered = attributes['ordered'] === true;
      let number = Number(attributes['start'] ?? 1);
      const items = shownItems(node);
      if (items.length === 0) break;
      const itemsTight = shownItemsTight(node, items);
      layout.indent += 18;
      for (const item of items) {
        const checked = item.attributes['checked'];
        const style = { size: BODY_SIZE, color: layout.palette.text };
        const prefix: Prefix =
          typeof checked === 'boolean' ? { checked, style } : { text: ordered ? `${number}.` : '•', style };
        number += 1;
        const [first, ...rest] = item.children;
        // A footnote defined in an item is set with the notes: the item keeps just its marker.
        if (first?.type === 'paragraph' && footnoteDefinition(first) === undefined) {
          itemParagraph(layout, first, prefix);
          if (!itemsTight) layout.gap(BODY_SIZE * 0.4);
          blocks(layout, rest, warnings, itemsTight);
        } else {
          layout.paragraph([{ text: ' ', style }], { firstLinePrefix: prefix });
          blocks(layout, item.children, warnings, itemsTight);
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
    case 'code_block': {
      const language = node.attributes['language'];
      layout.code(node.text ?? '', typeof language === 'string' ? language : '');
      break;
    }
    case 'math_block':
      formulaBlock(layout, node);
      break;
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
      if (!drawPlot(layout, node, warnings)) layout.code(node.text ?? '');
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

/**
 * The footnotes no body text refers to (defined but never referenced, or referenced only
 * inside another note), as numbered endnotes under their heading: there is no page for
 * them to stand at the foot of.
 */
function endnotes(layout: Layout, heading: string): void {
  const notes = layout.footnotes.notes.filter((note) => !layout.notesAtFoot.has(note.number));
  if (notes.length === 0) return;
  const size = BODY_SIZE * 0.9;
  const style = { size, color: layout.palette.text };
  const headingSize = HEADING_SIZES[3] ?? BODY_SIZE;
  layout.gap(BODY_SIZE);
  layout.ensure(headingSize * LINE_GAP * 2 + size * LINE_GAP);
  layout.rule();
  layout.outline.push({ title: heading, level: 1, page: layout.page, y: layout.y });
  layout.paragraph([
    { text: heading, style: { size: headingSize, color: layout.palette.heading, bold: true } },
  ]);
  layout.gap(headingSize * 0.3);
  layout.indent += 18;
  for (const note of notes) {
    // A note referred to only from an endnote above was set at that page's foot.
    if (layout.notesAtFoot.has(note.number)) continue;
    const runs = inlineRuns(note.content, style, layout);
    // The note's number leads back to where it is first referred to.
    layout.ensure(size * LINE_GAP);
    layout.destinations.set(`fn-${note.number}`, { page: layout.page, y: layout.y });
    if (note.references > 0)
      layout.links.push({
        page: layout.page,
        x: layout.left - 24,
        y: layout.y - size * LINE_GAP,
        width: 22,
        height: size * LINE_GAP,
        target: `fnref-${note.number}`,
      });
    layout.paragraph(runs.length > 0 ? runs : [{ text: ' ', style }], {
      firstLinePrefix: { text: `${note.number}.`, style },
    });
    layout.gap(size * 0.4);
  }
  layout.indent -= 18;
}

function addLinks(pdf: PDFDocument, layout: Layout): void {
  for (const link of layout.links) {
    const destination = link.target === undefined ? undefined : layout.destinations.get(link.target);
    const goTo = destination && {
      Dest: pdf.context.obj([destination.page.ref, PDFName.of('XYZ'), PDFNull, destination.y, PDFNull]),
    };
    const action =
      link.url !== undefined
        ? { A: { Type: 'Action', S: 'URI', URI: PDFHexString.of(uriHexDigits(link.url)) } }
        : goTo;
    if (!action) continue;
    const annotation = pdf.context.register(
      pdf.context.obj({
        Type: 'Annot',
        Subtype: 'Link',
        Rect: [link.x, link.y, link.x + link.width, link.y + link.height],
        Border: [0, 0, 0],
        ...action,
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
 * over the hb-subset WASM), `loadMonoFont` the font for code (font-loader.ts); each
 * is loaded on the first PDF export that needs it and kept.
 */
export function createPdfExporter(
  loadFont: () => Promise<FontLoader>,
  loadSubsetter: () => Promise<FontSubsetter>,
  loadMonoFont: () => Promise<FontLoader> = defaultMonoFontLoader,
): DocumentExporter {
  let loader: Promise<FontLoader> | undefined;
  let subsetter: Promise<FontSubsetter> | undefined;
  let monoLoader: Promise<FontLoader> | undefined;
  const mono = () =>
    (monoLoader ??= loadMonoFont().catch((error: unknown) => {
      monoLoader = undefined;
      throw error;
    }));
  return {
    format: 'pdf',
    extension: 'pdf',
    mimeType: 'application/pdf',
    async export(source: ExportDocument, context: ExportContext): Promise<ExportResult> {
      const warnings = new WarningList();
      assertRepresentable(source.root, new Set(['html_block']), 'PDF');
      // A diagram or plot kept as source says why under it, as in the HTML and DOCX exports.
      const document = await withVisualFailureNotes(withCalloutTitles(source), context);
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
      const notesTitle = notesHeading(`${document.title}\n${plainText(document.root)}`);
      const metadata = context.options.include_metadata
        ? Object.entries(document.metadata).map(
            ([key, value]) => `${key}: ${Array.isArray(value) ? value.join(', ') : String(value)}`,
          )
        : [];
      // Every character a formula's text may use; what the font lacks is dropped from the subset and
      // written in ASCII once the font is embedded (formulasAsText again, with the font's coverage).
      const widestFormulaTexts = await formulasAsText(document.root, () => true);
      context.signal.throwIfAborted();
      let subsetBytes: Uint8Array;
      let subset: FontSubsetter;
      try {
        subsetter ??= loadSubsetter();
        subset = await subsetter;
        const codePoints = documentCodePoints(document.root, [
          document.title,
          ...metadata,
          LAYOUT_CHARACTERS,
          notesTitle,
          ...widestFormulaTexts.values(),
        ]);
        subsetBytes = await subset(fontBytes, codePoints);
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
      const outlines = fontkit.create(subsetBytes);
      pdf.setTitle(document.title);
      pdf.setCreator('NotesAgent');
      pdf.setProducer('NotesAgent');
      const palette = context.theme
        ? paletteFromThemeCss(context.theme.css, context.theme.is_dark)
        : isDarkExport(context)
          ? paletteFromThemeCss('', true)
          : DEFAULT_PDF_PALETTE;
      const layout = new Layout(pdf, font, PAGE_SIZES[context.options.page_size], warnings, palette);
      layout.outlines = outlines;
      layout.codeTheme = exportCodeTheme(context);
      layout.codeBlock = codeBlockColours(layout.codeTheme, context);
      layout.footnotes = collectFootnotes(document.root);
      if (context.rasterizer) {
        // Mermaid needs the page to draw; function plots are drawn below as vector paths.
        const visuals = await renderVisuals(document.root, context, warnings, { only: new Set(['mermaid']) });
        const pictures = new Map<string, Picture>();
        for (const [nodeId, raster] of await rasterizeVisuals(visuals, context, warnings, 'PDF'))
          pictures.set(nodeId, { image: await pdf.embedPng(raster.png), ...raster });
        layout.pictures = pictures;
      }
      layout.images = await embedNoteImages(pdf, document.root);
      layout.formulas = await typesetFormulas(document.root, warnings, 'PDF', context.signal);
      if (widestFormulaTexts.size > 0) {
        const drawable = new Set(font.getCharacterSet());
        layout.formulaTexts = await formulasAsText(document.root, (codePoint) => drawable.has(codePoint));
      }
      const drawn = (node: DocumentNode) =>
        node.type === 'function_plot'
          ? plotParses(node)
          : layout.formulas.has(node.node_id) || layout.pictures?.has(node.node_id) === true;
      layout.mono = await embedMonoFont(pdf, mono, subset, codeText(document.root, drawn), warnings);
      context.signal.throwIfAborted();
      if (printsTitle(document, context.options.include_title)) {
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
        block(layout, children[index] as DocumentNode, children[index + 1], warnings);
        context.progress?.('writing', index + 1, children.length);
      }
      endnotes(layout, notesTitle);
      while (layout.carried.length > 0) layout.newPage(true);
      layout.drawFeet();
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
      addOutline(pdf, layout.outline, layout.pages[0] as PDFPage);
      addLinks(pdf, layout);
      for (const embedded of [font, layout.mono?.font]) {
        if (!embedded) continue;
        await embedded.embed();
        tagSubsetFont(pdf, embedded, document.title);
      }
      const data = await pdf.save();
      return { data, warnings: warnings.toArray() };
    },
  };
}
