import { Inflate } from 'fflate';

/**
 * The generic half of reading a zip safely, shared by note import and
 * plugin/theme packages: the central directory parsed without inflating
 * anything (fflate trusts the local headers and hides the external
 * attributes), and inflation that stops at a byte cap instead of filling
 * memory when a header lies about sizes. Callers own the limits and turn
 * `ZipReadError` into their own codes.
 */
/** An entry as the central directory describes it; where its data starts needs its local header. */
export interface ZipCentralEntry {
  readonly name: string;
  readonly method: number;
  readonly compressed_size: number;
  readonly declared_size: number;
  readonly is_directory: boolean;
  readonly is_symlink: boolean;
  readonly encrypted: boolean;
  readonly local_offset: number;
}

export interface ZipDirectoryEntry extends ZipCentralEntry {
  readonly data_offset: number;
}

export type ZipReadProblem = 'not_an_archive' | 'too_many_entries';

export class ZipReadError extends Error {
  override readonly name = 'ZipReadError';
  readonly problem: ZipReadProblem;
  readonly limit: number | null;

  constructor(problem: ZipReadProblem, message: string, options: { limit?: number; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.problem = problem;
    this.limit = options.limit ?? null;
  }
}

export const ZIP_STORED = 0;
export const ZIP_DEFLATED = 8;

const EOCD_SIGNATURE = 0x06054b50;
const CENTRAL_SIGNATURE = 0x02014b50;
const LOCAL_SIGNATURE = 0x04034b50;
const UNIX_HOST = 3;
const FILE_TYPE_MASK = 0o170000;
const SYMLINK_TYPE = 0o120000;
/** Compressed bytes handed to the inflater at a time: deflate's 1032:1 bound keeps each output step near 16 MiB. */
const INFLATE_SLICE = 16 * 1024;

/** The entry count is checked against `maxEntries` before a single entry is read. */
export function readZipDirectory(bytes: Uint8Array, maxEntries: number): ZipDirectoryEntry[] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const end = readEndOfDirectory(view, 0, maxEntries);
  const central = parseCentralDirectory(bytes.subarray(end.offset, end.position), end.count);
  return central.map((entry) => ({
    ...entry,
    data_offset: dataOffset(view, entry.local_offset, entry.compressed_size),
  }));
}

interface EndOfDirectory {
  count: number;
  offset: number;
  /** Where the end record itself starts, in the whole archive. */
  position: number;
}

/** `view` holds the archive's last bytes, starting at `base` in the whole archive. */
function readEndOfDirectory(view: DataView, base: number, maxEntries: number): EndOfDirectory {
  const eocd = findEndOfDirectory(view);
  const count = view.getUint16(eocd + 10, true);
  const size = view.getUint32(eocd + 12, true);
  const offset = view.getUint32(eocd + 16, true);
  if (count === 0xffff || size === 0xffffffff || offset === 0xffffffff) {
    throw notArchive('ZIP64 archives are not supported.');
  }
  if (count > maxEntries) {
    throw new ZipReadError(
      'too_many_entries',
      `The archive has ${count} entries; at most ${maxEntries} are allowed.`,
      {
        limit: maxEntries,
      },
    );
  }
  const position = base + eocd;
  if (offset + size > position) throw notArchive('The zip directory is damaged.');
  return { count, offset, position };
}

/** `directory` starts at the first central record and runs up to the end record. */
function parseCentralDirectory(directory: Uint8Array, count: number): ZipCentralEntry[] {
  const view = new DataView(directory.buffer, directory.byteOffset, directory.byteLength);
  const entries: ZipCentralEntry[] = [];
  let cursor = 0;
  for (let index = 0; index < count; index += 1) {
    if (cursor + 46 > directory.byteLength || view.getUint32(cursor, true) !== CENTRAL_SIGNATURE) {
      throw notArchive('The zip directory is damaged.');
    }
    const madeBy = view.getUint16(cursor + 4, true) >> 8;
    const flags = view.getUint16(cursor + 8, true);
    const nameLength = view.getUint16(cursor + 28, true);
    const extraLength = view.getUint16(cursor + 30, true);
    const commentLength = view.getUint16(cursor + 32, true);
    const external = view.getUint32(cursor + 38, true);
    const name = decodeName(directory.subarray(cursor + 46, cursor + 46 + nameLength), (flags & 0x800) !== 0);
    entries.push({
      name,
      method: view.getUint16(cursor + 10, true),
      compressed_size: view.getUint32(cursor + 20, true),
      declared_size: view.getUint32(cursor + 24, true),
      is_directory: name.endsWith('/') || name.endsWith('\\'),
      is_symlink: madeBy === UNIX_HOST && ((external >>> 16) & FILE_TYPE_MASK) === SYMLINK_TYPE,
      encrypted: (flags & 0x1) !== 0,
      local_offset: view.getUint32(cursor + 42, true),
    });
    cursor += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
}

/**
 * The entry's bytes, or null as soon as they would exceed `cap`: at most one
 * inflate step (about 16 MiB) past the cap is ever held.
 */
export function inflateBounded(entry: ZipDirectoryEntry, bytes: Uint8Array, cap: number): Uint8Array | null {
  const data = bytes.subarray(entry.data_offset, entry.data_offset + entry.compressed_size);
  if (entry.method === ZIP_STORED) return data.byteLength > cap ? null : data.slice();
  if (entry.method !== ZIP_DEFLATED) {
    throw notArchive(`The entry ${entry.name} uses an unsupported compression method (${entry.method}).`);
  }
  const chunks: Uint8Array[] = [];
  let produced = 0;
  let over = false;
  const inflater = new Inflate((chunk) => {
    produced += chunk.byteLength;
    if (produced > cap) {
      over = true;
      return;
    }
    chunks.push(chunk);
  });
  try {
    if (data.byteLength === 0) inflater.push(new Uint8Array(0), true);
    for (let offset = 0; offset < data.byteLength && !over; offset += INFLATE_SLICE) {
      inflater.push(data.subarray(offset, offset + INFLATE_SLICE), offset + INFLATE_SLICE >= data.byteLength);
    }
  } catch (cause) {
    throw new ZipReadError('not_an_archive', `The entry ${entry.name} could not be decompressed.`, { cause });
  }
  if (over) return null;
  return concat(chunks, produced);
}

/**
 * An archive read piece by piece: a Blob (an upload, an attachment stored in
 * IndexedDB) is never read whole, so memory holds a window of the archive and
 * the notes taken from it, not the archive too.
 */
export interface ZipSource {
  readonly size: number;
  read(offset: number, length: number): Promise<Uint8Array>;
}

export function bytesSource(bytes: Uint8Array): ZipSource {
  return {
    size: bytes.byteLength,
    read: (offset, length) => Promise.resolve(bytes.subarray(offset, offset + length)),
  };
}

export function blobSource(blob: Blob): ZipSource {
  return {
    size: blob.size,
    read: async (offset, length) => new Uint8Array(await blob.slice(offset, offset + length).arrayBuffer()),
  };
}

/** The largest end record: 22 bytes and a comment of at most 65,535. */
const END_RECORD_SPAN = 22 + 0xffff;

/** readZipDirectory for a source: only the end record and the directory are read. */
export async function readZipDirectoryFrom(
  source: ZipSource,
  maxEntries: number,
): Promise<ZipCentralEntry[]> {
  const tailLength = Math.min(source.size, END_RECORD_SPAN);
  const base = source.size - tailLength;
  const tail = await source.read(base, tailLength);
  const end = readEndOfDirectory(
    new DataView(tail.buffer, tail.byteOffset, tail.byteLength),
    base,
    maxEntries,
  );
  const directory =
    end.offset >= base
      ? tail.subarray(end.offset - base, end.position - base)
      : await source.read(end.offset, end.position - end.offset);
  return parseCentralDirectory(directory, end.count);
}

/**
 * Reads a source through a window, so the many small reads of a vault of
 * small notes (a local header, then the data) cost one read per window.
 */
export class ZipWindowReader {
  readonly source: ZipSource;
  readonly #window: number;
  #start = 0;
  #bytes: Uint8Array = new Uint8Array(0);

  constructor(source: ZipSource, windowBytes: number) {
    this.source = source;
    this.#window = windowBytes;
  }

  async read(offset: number, length: number): Promise<Uint8Array> {
    const end = Math.min(offset + length, this.source.size);
    if (offset >= this.#start && end <= this.#start + this.#bytes.byteLength) {
      return this.#bytes.subarray(offset - this.#start, end - this.#start);
    }
    if (end - offset > this.#window) return this.source.read(offset, end - offset);
    this.#start = offset;
    this.#bytes = await this.source.read(offset, Math.min(this.#window, this.source.size - offset));
    return this.#bytes.subarray(0, end - offset);
  }
}

export interface InflateSteps {
  /** Compressed bytes read per step. */
  readonly stepBytes: number;
  /**
   * Called after each step with the compressed bytes it read: the place to
   * report progress, let other work in, and throw to stop.
   */
  readonly afterStep: (read: number) => Promise<void>;
}

/**
 * inflateBounded for a source, in steps: between steps the caller reports
 * progress and can stop the read (a cancel), so a large entry never blocks.
 */
export async function inflateBoundedFrom(
  entry: ZipCentralEntry,
  reader: ZipWindowReader,
  cap: number,
  steps: InflateSteps,
): Promise<Uint8Array | null> {
  const start = await localDataStart(entry, reader);
  if (entry.method !== ZIP_STORED && entry.method !== ZIP_DEFLATED) {
    throw notArchive(`The entry ${entry.name} uses an unsupported compression method (${entry.method}).`);
  }
  if (entry.method === ZIP_STORED && entry.compressed_size > cap) return null;
  const chunks: Uint8Array[] = [];
  let produced = 0;
  let over = false;
  const keep = (chunk: Uint8Array): void => {
    produced += chunk.byteLength;
    if (produced > cap) over = true;
    else chunks.push(chunk);
  };
  const inflater = entry.method === ZIP_DEFLATED ? new Inflate(keep) : null;
  const inflate = (piece: Uint8Array, last: boolean): void => {
    if (inflater === null) return keep(piece.slice());
    try {
      pushInSlices(inflater, piece, last, () => over);
    } catch (cause) {
      throw new ZipReadError('not_an_archive', `The entry ${entry.name} could not be decompressed.`, {
        cause,
      });
    }
  };
  if (entry.compressed_size === 0) inflate(new Uint8Array(0), true);
  for (let offset = 0; offset < entry.compressed_size && !over; offset += steps.stepBytes) {
    const length = Math.min(steps.stepBytes, entry.compressed_size - offset);
    inflate(await reader.read(start + offset, length), offset + length >= entry.compressed_size);
    await steps.afterStep(length);
  }
  if (over) return null;
  return concat(chunks, produced);
}

function pushInSlices(inflater: Inflate, data: Uint8Array, last: boolean, over: () => boolean): void {
  if (data.byteLength === 0 && last) inflater.push(data, true);
  for (let offset = 0; offset < data.byteLength && !over(); offset += INFLATE_SLICE) {
    inflater.push(
      data.subarray(offset, offset + INFLATE_SLICE),
      last && offset + INFLATE_SLICE >= data.byteLength,
    );
  }
}

async function localDataStart(entry: ZipCentralEntry, reader: ZipWindowReader): Promise<number> {
  const header = await reader.read(entry.local_offset, 30);
  const view = new DataView(header.buffer, header.byteOffset, header.byteLength);
  if (header.byteLength < 30 || view.getUint32(0, true) !== LOCAL_SIGNATURE) {
    throw notArchive('The zip archive is damaged (an entry has no local header).');
  }
  const start = entry.local_offset + 30 + view.getUint16(26, true) + view.getUint16(28, true);
  if (start + entry.compressed_size > reader.source.size) throw notArchive('The zip archive is truncated.');
  return start;
}

function findEndOfDirectory(view: DataView): number {
  // The record is 22 bytes plus a comment of at most 65,535 bytes.
  const last = view.byteLength - 22;
  const first = Math.max(0, last - 0xffff);
  for (let position = last; position >= first; position -= 1) {
    if (view.getUint32(position, true) === EOCD_SIGNATURE) return position;
  }
  throw notArchive('The file is not a zip archive.');
}

function dataOffset(view: DataView, localOffset: number, compressedSize: number): number {
  if (localOffset + 30 > view.byteLength || view.getUint32(localOffset, true) !== LOCAL_SIGNATURE) {
    throw notArchive('The zip archive is damaged (an entry has no local header).');
  }
  const start =
    localOffset + 30 + view.getUint16(localOffset + 26, true) + view.getUint16(localOffset + 28, true);
  if (start + compressedSize > view.byteLength) {
    throw notArchive('The zip archive is truncated.');
  }
  return start;
}

/** Names without the UTF-8 flag are UTF-8 or GBK from older tools more often than CP437. */
function decodeName(bytes: Uint8Array, utf8: boolean): string {
  if (utf8) return new TextDecoder('utf-8').decode(bytes);
  for (const encoding of ['utf-8', 'gb18030']) {
    try {
      return new TextDecoder(encoding, { fatal: true }).decode(bytes);
    } catch {
      // Not this encoding: try the next one.
    }
  }
  return String.fromCharCode(...bytes);
}

function concat(chunks: readonly Uint8Array[], length: number): Uint8Array {
  if (chunks.length === 1 && chunks[0]!.byteLength === length) return chunks[0]!;
  const out = new Uint8Array(length);
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return out;
}

function notArchive(message: string): ZipReadError {
  return new ZipReadError('not_an_archive', message);
}
