import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FontLoader } from '../font-loader';

/** The PDF exporter's fonts and WASM as files, read from node_modules in tests. */
const require = createRequire(import.meta.url);
export const FONT_PATH =
  require.resolve('@expo-google-fonts/noto-sans-sc/400Regular/NotoSansSC_400Regular.ttf');
export const WASM_PATH = require.resolve('harfbuzzjs/dist/harfbuzz-subset.wasm');
export const MONO_FONT_PATH = require.resolve('katex/dist/fonts/KaTeX_Typewriter-Regular.ttf');

export const fileLoader = (path: string) => async (): Promise<FontLoader> => async () =>
  new Uint8Array(readFileSync(path));

function writeTemporary(data: Uint8Array): { dir: string; file: string } {
  const dir = mkdtempSync(join(tmpdir(), 'notes-pdf-'));
  const file = join(dir, 'note.pdf');
  writeFileSync(file, data);
  return { dir, file };
}

/** A poppler tool's output for the PDF `data`. */
export function poppler(
  tool: 'pdftotext' | 'pdffonts' | 'pdfinfo' | 'pdfimages' | 'pdftohtml',
  data: Uint8Array,
  ...args: string[]
): string {
  const { file } = writeTemporary(data);
  const out = tool === 'pdftotext' ? ['-'] : [];
  return execFileSync(tool, [...args, file, ...out], { encoding: 'utf8' });
}

export interface Word {
  text: string;
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

/** Each word poppler finds on a page, with its box in points from the page's top left. */
export function words(data: Uint8Array, page = 1): Word[] {
  const html = poppler('pdftotext', data, '-bbox', '-f', String(page), '-l', String(page));
  return Array.from(
    html.matchAll(/<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">([^<]*)<\/word>/g),
    (match) => ({
      text: (match[5] ?? '').replace(/&amp;/g, '&').replace(/&lt;/g, '<').replace(/&gt;/g, '>'),
      x0: Number(match[1]),
      y0: Number(match[2]),
      x1: Number(match[3]),
      y1: Number(match[4]),
    }),
  );
}

/** The outline (bookmarks) as a reader lists them. */
export function outlineTitles(data: Uint8Array): string[] {
  const xml = poppler('pdftohtml', data, '-xml', '-i', '-stdout', '-q');
  const outline = /<outline>([\s\S]*?)<\/outline>/.exec(xml)?.[1] ?? '';
  return Array.from(outline.matchAll(/<item[^>]*>([^<]*)<\/item>/g), (match) =>
    (match[1] ?? '').replace(/&amp;/g, '&').replace(/&lt;/g, '<').replace(/&gt;/g, '>'),
  );
}

export interface Raster {
  width: number;
  height: number;
  pixel(x: number, y: number): [number, number, number];
}

/** Each page as poppler draws it (binary PPM: a short text header, then RGB bytes). */
export function render(data: Uint8Array, dpi: number): Raster[] {
  const { dir, file } = writeTemporary(data);
  execFileSync('pdftoppm', ['-r', String(dpi), file, join(dir, 'page')]);
  return readdirSync(dir)
    .filter((name) => name.endsWith('.ppm'))
    .sort()
    .map((name) => {
      const bytes = readFileSync(join(dir, name));
      const header = bytes
        .subarray(0, 40)
        .toString('latin1')
        .match(/^P6\s+(\d+)\s+(\d+)\s+255\s/);
      if (!header) throw new Error(`${name} is not a binary PPM`);
      const width = Number(header[1]);
      const offset = header[0].length;
      return {
        width,
        height: Number(header[2]),
        pixel: (x, y) => {
          const at = offset + (y * width + x) * 3;
          return [bytes[at] ?? 0, bytes[at + 1] ?? 0, bytes[at + 2] ?? 0];
        },
      };
    });
}
