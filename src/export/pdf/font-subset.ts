/**
 * Font subsetting with HarfBuzz's hb-subset (harfbuzzjs' standalone WASM build, no
 * imports, so it runs alike in a worker and in Node). fontkit's own subsetter, which
 * pdf-lib uses for `subset: true`, wrote glyphs that poppler draws blank; the PDF
 * exporter embeds the subset made here whole instead.
 */

/** The subset of `font` that draws `codePoints` (plus .notdef), as a font file. */
export type FontSubsetter = (font: Uint8Array, codePoints: ReadonlySet<number>) => Promise<Uint8Array>;

interface HarfBuzzSubsetExports {
  memory: WebAssembly.Memory;
  malloc(size: number): number;
  free(pointer: number): void;
  _initialize?(): void;
  hb_blob_create(data: number, length: number, mode: number, userData: number, destroy: number): number;
  hb_blob_destroy(blob: number): void;
  hb_blob_get_length(blob: number): number;
  hb_blob_get_data(blob: number, length: number): number;
  hb_face_create(blob: number, index: number): number;
  hb_face_destroy(face: number): void;
  hb_face_reference_blob(face: number): number;
  hb_set_add(set: number, value: number): void;
  hb_subset_input_create_or_fail(): number;
  hb_subset_input_destroy(input: number): void;
  hb_subset_input_unicode_set(input: number): number;
  hb_subset_input_set(input: number, setType: number): number;
  hb_subset_input_set_flags(input: number, flags: number): void;
  hb_subset_or_fail(face: number, input: number): number;
}

const HB_MEMORY_MODE_READONLY = 1;
const HB_SUBSET_SETS_DROP_TABLE_TAG = 3;
const HB_SUBSET_FLAGS_NO_HINTING = 0x1;
/** Keeps the empty-box glyph drawn for characters the font lacks, so they are not silently blank. */
const HB_SUBSET_FLAGS_NOTDEF_OUTLINE = 0x40;

/**
 * Tables left out of the subset. Without GSUB, pdf-lib's layout maps each character
 * to its cmap glyph: a substituted glyph (Noto Sans SC swaps its digits by default)
 * would get no width and no ToUnicode entry when the font is embedded whole, so it
 * would be drawn 1 em wide and lost in copy and search. GPOS would only make the
 * measured widths differ from the drawn ones; the rest are for vertical or
 * shaped text, which the exporter does not set.
 */
const DROPPED_TABLES = ['GSUB', 'GPOS', 'GDEF', 'BASE', 'JSTF', 'vhea', 'vmtx', 'VORG', 'STAT'];

function tag(name: string): number {
  return Array.from(name).reduce((value, character) => (value << 8) | character.charCodeAt(0), 0) >>> 0;
}

/** A subsetter over the hb-subset WASM, instantiated on first use from `loadWasm`'s bytes. */
export function createHarfBuzzSubsetter(loadWasm: () => Promise<Uint8Array>): FontSubsetter {
  let instance: Promise<HarfBuzzSubsetExports> | undefined;
  const load = () => {
    instance ??= (async () => {
      const bytes = (await loadWasm()) as Uint8Array<ArrayBuffer>;
      const { instance: wasm } = await WebAssembly.instantiate(bytes, {});
      const exports = wasm.exports as unknown as HarfBuzzSubsetExports;
      exports._initialize?.();
      return exports;
    })().catch((error: unknown) => {
      instance = undefined;
      throw error;
    });
    return instance;
  };
  return async (font, codePoints) => {
    const hb = await load();
    const fontPointer = hb.malloc(font.byteLength);
    if (fontPointer === 0) throw new Error('Not enough memory to subset the font.');
    let blob = 0;
    let face = 0;
    let input = 0;
    let subset = 0;
    let subsetBlob = 0;
    try {
      // A view is made after each allocation: growing the memory detaches older ones.
      new Uint8Array(hb.memory.buffer, fontPointer, font.byteLength).set(font);
      blob = hb.hb_blob_create(fontPointer, font.byteLength, HB_MEMORY_MODE_READONLY, 0, 0);
      face = hb.hb_face_create(blob, 0);
      input = hb.hb_subset_input_create_or_fail();
      if (input === 0) throw new Error('Not enough memory to subset the font.');
      const unicodes = hb.hb_subset_input_unicode_set(input);
      for (const codePoint of codePoints) hb.hb_set_add(unicodes, codePoint);
      const dropped = hb.hb_subset_input_set(input, HB_SUBSET_SETS_DROP_TABLE_TAG);
      for (const name of DROPPED_TABLES) hb.hb_set_add(dropped, tag(name));
      hb.hb_subset_input_set_flags(input, HB_SUBSET_FLAGS_NO_HINTING | HB_SUBSET_FLAGS_NOTDEF_OUTLINE);
      subset = hb.hb_subset_or_fail(face, input);
      if (subset === 0) throw new Error('The font could not be subset.');
      subsetBlob = hb.hb_face_reference_blob(subset);
      const length = hb.hb_blob_get_length(subsetBlob);
      if (length === 0) throw new Error('The font could not be subset.');
      const data = hb.hb_blob_get_data(subsetBlob, 0);
      return new Uint8Array(hb.memory.buffer, data, length).slice();
    } finally {
      if (subsetBlob) hb.hb_blob_destroy(subsetBlob);
      if (subset) hb.hb_face_destroy(subset);
      if (input) hb.hb_subset_input_destroy(input);
      if (face) hb.hb_face_destroy(face);
      if (blob) hb.hb_blob_destroy(blob);
      hb.free(fontPointer);
    }
  };
}
