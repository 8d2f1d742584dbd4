/** Reads a font's bytes (a bundled asset in the app; a file in tests). */
export type FontLoader = () => Promise<Uint8Array>;

const FONT_CACHE = 'notesagent-export-fonts-v1';

/**
 * Fetches `url` once and keeps it in Cache Storage, so an export that has loaded
 * it once works offline afterwards.
 */
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

/**
 * The monospaced font for code: KaTeX's Typewriter (Computer Modern Typewriter,
 * 27 KB, every printable ASCII character), shipped by the katex package the
 * preview already depends on, so it needs no download of its own beyond the
 * app's asset. What it lacks (CJK comments, accents) is set in the CJK font.
 */
export async function defaultMonoFontLoader(): Promise<FontLoader> {
  const { default: url } = await import('katex/dist/fonts/KaTeX_Typewriter-Regular.ttf?url');
  return cachedFontLoader(url, 'The monospaced PDF font');
}
