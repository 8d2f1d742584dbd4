/**
 * Zips assembled byte by byte for tests: duplicate names, and headers that
 * declare sizes the data does not have (zip bombs), which no zip library
 * writes on purpose. CRCs are left 0: the readers under test do not check them.
 */
export interface RawZipEntry {
  name: string;
  /** Stored bytes, or a raw DEFLATE stream when `method` is 8. */
  data: Uint8Array;
  method?: 0 | 8;
  /** The uncompressed size written in both headers; the real size when omitted for stored data. */
  declared_size?: number;
}

export function rawZip(entries: readonly RawZipEntry[]): Uint8Array {
  const encoder = new TextEncoder();
  const locals: Uint8Array[] = [];
  const centrals: Uint8Array[] = [];
  let offset = 0;
  for (const entry of entries) {
    const name = encoder.encode(entry.name);
    const method = entry.method ?? 0;
    const declared = entry.declared_size ?? entry.data.byteLength;
    const local = new Uint8Array(30 + name.byteLength + entry.data.byteLength);
    const lv = new DataView(local.buffer);
    lv.setUint32(0, 0x04034b50, true);
    lv.setUint16(4, 20, true);
    lv.setUint16(6, 0x800, true);
    lv.setUint16(8, method, true);
    lv.setUint16(12, 0x21, true);
    lv.setUint32(18, entry.data.byteLength, true);
    lv.setUint32(22, declared, true);
    lv.setUint16(26, name.byteLength, true);
    local.set(name, 30);
    local.set(entry.data, 30 + name.byteLength);
    const central = new Uint8Array(46 + name.byteLength);
    const cv = new DataView(central.buffer);
    cv.setUint32(0, 0x02014b50, true);
    cv.setUint16(4, 20, true);
    cv.setUint16(6, 20, true);
    cv.setUint16(8, 0x800, true);
    cv.setUint16(10, method, true);
    cv.setUint16(14, 0x21, true);
    cv.setUint32(20, entry.data.byteLength, true);
    cv.setUint32(24, declared, true);
    cv.setUint16(28, name.byteLength, true);
    cv.setUint32(42, offset, true);
    central.set(name, 46);
    locals.push(local);
    centrals.push(central);
    offset += local.byteLength;
  }
  const directorySize = centrals.reduce((sum, part) => sum + part.byteLength, 0);
  const end = new Uint8Array(22);
  const ev = new DataView(end.buffer);
  ev.setUint32(0, 0x06054b50, true);
  ev.setUint16(8, entries.length, true);
  ev.setUint16(10, entries.length, true);
  ev.setUint32(12, directorySize, true);
  ev.setUint32(16, offset, true);
  const out = new Uint8Array(offset + directorySize + 22);
  let at = 0;
  for (const part of [...locals, ...centrals, end]) {
    out.set(part, at);
    at += part.byteLength;
  }
  return out;
}
