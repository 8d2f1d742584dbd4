import {
  clip,
  closePath,
  endPath,
  lineTo,
  moveTo,
  popGraphicsState,
  pushGraphicsState,
  rgb,
  degrees,
  type PDFFont,
  type PDFPage,
  type RGB,
} from 'pdf-lib';
import type { DocumentNode, FunctionPlot } from '../../contracts/exports';
import { formatTick, parseFunctionPlot, plotTicks, samplePlot } from '../../core/function-plot';
import type { WarningList } from '../exporter';
import type { PdfPalette } from './pdf-palette';

/** What a plot needs of the layout. */
export interface PlotSurface {
  page: PDFPage;
  y: number;
  readonly left: number;
  readonly available: number;
  readonly font: PDFFont;
  readonly palette: PdfPalette;
  ensure(height: number): void;
  gap(points: number): void;
}

const TICK_SIZE = 7.5;
const LABEL_SIZE = 8.5;

/** The figure's size: the plot area at 0.6 of its width, tick labels and axis titles around it. */
function figure(available: number, plot: FunctionPlot) {
  const width = Math.min(available, 420);
  const bottom = TICK_SIZE + 6 + (plot.axes.xLabel ? LABEL_SIZE + 5 : 0);
  return { width, areaHeight: width * 0.6, bottom, height: width * 0.6 + bottom };
}

/** The points a plot takes down the page, gaps included; undefined when it would be kept as source. */
export function plotBlockHeight(available: number, node: DocumentNode): number | undefined {
  const { plot } = parseFunctionPlot(node.text ?? '');
  return plot ? figure(available, plot).height + 18 : undefined;
}

function hexColor(value: string): RGB | undefined {
  const match = /^#([0-9a-f]{6})$/i.exec(value);
  if (!match) return undefined;
  const n = Number.parseInt(match[1] ?? '0', 16);
  return rgb(((n >> 16) & 255) / 255, ((n >> 8) & 255) / 255, (n & 255) / 255);
}

/** Whether `node` parses as a plot, so drawPlot draws it rather than leaving it as source. */
export function plotParses(node: DocumentNode): boolean {
  const parsed = parseFunctionPlot(node.text ?? '');
  return parsed.plot !== undefined && !parsed.diagnostics.some((item) => item.severity === 'error');
}

/**
 * A function plot as vector paths with the axes the HTML and DOCX plots have: grid
 * (unless `grid: false`), axes through zero, ticks on both, axis titles, legend.
 * Returns false for a plot that does not parse, which the caller keeps as source.
 */
export function drawPlot(surface: PlotSurface, node: DocumentNode, warnings: WarningList): boolean {
  const parsed = parseFunctionPlot(node.text ?? '');
  const error = parsed.diagnostics.find((item) => item.severity === 'error');
  if (!parsed.plot || error) {
    // Worded as the HTML and DOCX exports word it (export/visuals), so the toast names the note's line.
    const line = node.position ? node.position.start_line + 1 + (error?.line ?? 0) : undefined;
    const where =
      line !== undefined
        ? ` (line ${line}${error?.column !== undefined ? `, column ${error.column}` : ''})`
        : '';
    warnings.add(
      `${error?.code ?? 'FUNCTION_PLOT_PARSE_FAILED'}: Function plot${where} kept as source: ${error?.message ?? ''}`,
    );
    return false;
  }
  // As the HTML and DOCX plots do: a mistyped setting is named, not dropped in silence.
  for (const item of parsed.diagnostics) warnings.add(item.message);
  const { plot } = parsed;
  const sampled = samplePlot(plot, 300);
  const { width, areaHeight, height } = figure(surface.available, plot);
  surface.ensure(height + 8);
  surface.gap(8);
  const { page, font, palette } = surface;
  const [dx0, dx1] = sampled.domain;
  const [dy0, dy1] = sampled.range;
  const xTicks = plotTicks(sampled.domain, 8);
  const yTicks = plotTicks(sampled.range, 6);
  const measure = (text: string, size: number) => font.widthOfTextAtSize(text, size);
  const yTitle = plot.axes.yLabel ? LABEL_SIZE + 5 : 0;
  const gutter = yTitle + Math.max(0, ...yTicks.map((y) => measure(formatTick(y), TICK_SIZE))) + 5;
  const figureLeft = surface.left + (surface.available - width) / 2;
  const left = figureLeft + gutter;
  const areaWidth = width - gutter;
  const top = surface.y;
  const base = top - areaHeight;
  // Area coordinates: drawSvgPath's origin is the area's top left, y pointing down.
  const sx = (x: number) => ((x - dx0) / (dx1 - dx0)) * areaWidth;
  const sy = (y: number) =>
    Math.min(Math.max((1 - (y - dy0) / (dy1 - dy0)) * areaHeight, -areaHeight), 2 * areaHeight);
  const path = (d: string, color: RGB, thickness: number) =>
    page.drawSvgPath(d, { x: left, y: top, borderColor: color, borderWidth: thickness });
  if (plot.axes.grid) {
    const grid = [
      ...xTicks.map((x) => `M${sx(x).toFixed(2)} 0V${areaHeight}`),
      ...yTicks.map((y) => `M0 ${sy(y).toFixed(2)}H${areaWidth}`),
    ].join('');
    if (grid) path(grid, palette.tableBorder, 0.5);
  }
  page.drawRectangle({
    x: left,
    y: base,
    width: areaWidth,
    height: areaHeight,
    borderColor: palette.tableBorder,
    borderWidth: 0.8,
  });
  // Axes through zero when zero is visible, else along the frame, as in the SVG.
  const axisY = dy0 <= 0 && dy1 >= 0 ? sy(0) : areaHeight;
  const axisX = dx0 <= 0 && dx1 >= 0 ? sx(0) : 0;
  path(`M0 ${axisY.toFixed(2)}H${areaWidth}M${axisX.toFixed(2)} 0V${areaHeight}`, palette.muted, 0.8);
  const label = (text: string, x: number, y: number, size = TICK_SIZE, color = palette.muted) =>
    page.drawText(text, { x, y, size, font, color });
  for (const x of xTicks) {
    const text = formatTick(x);
    label(text, left + sx(x) - measure(text, TICK_SIZE) / 2, base - TICK_SIZE - 3);
  }
  for (const y of yTicks) {
    const text = formatTick(y);
    label(text, left - 4 - measure(text, TICK_SIZE), top - sy(y) - TICK_SIZE * 0.35);
  }
  if (plot.axes.xLabel) {
    const text = plot.axes.xLabel;
    label(
      text,
      left + (areaWidth - measure(text, LABEL_SIZE)) / 2,
      top - height + 2,
      LABEL_SIZE,
      palette.text,
    );
  }
  if (plot.axes.yLabel) {
    const text = plot.axes.yLabel;
    page.drawText(text, {
      x: figureLeft + LABEL_SIZE,
      y: base + (areaHeight - measure(text, LABEL_SIZE)) / 2,
      size: LABEL_SIZE,
      font,
      color: palette.text,
      rotate: degrees(90),
    });
  }
  // The curves are clipped to the area, so a pole or a fixed range does not run over the axes' labels.
  page.pushOperators(
    pushGraphicsState(),
    moveTo(left, base),
    lineTo(left + areaWidth, base),
    lineTo(left + areaWidth, top),
    lineTo(left, top),
    closePath(),
    clip(),
    endPath(),
  );
  sampled.series.forEach((series) => {
    const color = hexColor(series.color) ?? palette.link;
    // The same words as the HTML and DOCX plots': a curve missing from the file is said.
    if (series.segments.length === 0) warnings.add(`${series.label} has no finite value in the domain.`);
    for (const segment of series.segments) {
      const d = segment
        .map(([x, y], i) => `${i === 0 ? 'M' : 'L'}${sx(x).toFixed(2)} ${sy(y).toFixed(2)}`)
        .join('');
      path(d, color, 1.4);
    }
  });
  page.pushOperators(popGraphicsState());
  sampled.series.forEach((series, index) => {
    const color = hexColor(series.color) ?? palette.link;
    const y = 12 + index * 12;
    path(`M8 ${y - 3}h12`, color, 1.4);
    label(series.label, left + 24, top - y, LABEL_SIZE, color);
  });
  surface.y = top - height - 10;
  return true;
}
