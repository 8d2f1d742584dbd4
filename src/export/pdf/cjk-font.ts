import { createHarfBuzzSubsetter, type FontSubsetter } from './font-subset';
import type { FontLoader } from './pdf-exporter';

/**
 * The CJK font for PDF export (Noto Sans SC, ~10 MB): fetched only when a PDF is
 * exported and kept in Cache Storage, so later exports work offline. It covers
 * Latin as well, so one font sets a whole mixed-language note; only the glyphs a
 * document uses are embedded (subset by HarfBuzz, whose WASM is cached the same way).
 */

const FONT_CACHE = 'notesagent-export-fonts-v1';

export function cachedFontLoader(url: string, what = 'The PDF font'): FontLoader {
  let loading: Promise<Uint8Array> | undefined;
  return () => {
    loading ??= (async () => {
      const cache = typeof caches === 'undefined' ? undefined : await caches.open(FONT_CACHE);
      let response = await cache?.match(url);
      if (!response) {
        response = await fetch(url);
        if (!response.ok) throw new Error(`${what} could not be loaded (HTTP ${response.status}).`);
        await cache?.put(url, response.clone());
      }
      return new Uint8Array(await response.arrayBuffer());
    })().catch((error: unknown) => {
      // A failed download (offline on first use) may work next time.
      loading = undefined;
      throw error;
    });
    return loading;
  };
}

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
