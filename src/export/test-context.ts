import type { ExportOptions } from '../contracts/exports';
import type { ExportContext, SvgRasterizer } from './exporter';
import { createStaticRenderer, type MermaidStaticPort } from './static-render';

export const DEFAULT_TEST_OPTIONS: ExportOptions = {
  theme_id: 'light',
  include_title: true,
  include_metadata: false,
  page_size: 'A4',
  code_theme: 'github-light',
};

/**
 * A handout with footnotes, for every exporter's footnote tests: references out of
 * definition order, a repeated one, one never defined, one definition never referenced,
 * and formatting, math and a link inside the notes.
 */
export const FOOTNOTE_HANDOUT = `FCFS[^fcfs] 与时间片轮转[^rr]，见教材[^1]，再看 FCFS[^fcfs]。未定义的[^missing]照原样。

[^1]: Tanenbaum, *Modern Operating Systems*, see [the book](https://example.com/mos).
[^rr]: Round robin：每个进程轮流使用 $q$ 个时间片，**公平**。
[^fcfs]: 先来先服务。
[^extra]: 没有被引用的脚注。
`;

/**
 * Footnotes written as list items, as notes pasted from elsewhere often have them: once the
 * definitions go to the notes, the list of only definitions and the item of one should leave
 * no empty bullet behind.
 */
export const FOOTNOTE_LIST_HANDOUT = `复习要点[^a]，另见[^b]与[^c]。

- 真正的要点
- [^c]: 混在要点里的脚注。

参考：

- [^a]: 第一条脚注。
- [^b]: 第二条脚注。
`;

/** An export context for exporter tests: plots drawn in-process, Mermaid by the given fake page. */
export function testExportContext(
  options: Partial<ExportOptions> = {},
  mermaid?: MermaidStaticPort,
  signal: AbortSignal = new AbortController().signal,
): ExportContext {
  return {
    options: { ...DEFAULT_TEST_OPTIONS, ...options },
    renderer: createStaticRenderer({ mermaid }),
    signal,
  };
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes: Uint8Array): number {
  let crc = 0xffffffff;
  for (const byte of bytes) crc = (CRC_TABLE[(crc ^ byte) & 0xff] ?? 0) ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

/** An RGB PNG of one colour, zlib-wrapped in stored (uncompressed) blocks. */
export function solidPng(width: number, height: number, rgb: [number, number, number]): Uint8Array {
  const rowLength = 1 + width * 3;
  const raw = new Uint8Array(rowLength * height);
  for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) raw.set(rgb, y * rowLength + 1 + x * 3);
  const blockCount = Math.max(1, Math.ceil(raw.length / 65535));
  const zlib = new Uint8Array(2 + blockCount * 5 + raw.length + 4);
  zlib.set([0x78, 0x01]);
  let out = 2;
  for (let block = 0; block < blockCount; block++) {
    const part = raw.subarray(block * 65535, (block + 1) * 65535);
    zlib.set([block === blockCount - 1 ? 1 : 0, part.length & 255, part.length >> 8], out);
    zlib.set([~part.length & 255, (~part.length >> 8) & 255], out + 3);
    zlib.set(part, out + 5);
    out += 5 + part.length;
  }
  let a = 1;
  let b = 0;
  for (const byte of raw) {
    a = (a + byte) % 65521;
    b = (b + a) % 65521;
  }
  zlib.set([b >> 8, b & 255, a >> 8, a & 255], out);
  const chunk = (type: string, data: Uint8Array) => {
    const out = new Uint8Array(12 + data.length);
    const view = new DataView(out.buffer);
    view.setUint32(0, data.length);
    out.set(
      Array.from(type, (c) => c.charCodeAt(0)),
      4,
    );
    out.set(data, 8);
    view.setUint32(8 + data.length, crc32(out.subarray(4, 8 + data.length)));
    return out;
  };
  const header = new Uint8Array(13);
  const view = new DataView(header.buffer);
  view.setUint32(0, width);
  view.setUint32(4, height);
  header.set([8, 2, 0, 0, 0], 8);
  const parts = [
    Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', zlib),
    chunk('IEND', new Uint8Array()),
  ];
  const png = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    png.set(part, offset);
    offset += part.length;
  }
  return png;
}

/** A page's rasterizer for tests: each SVG becomes a solid PNG at its scaled size; calls are kept. */
export function testRasterizer(rgb: [number, number, number] = [40, 90, 160]): SvgRasterizer & {
  calls: Array<{ svg: string; width: number; height: number; scale: number }>;
} {
  const calls: Array<{ svg: string; width: number; height: number; scale: number }> = [];
  return {
    calls,
    rasterize: async (svg, size) => {
      calls.push({ svg, ...size });
      return solidPng(Math.round(size.width * size.scale), Math.round(size.height * size.scale), rgb);
    },
  };
}
