import { createHarfBuzzSubsetter, type FontSubsetter } from './font-subset';
import { cachedFontLoader, type FontLoader } from './font-loader';

/**
 * The CJK font for PDF export (Noto Sans SC, ~10 MB): fetched only when a PDF is
 * exported and kept in Cache Storage, so later exports work offline. It covers
 * Latin as well, so one font sets a whole mixed-language note (code takes the
 * monospaced font of font-loader.ts where it has the glyph); only the glyphs a
 * document uses are embedded (subset by HarfBuzz, whose WASM is cached the same way).
 */

/** The font file as the app serves it (an asset emitted by the bundler, outside the shell's precache). */
export async function defaultFontLoader(): Promise<FontLoader> {
  const { default: url } =
    await import('@expo-google-fonts/noto-sans-sc/400Regular/NotoSansSC_400Regular.ttf?url');
  return cachedFontLoader(url);
}

/** HarfBuzz's subsetter (~0.7 MB of WASM), fetched on the first PDF export and cached like the font. */
export async function defaultSubsetter(): Promise<FontSubsetter> {
  const { default: url } = await import('harfbuzzjs/dist/harfbuzz-subset.wasm?url');
  const load = cachedFontLoader(url, 'The font subsetter');
  return createHarfBuzzSubsetter(load);
}
