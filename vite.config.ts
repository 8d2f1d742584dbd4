import { availableParallelism } from 'node:os';
import { configDefaults, defineConfig } from 'vitest/config';
import { svelte } from '@sveltejs/vite-plugin-svelte';
import { VitePWA } from 'vite-plugin-pwa';
// @ts-expect-error plain ESM build helper, also used by the tests of scripts/serve.mjs
import { precompressPlugin } from './scripts/precompress.mjs';

type ModuleGraph = (id: string) => { isEntry: boolean; importers: readonly string[] } | null;

/**
 * Whether a module is imported (statically, through any chain) by the page's entry: the
 * code every visit evaluates before its first paint. `known` keeps answers between calls.
 */
function loadsWithShell(id: string, getModuleInfo: ModuleGraph, known: Map<string, boolean>): boolean {
  const answered = known.get(id);
  if (answered !== undefined) return answered;
  const seen = new Set([id]);
  const queue = [id];
  for (const current of queue) {
    if (known.get(current) === false) continue;
    const info = getModuleInfo(current);
    if (known.get(current) === true || info?.isEntry) {
      known.set(id, true);
      return true;
    }
    for (const importer of info?.importers ?? []) {
      if (seen.has(importer)) continue;
      seen.add(importer);
      queue.push(importer);
    }
  }
  // No importer of any of them leads to the entry.
  for (const module of seen) known.set(module, false);
  return false;
}

// Cross-origin isolation lets multi-threaded WASM (transformers.js, web-llm) use
// SharedArrayBuffer; it must hold for dev, preview and the offline service worker.
const isolationHeaders = {
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Embedder-Policy': 'require-corp',
};

export default defineConfig({
  plugins: [
    svelte(),
    VitePWA({
      registerType: 'prompt',
      injectRegister: false,
      includeAssets: ['icons/*.svg', 'icons/*.png'],
      manifest: {
        name: 'NotesAgent',
        short_name: 'NotesAgent',
        description: 'Offline AI notebook / 离线 AI 笔记本',
        lang: 'zh-CN',
        start_url: '/',
        scope: '/',
        display: 'standalone',
        // Upright on a phone, either way on a tablet: nothing is locked.
        orientation: 'any',
        background_color: '#ffffff',
        theme_color: '#2f5d8a',
        icons: [
          { src: 'icons/icon-192.png', sizes: '192x192', type: 'image/png' },
          { src: 'icons/icon-512.png', sizes: '512x512', type: 'image/png' },
          { src: 'icons/icon-maskable.svg', sizes: 'any', type: 'image/svg+xml', purpose: 'maskable' },
        ],
      },
      workbox: {
        // Everything the build emits is precached (about 4.5 MB, most of it Mermaid's
        // diagram chunks) so diagrams, math and highlighting also render offline
        // from the first visit. Model weights and WASM runtimes will be cached on
        // first use instead: they are far larger and only some users need them.
        globPatterns: ['**/*.{js,css,html,svg,png,woff2,webmanifest}'],
        maximumFileSizeToCacheInBytes: 3 * 1024 * 1024,
        navigateFallback: '/index.html',
        // web-llm (~6 MB) is only for users of local models: cached on first use instead.
        globIgnores: ['**/webllm-library-*.js'],
        cleanupOutdatedCaches: true,
        // Cached on first use instead of precached: the web-llm library, and the
        // ONNX Runtime files (src/workers/ort-wasm.ts; ~27 MB, needed once an
        // embedding or Whisper model is used). Model weights are not cached here:
        // web-llm and transformers.js keep them in their own Cache Storage entries.
        runtimeCaching: [
          {
            urlPattern: /\/assets\/webllm-library-[\w-]+\.js$/,
            handler: 'CacheFirst',
            options: { cacheName: 'webllm-library', expiration: { maxEntries: 2 } },
          },
          {
            urlPattern: ({ url, sameOrigin }) =>
              sameOrigin && /\/ort-wasm-simd-threaded\.[^/]*\.(?:mjs|wasm)$/.test(url.pathname),
            handler: 'CacheFirst',
            options: { cacheName: 'onnx-runtime', expiration: { maxEntries: 4 } },
          },
        ],
      },
    }),
    precompressPlugin(),
  ],
  worker: { format: 'es' },
  build: {
    target: 'es2022',
    sourcemap: false,
    chunkSizeWarningLimit: 4096,
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [
            {
              // Everything the first view needs in one chunk beside the entry, instead of a
              // dozen small ones split off where a lazy view shares a module with the shell:
              // on HTTP/1.1 each costs a request that queues for one of six connections.
              debugName: 'shell',
              name: (() => {
                const known = new Map<string, boolean>();
                return (id, context) => {
                  const getModuleInfo = (moduleId: string) => context.getModuleInfo(moduleId);
                  return !/\.css$|[?&]svelte&type=style/.test(id) &&
                    getModuleInfo(id)?.isEntry !== true &&
                    loadsWithShell(id, getModuleInfo, known)
                    ? 'shell'
                    : null;
                };
              })(),
            },
          ],
        },
      },
    },
  },
  server: { headers: isolationHeaders },
  preview: { headers: isolationHeaders },
  test: {
    include: ['src/**/*.test.ts', 'server/**/*.test.ts', 'bench/**/*.test.ts', 'scripts/**/*.test.ts'],
    // Real-network provider checks run only through `npm run test:live` (vitest.live.config.ts).
    exclude: [...configDefaults.exclude, '**/*.live.test.ts'],
    environment: 'node',
    setupFiles: ['src/test-setup.ts'],
    // Hang guards, not speed limits: the suite must pass beside other
    // CPU-heavy work on two cores, where a 15 s test can take three times that.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Vitest's default leaves a core for its main process (one worker on CI's two cores), but
    // the test files are the work: two workers there halve the wall time. VITEST_MAX_WORKERS overrides.
    maxWorkers: Math.max(2, availableParallelism() - 1),
  },
});
