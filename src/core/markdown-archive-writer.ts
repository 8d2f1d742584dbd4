import { Zip, ZipDeflate, ZipPassThrough } from 'fflate';
import { ArchiveFormatError } from './front-matter';

/** Characters encoded and deflated at a time: a huge note never exists as one byte array. */
export const ENCODE_SLICE_CHARS = 1024 * 1024;
/**
 * Compressed bytes gathered before they go into a Blob part. A Blob holds its
 * bytes outside the JS heap (the browser may keep a large one on disk), so
 * the archive being written costs the heap this much at most.
 */
export const FLUSH_BYTES = 4 * 1024 * 1024;
// DOS date-times start in 1980; a fixed stamp keeps exports reproducible.
const DEFAULT_MODIFIED_AT = new Date(1980, 0, 1);

const encoder = new TextEncoder();

/**
 * A zip written one file at a time into a Blob, each file's text pushed
 * through the deflater a slice at a time: memory holds the text being added
 * (which the caller has anyway) and a few MiB of output, never the archive.
 * Entries carry their sizes in a data descriptor and in the central
 * directory, which every reader (this app's, unzip, the OS) uses.
 */
export class ZipBlobWriter {
  readonly #zip: Zip;
  readonly #modifiedAt: Date;
  readonly #type: string;
  readonly #flushBytes: number;
  readonly #sliceChars: number;
  readonly #paths = new Set<string>();
  readonly #parts: Blob[] = [];
  #chunks: Uint8Array[] = [];
  #pending = 0;
  #error: unknown = null;
  #finished = false;
  /** Compressed bytes written so far. */
  #written = 0;
  /** The most output bytes held in memory at once, for tests. */
  #peakPending = 0;

  constructor(options: { modifiedAt?: Date; type?: string; flushBytes?: number; sliceChars?: number } = {}) {
    this.#modifiedAt = options.modifiedAt ?? DEFAULT_MODIFIED_AT;
    this.#type = options.type ?? 'application/zip';
    this.#flushBytes = options.flushBytes ?? FLUSH_BYTES;
    this.#sliceChars = options.sliceChars ?? ENCODE_SLICE_CHARS;
    this.#zip = new Zip((error, chunk, final) => {
      if (error) {
        this.#error ??= error;
        return;
      }
      this.#chunks.push(chunk);
      this.#pending += chunk.length;
      this.#written += chunk.length;
      this.#peakPending = Math.max(this.#peakPending, this.#pending);
      if (final || this.#pending >= this.#flushBytes) this.#flush();
    });
  }

  get bytesWritten(): number {
    return this.#written;
  }

  get peakPendingBytes(): number {
    return this.#peakPending;
  }

  /**
   * Adds a file whose text is `texts` joined (a front matter and a body, say,
   * so they need not be copied into one string). Paths must be unique: a zip
   * may hold two entries of one name, but unpacking keeps one.
   */
  add(path: string, texts: readonly string[]): void {
    this.#claim(path);
    const file = new ZipDeflate(path, { level: 6 });
    file.mtime = this.#modifiedAt;
    this.#zip.add(file);
    for (const text of texts) {
      for (let start = 0; start < text.length;) {
        let end = Math.min(text.length, start + this.#sliceChars);
        // A surrogate pair stays whole: split, each half would encode as U+FFFD.
        const last = text.charCodeAt(end - 1);
        if (end < text.length && end - start > 1 && last >= 0xd800 && last <= 0xdbff) end -= 1;
        file.push(encoder.encode(text.slice(start, end)), false);
        start = end;
        this.#throwIfFailed();
      }
    }
    file.push(new Uint8Array(0), true);
    this.#throwIfFailed();
  }

  /**
   * Adds a file of bytes stored as they are: a PNG, JPEG, GIF or WebP is
   * compressed already, and deflating it again costs time for nothing.
   */
  addStored(path: string, bytes: Uint8Array): void {
    this.#claim(path);
    const file = new ZipPassThrough(path);
    file.mtime = this.#modifiedAt;
    this.#zip.add(file);
    file.push(bytes, true);
    this.#throwIfFailed();
  }

  #claim(path: string): void {
    if (this.#finished) throw new Error('The archive is already finished.');
    if (this.#paths.has(path)) {
      throw new ArchiveFormatError('duplicate_path', `Two files share the path ${path}.`, { path });
    }
    this.#paths.add(path);
  }

  /** Ends the archive; the writer cannot be used after. */
  finish(): Blob {
    if (this.#finished) throw new Error('The archive is already finished.');
    this.#finished = true;
    this.#zip.end();
    this.#throwIfFailed();
    this.#flush();
    return new Blob(this.#parts, { type: this.#type });
  }

  /** Drops what was written (a failed or abandoned export): nothing of it is kept. */
  abort(): void {
    this.#finished = true;
    this.#zip.terminate();
    this.#chunks = [];
    this.#parts.length = 0;
    this.#pending = 0;
  }

  #flush(): void {
    if (this.#chunks.length === 0) return;
    this.#parts.push(new Blob(this.#chunks as Uint8Array<ArrayBuffer>[]));
    this.#chunks = [];
    this.#pending = 0;
  }

  #throwIfFailed(): void {
    if (this.#error !== null) throw this.#error;
  }
}
