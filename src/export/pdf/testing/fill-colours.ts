import { unzlibSync } from 'fflate';

/**
 * Every fill colour (`r g b rg`) a PDF's content streams set, as `#rrggbb`: what tests read back
 * to see that text was drawn in a colour. Streams are inflated when they are zlib, read as they
 * are otherwise.
 */
export function pdfFillColours(data: Uint8Array): Set<string> {
  const bytes = Buffer.from(data);
  const text = bytes.toString('latin1');
  const colours = new Set<string>();
  for (const match of text.matchAll(/stream\r?\n/g)) {
    const start = (match.index ?? 0) + match[0].length;
    const end = text.indexOf('endstream', start);
    let content: string;
    try {
      content = Buffer.from(unzlibSync(bytes.subarray(start, end))).toString('latin1');
    } catch {
      content = text.slice(start, end);
    }
    for (const [, ...channels] of content.matchAll(/([\d.]+) ([\d.]+) ([\d.]+) rg/g))
      colours.add(
        `#${channels
          .map((channel) =>
            Math.round(Number(channel) * 255)
              .toString(16)
              .padStart(2, '0'),
          )
          .join('')}`,
      );
  }
  return colours;
}
