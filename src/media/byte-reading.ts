/**
 * Reading a file's header bytes, for the audio sniffers (audio-formats.ts names what a
 * file is; audio-failure.ts why it cannot be read). Reads past the end give '' or 0,
 * so a truncated header reads as "not this format" instead of throwing.
 */

export function startsWith(bytes: Uint8Array, prefix: readonly number[]): boolean {
  return prefix.every((byte, index) => bytes[index] === byte);
}

export function ascii(bytes: Uint8Array, offset: number, length: number): string {
  if (offset + length > bytes.length) return '';
  return String.fromCharCode(...bytes.subarray(offset, offset + length));
}

export function indexOfAscii(bytes: Uint8Array, needle: string, limit: number): number {
  const end = Math.min(bytes.length, limit) - needle.length;
  outer: for (let offset = 0; offset <= end; offset++) {
    for (let index = 0; index < needle.length; index++) {
      if (bytes[offset + index] !== needle.charCodeAt(index)) continue outer;
    }
    return offset;
  }
  return -1;
}

export function u16le(bytes: Uint8Array, offset: number): number {
  return (bytes[offset] ?? 0) | ((bytes[offset + 1] ?? 0) << 8);
}

export function u32le(bytes: Uint8Array, offset: number): number {
  return (u16le(bytes, offset) + u16le(bytes, offset + 2) * 0x10000) >>> 0;
}

export function u32be(bytes: Uint8Array, offset: number): number {
  return (
    (bytes[offset] ?? 0) * 0x1000000 +
    (((bytes[offset + 1] ?? 0) << 16) | ((bytes[offset + 2] ?? 0) << 8) | (bytes[offset + 3] ?? 0))
  );
}
