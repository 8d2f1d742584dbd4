/**
 * A fast, synchronous, deterministic 64-bit string hash (cyrb53's mixing, both
 * 32-bit lanes kept), returned as 16 lower-case hex digits.
 *
 * Block hashes are stored beside notes and compared across sessions, so the
 * output for a given string must never change: the pinned vectors in the test
 * guard that. It is not a cryptographic hash; it only has to make accidental
 * collisions between blocks of one note vanishingly unlikely, and it must run
 * on every keystroke-sized edit without awaiting WebCrypto.
 */
export function contentHash(text: string): string {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  // UTF-16 code units are hashed directly: the result only needs to be stable,
  // and skipping a UTF-8 encode keeps long Chinese notes cheap.
  for (let index = 0; index < text.length; index++) {
    const unit = text.charCodeAt(index);
    h1 = Math.imul(h1 ^ unit, 2654435761);
    h2 = Math.imul(h2 ^ unit, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507);
  h1 ^= Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507);
  h2 ^= Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return toHex32(h2) + toHex32(h1);
}

function toHex32(value: number): string {
  return (value >>> 0).toString(16).padStart(8, '0');
}
