import fontkit from '@pdf-lib/fontkit';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { createHarfBuzzSubsetter } from './font-subset';

const require = createRequire(import.meta.url);
const font = new Uint8Array(
  readFileSync(require.resolve('@expo-google-fonts/noto-sans-sc/400Regular/NotoSansSC_400Regular.ttf')),
);
const wasm = () =>
  Promise.resolve(new Uint8Array(readFileSync(require.resolve('harfbuzzjs/dist/harfbuzz-subset.wasm'))));
const codePoints = (text: string) => new Set(Array.from(text, (character) => character.codePointAt(0) ?? 0));

describe('createHarfBuzzSubsetter', () => {
  it('keeps exactly the glyphs of the given characters, each mapped and measured as in the whole font', async () => {
    const subset = await createHarfBuzzSubsetter(wasm)(font, codePoints('进程 ab0'));
    const whole = fontkit.create(font);
    const part = fontkit.create(subset);
    // .notdef plus one glyph for each of the six characters.
    expect(part.numGlyphs).toBe(7);
    expect(part.postscriptName).toBe('NotoSansSC-Regular');
    for (const character of '进程 ab0') {
      const codePoint = character.codePointAt(0) ?? 0;
      expect(part.hasGlyphForCodePoint(codePoint), character).toBe(true);
      expect(part.glyphForCodePoint(codePoint).advanceWidth).toBe(
        whole.glyphForCodePoint(codePoint).advanceWidth,
      );
    }
    expect(part.hasGlyphForCodePoint('调'.codePointAt(0) ?? 0)).toBe(false);
    // No substitutions: every glyph pdf-lib lays out is one it can give a width and a ToUnicode entry.
    const { tables } = (part as unknown as { directory: { tables: Record<string, unknown> } }).directory;
    expect(Object.keys(tables)).not.toContain('GSUB');
    expect(subset.byteLength).toBeLessThan(10_000);
  });

  it('fails with a message for bytes that are not a font, and keeps working after', async () => {
    const subsetter = createHarfBuzzSubsetter(wasm);
    await expect(subsetter(new Uint8Array([1, 2, 3, 4]), codePoints('a'))).rejects.toThrow(
      'The font could not be subset.',
    );
    expect((await subsetter(font, codePoints('a'))).byteLength).toBeGreaterThan(0);
  });

  it('loads the WASM again after a failed load', async () => {
    let loads = 0;
    const subsetter = createHarfBuzzSubsetter(async () => {
      loads += 1;
      if (loads === 1) throw new Error('offline');
      return wasm();
    });
    await expect(subsetter(font, codePoints('a'))).rejects.toThrow('offline');
    expect((await subsetter(font, codePoints('a'))).byteLength).toBeGreaterThan(0);
    expect(loads).toBe(2);
  });
});
