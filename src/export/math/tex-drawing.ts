import { liteAdaptor } from 'mathjax-full/js/adaptors/liteAdaptor.js';
import type { LiteElement, LiteNode } from 'mathjax-full/js/adaptors/lite/Element.js';
import { RegisterHTMLHandler } from 'mathjax-full/js/handlers/html.js';
import { TeX } from 'mathjax-full/js/input/tex.js';
import 'mathjax-full/js/input/tex/ams/AmsConfiguration.js';
import 'mathjax-full/js/input/tex/base/BaseConfiguration.js';
import 'mathjax-full/js/input/tex/boldsymbol/BoldsymbolConfiguration.js';
import 'mathjax-full/js/input/tex/newcommand/NewcommandConfiguration.js';
import { STATE } from 'mathjax-full/js/core/MathItem.js';
import type { MmlNode } from 'mathjax-full/js/core/MmlTree/MmlNode.js';
import { mathjax } from 'mathjax-full/js/mathjax.js';
import { SVG } from 'mathjax-full/js/output/svg.js';
import svgpath from 'svgpath';
import { multiply, parseTransform, type Matrix } from './matrix';

/**
 * A typeset formula as plain drawing instructions, so a writer without SVG (the
 * PDF layout) can draw it as vector paths. Coordinates are MathJax's: 1000 units
 * an em, y down, the baseline at y = 0.
 */
export interface MathDrawing {
  /** From the left edge to the right edge. */
  width: number;
  /** Above the baseline. */
  ascent: number;
  /** Below the baseline. */
  descent: number;
  shapes: MathShape[];
}

/** The box a nested `<svg>` shows of its content (a stretched delimiter's middle piece). */
export interface MathClip {
  matrix: Matrix;
  x: number;
  y: number;
  width: number;
  height: number;
}

export type MathShape = (
  | /** An SVG path; filled unless `stroke` (a line width) is set. */
    { kind: 'path'; d: string; matrix: Matrix; stroke?: number }
    /** A character the math font lacks (CJK in `\text{}`), drawn at the origin, `size` units high. */
  | { kind: 'text'; text: string; size: number; matrix: Matrix }
) & { clip?: MathClip };

export type { Matrix };

/** A TeX error MathJax reports instead of a formula (unknown command, unbalanced braces). */
export class TexError extends Error {
  override readonly name = 'TexError';
}

/**
 * A path as absolute lines and cubic curves only. MathJax's glyphs are quadratic
 * (`Q`, `T`); PDF has only cubics, and pdf-lib's own reading of chained `T`s
 * bends the curves the wrong way, so each quadratic becomes its exact cubic here.
 */
export function cubicPath(d: string): string {
  const parts: string[] = [];
  svgpath(d)
    .abs()
    .unshort()
    .unarc()
    .iterate((segment, _index, x, y) => {
      if (segment[0] === 'Q') {
        const [, qx, qy, ex, ey] = segment;
        const c1x = x + ((qx - x) * 2) / 3;
        const c1y = y + ((qy - y) * 2) / 3;
        const c2x = ex + ((qx - ex) * 2) / 3;
        const c2y = ey + ((qy - ey) * 2) / 3;
        parts.push(`C${[c1x, c1y, c2x, c2y, ex, ey].map((n) => +n.toFixed(3)).join(' ')}`);
      } else {
        parts.push(`${segment[0]}${segment.slice(1).join(' ')}`);
      }
    });
  return parts.join('');
}

function number(value: unknown): number {
  const parsed = Number.parseFloat(String(value ?? '0'));
  return Number.isFinite(parsed) ? parsed : 0;
}

function isElement(node: LiteNode): node is LiteElement {
  return node.kind !== '#text' && node.kind !== '#comment';
}

function textOf(node: LiteElement): string {
  return node.children.map((child) => (isElement(child) ? textOf(child) : child.value)).join('');
}

/** The SVG tree MathJax built, flattened into shapes with their composed transforms. */
function collect(node: LiteElement, matrix: Matrix, shapes: MathShape[], clip?: MathClip): void {
  const add = (shape: MathShape) => shapes.push(clip ? { ...shape, clip } : shape);
  const attributes = node.attributes as Record<string, unknown>;
  if (attributes['data-mml-node'] === 'merror') {
    throw new TexError(String(attributes['data-mjx-error'] ?? textOf(node)) || 'TeX error');
  }
  let own = multiply(matrix, parseTransform(attributes['transform'] as string | undefined));
  switch (node.kind) {
    case 'path': {
      const d = String(attributes['d'] ?? '');
      if (d) add({ kind: 'path', d: cubicPath(d), matrix: own });
      return;
    }
    case 'rect': {
      const [x, y, width, height] = ['x', 'y', 'width', 'height'].map((key) => number(attributes[key]));
      const d = `M${x} ${y}h${width}v${height}h${-(width ?? 0)}Z`;
      // A frame (boxed formulas, array rules) is an unfilled rectangle with a stroke.
      if (attributes['fill'] === 'none')
        add({ kind: 'path', d, matrix: own, stroke: number(attributes['stroke-width'] ?? 1) || 1 });
      else add({ kind: 'path', d, matrix: own });
      return;
    }
    case 'line': {
      const [x1, y1, x2, y2] = ['x1', 'y1', 'x2', 'y2'].map((key) => number(attributes[key]));
      const stroke = number(attributes['stroke-width'] ?? 1) || 1;
      add({ kind: 'path', d: `M${x1} ${y1}L${x2} ${y2}`, matrix: own, stroke });
      return;
    }
    case 'text': {
      const text = textOf(node);
      if (text.trim()) add({ kind: 'text', text, size: number(attributes['font-size']), matrix: own });
      return;
    }
    case 'svg': {
      // A nested <svg> (the middle of a stretched delimiter) maps its viewBox onto
      // x, y, width, height and shows only that box of its content.
      own = multiply(own, [1, 0, 0, 1, number(attributes['x']), number(attributes['y'])]);
      const box = String(attributes['viewBox'] ?? '')
        .split(/[\s,]+/)
        .filter(Boolean)
        .map(Number);
      if (box.length === 4) {
        const [vx = 0, vy = 0, vw = 1, vh = 1] = box;
        const sx = number(attributes['width'] ?? vw) / (vw || 1);
        const sy = number(attributes['height'] ?? vh) / (vh || 1);
        own = multiply(own, [sx, 0, 0, sy, -vx * sx, -vy * sy]);
        clip = { matrix: own, x: vx, y: vy, width: vw, height: vh };
      }
      break;
    }
    case 'title':
    case 'defs':
    case 'style':
      return;
  }
  for (const child of node.children) if (isElement(child)) collect(child, own, shapes, clip);
}

type TexDocument = ReturnType<typeof mathjax.document>;
let texDocument: TexDocument | undefined;

/** One MathJax document for both uses: drawing a formula and reading it as text. */
function mathDocument(): TexDocument {
  if (!texDocument) {
    const adaptor = liteAdaptor();
    RegisterHTMLHandler(adaptor);
    texDocument = mathjax.document('', {
      InputJax: new TeX({ packages: ['base', 'ams', 'newcommand', 'boldsymbol'] }),
      // Every glyph as its own path: no <use> references to resolve.
      OutputJax: new SVG({ fontCache: 'none' }),
    });
  }
  return texDocument;
}

function convert(tex: string, display: boolean): LiteElement {
  return mathDocument().convert(tex, { display }) as unknown as LiteElement;
}

/** TeX parsed into MathJax's MathML tree, not typeset; throws TexError for bad TeX. */
export function texToMathTree(tex: string, display: boolean): MmlNode {
  const root = mathDocument().convert(tex, { display, end: STATE.CONVERT }) as MmlNode;
  const visit = (node: MmlNode): void => {
    if (node.isKind('merror')) {
      const message = node.attributes.get('data-mjx-error');
      throw new TexError(typeof message === 'string' && message ? message : 'TeX error');
    }
    if (!node.isToken)
      for (const child of node.childNodes as unknown as Array<MmlNode | null>) if (child) visit(child);
  };
  visit(root);
  return root;
}

/** Typesets TeX with MathJax (no DOM: its lite adaptor) into shapes; throws TexError for bad TeX. */
export function texToDrawing(tex: string, display: boolean): MathDrawing {
  const container = convert(tex, display);
  const svg = container.children.find(
    (child): child is LiteElement => isElement(child) && child.kind === 'svg',
  );
  if (!svg) throw new TexError('MathJax gave no drawing.');
  const [minX = 0, minY = 0, width = 0, height = 0] = String(svg.attributes['viewBox'] ?? '')
    .split(/[\s,]+/)
    .map(Number);
  const shapes: MathShape[] = [];
  for (const child of svg.children) {
    if (isElement(child)) collect(child, [1, 0, 0, 1, -minX, 0], shapes);
  }
  return { width, ascent: -minY, descent: minY + height, shapes };
}
