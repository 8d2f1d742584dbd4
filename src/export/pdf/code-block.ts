import { rgb, type PDFFont, type PDFPage, type RGB } from 'pdf-lib';
import { styledCode, styledLines, type CodeTheme } from '../../core/code-highlight-themes';
import { wrapCodeLine, type CodeCell, type CodeRun } from './code-lines';
import type { PdfPalette } from './pdf-palette';

/** The monospaced font and the code points it has a glyph for. */
export interface MonoFont {
  font: PDFFont;
  covers: ReadonlySet<number>;
}

/** What a code block needs of the layout: the cursor, the column, the fonts. */
export interface CodeSurface {
  page: PDFPage;
  y: number;
  readonly left: number;
  readonly available: number;
  readonly font: PDFFont;
  readonly mono: MonoFont | undefined;
  readonly palette: PdfPalette;
  /** The export's `code_theme`; absent or `none`, code is set in the palette's code colours. */
  readonly codeTheme?: CodeTheme | undefined;
  /** The code theme's own background and text, where the palette's would not suit it. */
  readonly codeBlock?: { background: string; foreground: string } | undefined;
  ensure(height: number): void;
  gap(points: number): void;
}

export const CODE_SIZE = 10.5 * 0.9;
export const CODE_LINE_HEIGHT = CODE_SIZE * 1.4;
const PADDING = 8;

/** One column's width: the monospaced font's advance, or about that of a Latin letter without it. */
export function codeColumn(mono: MonoFont | undefined, size: number): number {
  return mono ? mono.font.widthOfTextAtSize(' ', size) : size * 0.6;
}

function monoHas(mono: MonoFont | undefined, cell: CodeCell): boolean {
  return mono !== undefined && mono.covers.has(cell.text.codePointAt(0) ?? 0);
}

function hexColor(hex: string): RGB {
  const [r = 0, g = 0, b = 0] = (hex.replace('#', '').match(/../g) ?? []).map(
    (pair) => Number.parseInt(pair, 16) / 255,
  );
  return rgb(r, g, b);
}

/** The block's colours: the code theme's where the palette's would not suit it, else the palette's. */
function blockColors(surface: CodeSurface): { background: RGB; text: RGB } {
  const block = surface.codeBlock;
  if (block) return { background: hexColor(block.background), text: hexColor(block.foreground) };
  return { background: surface.palette.codeBackground, text: surface.palette.codeText };
}

/**
 * One line of cells from `x`. Runs the monospaced font covers are one string each,
 * spaces included, so a reader's copy keeps them; any other character is set in
 * the CJK font, centred in its one or two columns, so the grid after it holds.
 */
function drawCells(
  surface: CodeSurface,
  cells: readonly CodeCell[],
  x: number,
  baseline: number,
  plain: RGB,
): void {
  const { mono } = surface;
  const column = codeColumn(mono, CODE_SIZE);
  const colorOf = (cell: CodeCell) => (cell.color !== undefined ? hexColor(cell.color) : plain);
  let at = 0;
  while (at < cells.length) {
    const cell = cells[at] as CodeCell;
    const left = x;
    if (mono && monoHas(mono, cell)) {
      let text = '';
      let columns = 0;
      // A run ends where the token's colour does; spaces show no colour, so they
      // join whichever run they fall in rather than splitting the text further.
      let runColor: { color: string | undefined } | undefined;
      while (at < cells.length && monoHas(mono, cells[at] as CodeCell)) {
        const next = cells[at] as CodeCell;
        if (next.text !== ' ') {
          if (runColor === undefined) runColor = { color: next.color };
          else if (next.color !== runColor.color) break;
        }
        text += next.text;
        columns += 1;
        at += 1;
      }
      const color = runColor?.color !== undefined ? hexColor(runColor.color) : plain;
      const options = { x: left, y: baseline, size: CODE_SIZE, font: mono.font, color };
      surface.page.drawText(text, options);
      x += columns * column;
      continue;
    }
    const span = cell.columns * column;
    if (cell.text !== ' ') {
      const width = surface.font.widthOfTextAtSize(cell.text, CODE_SIZE);
      surface.page.drawText(cell.text, {
        x: left + (span - width) / 2,
        y: baseline,
        size: CODE_SIZE,
        font: surface.font,
        color: colorOf(cell),
      });
    }
    x += span;
    at += 1;
  }
}

/** A hooked arrow in the gutter: this line goes on from the one above. */
function continuationMark(surface: CodeSurface, baseline: number): void {
  const size = CODE_SIZE * 0.45;
  surface.page.drawSvgPath(
    `M0 0V${size * 0.7}H${size}M${size * 0.65} ${size * 0.4}L${size} ${size * 0.7}L${size * 0.65} ${size}`,
    {
      x: surface.left + 2,
      y: baseline + size * 1.2,
      borderColor: surface.palette.muted,
      borderWidth: 0.5,
    },
  );
}

/**
 * Pre-formatted text on a tinted background, split across pages line by line. The
 * whitespace is the source's: indents kept, tabs expanded, long lines wrapped to
 * their own indent.
 */
export function drawCodeBlock(surface: CodeSurface, text: string, language = ''): void {
  const column = codeColumn(surface.mono, CODE_SIZE);
  const width = Math.max(8, Math.floor((surface.available - PADDING * 2) / column));
  const colors = blockColors(surface);
  const body = text.replace(/\n$/, '');
  const theme = surface.codeTheme;
  const sources: Array<string | CodeRun[]> =
    theme && theme.id !== 'none'
      ? styledLines(styledCode(body, language, theme)).map((runs) =>
          runs.map((run) => ({ text: run.text, ...(run.style && { color: run.style.color }) })),
        )
      : body.split('\n');
  surface.gap(4);
  for (const source of sources) {
    for (const line of wrapCodeLine(source, width)) {
      surface.ensure(CODE_LINE_HEIGHT);
      surface.page.drawRectangle({
        x: surface.left,
        y: surface.y - CODE_LINE_HEIGHT,
        width: surface.available,
        height: CODE_LINE_HEIGHT,
        color: colors.background,
      });
      surface.y -= CODE_LINE_HEIGHT;
      const baseline = surface.y + (CODE_LINE_HEIGHT - CODE_SIZE) / 2 + CODE_SIZE * 0.22;
      if (line.continued) continuationMark(surface, baseline);
      drawCells(surface, line.cells, surface.left + PADDING + line.indent * column, baseline, colors.text);
    }
  }
  surface.gap(6);
}
