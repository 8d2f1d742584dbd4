import { unzlibSync } from 'fflate';

/** Every stream of a PDF as latin1 text, inflated when it is zlib: what tests read operators from. */
export function pdfStreams(data: Uint8Array): string[] {
  const bytes = Buffer.from(data);
  const text = bytes.toString('latin1');
  return Array.from(text.matchAll(/stream\r?\n/g), (match) => {
    const start = (match.index ?? 0) + match[0].length;
    const end = text.indexOf('endstream', start);
    try {
      return Buffer.from(unzlibSync(bytes.subarray(start, end))).toString('latin1');
    } catch {
      return text.slice(start, end);
    }
  });
}
