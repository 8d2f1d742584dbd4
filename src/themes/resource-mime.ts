/**
 * MIME types of package resources, read from their first bytes: a file's name
 * says what its author meant, its bytes say what a browser will do with it.
 */

export type ResourceKind = 'image' | 'font';

export interface SniffedResource {
  mime: string;
  kind: ResourceKind;
}

const EXTENSION_MIME: Readonly<Record<string, string>> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  avif: 'image/avif',
  svg: 'image/svg+xml',
  woff: 'font/woff',
  woff2: 'font/woff2',
  ttf: 'font/ttf',
  otf: 'font/otf',
};

function startsWith(bytes: Uint8Array, signature: readonly number[], offset = 0): boolean {
  if (bytes.length < offset + signature.length) return false;
  return signature.every((byte, index) => bytes[offset + index] === byte);
}

function ascii(bytes: Uint8Array, start: number, end: number): string {
  return String.fromCharCode(...bytes.subarray(start, end));
}

/** SVG is text: skip a BOM, the XML declaration, comments and a doctype, then expect `<svg`. */
function looksLikeSvg(bytes: Uint8Array): boolean {
  const head = new TextDecoder('utf-8', { fatal: false }).decode(bytes.subarray(0, 4096));
  let rest = head.replace(/^\uFEFF/, '').trimStart();
  for (;;) {
    if (rest.startsWith('<?')) {
      const end = rest.indexOf('?>');
      if (end < 0) return false;
      rest = rest.slice(end + 2).trimStart();
    } else if (rest.startsWith('<!--')) {
      const end = rest.indexOf('-->');
      if (end < 0) return false;
      rest = rest.slice(end + 3).trimStart();
    } else if (rest.toLowerCase().startsWith('<!doctype')) {
      const end = rest.indexOf('>');
      if (end < 0) return false;
      rest = rest.slice(end + 1).trimStart();
    } else {
      return /^<svg[\s>/]/i.test(rest);
    }
  }
}

/** What the bytes are, among the images and fonts a theme may carry; null for anything else. */
export function sniffResource(bytes: Uint8Array): SniffedResource | null {
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))
    return { mime: 'image/png', kind: 'image' };
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return { mime: 'image/jpeg', kind: 'image' };
  if (bytes.length >= 6 && (ascii(bytes, 0, 6) === 'GIF87a' || ascii(bytes, 0, 6) === 'GIF89a'))
    return { mime: 'image/gif', kind: 'image' };
  if (bytes.length >= 12 && ascii(bytes, 0, 4) === 'RIFF' && ascii(bytes, 8, 12) === 'WEBP')
    return { mime: 'image/webp', kind: 'image' };
  if (bytes.length >= 12 && ascii(bytes, 4, 8) === 'ftyp' && ['avif', 'avis'].includes(ascii(bytes, 8, 12)))
    return { mime: 'image/avif', kind: 'image' };
  if (bytes.length >= 4 && ascii(bytes, 0, 4) === 'wOFF') return { mime: 'font/woff', kind: 'font' };
  if (bytes.length >= 4 && ascii(bytes, 0, 4) === 'wOF2') return { mime: 'font/woff2', kind: 'font' };
  if (startsWith(bytes, [0x00, 0x01, 0x00, 0x00]) || (bytes.length >= 4 && ascii(bytes, 0, 4) === 'true'))
    return { mime: 'font/ttf', kind: 'font' };
  if (bytes.length >= 4 && ascii(bytes, 0, 4) === 'OTTO') return { mime: 'font/otf', kind: 'font' };
  if (looksLikeSvg(bytes)) return { mime: 'image/svg+xml', kind: 'image' };
  return null;
}

/** The MIME a file name promises, or null for an extension a theme may not carry. */
export function mimeForPath(path: string): string | null {
  const dot = path.lastIndexOf('.');
  if (dot < 0) return null;
  return EXTENSION_MIME[path.slice(dot + 1).toLowerCase()] ?? null;
}

/**
 * The resource's checked type: its bytes must be an image or font, and the
 * same type its extension names (a `.png` holding HTML is refused, not served).
 */
export function checkResource(path: string, bytes: Uint8Array): SniffedResource | null {
  const sniffed = sniffResource(bytes);
  if (!sniffed) return null;
  const promised = mimeForPath(path);
  if (promised !== sniffed.mime) return null;
  return sniffed;
}

export function toDataUrl(mime: string, bytes: Uint8Array): string {
  let binary = '';
  const chunk = 0x8000;
  for (let index = 0; index < bytes.length; index += chunk) {
    binary += String.fromCharCode(...bytes.subarray(index, index + chunk));
  }
  return `data:${mime};base64,${btoa(binary)}`;
}
