import { PICTURE_EXTENSION } from './archive-pictures';

/**
 * The file names an export gives its pictures. A picture keeps the name it
 * came with (a vault's `diagram.png`, a paste's `image.png`), so a backup
 * opened in Obsidian or another app shows names a person recognises; the
 * stored id is the name only when nothing usable is left of the original.
 */

/**
 * Refused by Windows (`<>:"/\|?*`), by macOS's Finder (`:`), or breaking an
 * Obsidian link to the file (`#^[]|`); control characters are refused too.
 */
const REFUSED = /[\p{Cc}<>:"/\\|?*#^[\]]/gu;
/** Windows refuses these as a name, whatever extension follows. */
const DEVICE_NAME = /^(?:con|prn|aux|nul|com\d|lpt\d)$/i;
/**
 * UTF-8 bytes a name's stem may take: file systems allow 255 for the whole
 * name, which leaves room for a ` (n)` copy number and the extension.
 */
const MAX_STEM_BYTES = 200;
/** `jpeg` and `jpg` name one format; either, as the name wrote it, is kept. */
const SAME_FORMAT: Readonly<Record<string, string>> = { jpeg: 'jpg' };

const encoder = new TextEncoder();

function formatOf(extension: string): string {
  const lower = extension.toLowerCase();
  return SAME_FORMAT[lower] ?? lower;
}

/** The longest start of `text` within `maxBytes` UTF-8 bytes, never splitting a character. */
function withinBytes(text: string, maxBytes: number): string {
  if (encoder.encode(text).length <= maxBytes) return text;
  let out = '';
  let bytes = 0;
  for (const char of text) {
    bytes += encoder.encode(char).length;
    if (bytes > maxBytes) break;
    out += char;
  }
  return out;
}

/**
 * A safe file name for a picture stored as `name`, whose bytes are of
 * `extension`'s format: the last part of any path, without refused
 * characters, leading or trailing dots and spaces, ending in an extension of
 * that format (the name's own spelling when it names the same format); null
 * when nothing usable is left.
 */
export function safePictureFileName(name: string, extension: string): string | null {
  const last = name.normalize('NFC').split(/[/\\]/).pop() ?? '';
  let stem = last.replace(REFUSED, '');
  let ending = extension;
  const own = PICTURE_EXTENSION.exec(stem);
  if (own) {
    stem = stem.slice(0, own.index);
    if (formatOf(own[0].slice(1)) === formatOf(extension)) ending = own[0].slice(1);
  }
  stem = withinBytes(stem.trim(), MAX_STEM_BYTES)
    .replace(/^[\s.]+/, '')
    .replace(/[\s.]+$/, '');
  // Nothing left but punctuation and spaces says nothing about the picture.
  if (!/[\p{L}\p{N}]/u.test(stem)) return null;
  if (DEVICE_NAME.test(stem)) stem = `${stem}_`;
  return `${stem}.${ending}`;
}

/**
 * The names of one export's pictures: each picture named once, and names
 * unique regardless of case (macOS and Windows file systems, and unzipping
 * there, take `A.png` and `a.png` for one file). A later picture of a taken
 * name gets `name (2).png`, `name (3).png`…, in the order pictures are named,
 * so an export of the same notebook names them the same way.
 */
export class ExportPictureNames {
  readonly #byId = new Map<string, string>();
  readonly #taken = new Set<string>();

  /** The file name of the picture stored as `attachmentId`, named `name`, of `extension`'s format. */
  nameOf(attachmentId: string, name: string, extension: string): string {
    const named = this.#byId.get(attachmentId);
    if (named !== undefined) return named;
    const wanted = safePictureFileName(name, extension) ?? `${attachmentId}.${extension}`;
    const dot = wanted.lastIndexOf('.');
    const stem = wanted.slice(0, dot);
    const ending = wanted.slice(dot);
    let file = wanted;
    for (let copy = 2; this.#taken.has(keyOf(file)); copy++) file = `${stem} (${copy})${ending}`;
    this.#taken.add(keyOf(file));
    this.#byId.set(attachmentId, file);
    return file;
  }
}

function keyOf(file: string): string {
  return file.normalize('NFC').toLowerCase();
}
