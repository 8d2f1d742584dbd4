// Writes `file.br` and `file.gz` beside every compressible file of the build, so
// scripts/serve.mjs can answer `Accept-Encoding` without compressing per request.
// Run by the Vite build (vite.config.ts) after every other plugin has written dist/.
import { promisify } from 'node:util';
import { brotliCompress, gzip, constants } from 'node:zlib';
import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { extname, join } from 'node:path';

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/** Text and WASM shrink several-fold; images, fonts in woff2 and model weights do not. */
export const COMPRESSIBLE = new Set([
  '.html',
  '.js',
  '.mjs',
  '.css',
  '.json',
  '.webmanifest',
  '.svg',
  '.txt',
  '.wasm',
  '.ttf',
]);

/** Below this, headers cost more than compression saves. */
const MIN_BYTES = 1024;

/**
 * Brotli's best quality costs about a second per megabyte on two cores; it pays for the
 * small files every visit loads (the shell, its CSS, the core worker's first chunks). The
 * multi-megabyte runtimes (ONNX WASM, web-llm) are loaded once and cached, so they get a
 * faster quality that keeps the build short.
 */
export function brotliQuality(bytes) {
  if (bytes <= 512 * 1024) return 11;
  if (bytes <= 4 * 1024 * 1024) return 9;
  return 5;
}

async function* files(dir) {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* files(path);
    else if (entry.isFile()) yield path;
  }
}

/** Compresses one file; a variant is kept only when it saves at least a tenth. */
async function compressFile(path) {
  const bytes = await readFile(path);
  const [br, gz] = await Promise.all([
    brotli(bytes, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: brotliQuality(bytes.length),
        [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
      },
    }),
    gzipAsync(bytes, { level: 9 }),
  ]);
  const written = { path, bytes: bytes.length, br: 0, gz: 0 };
  if (br.length < bytes.length * 0.9) {
    await writeFile(`${path}.br`, br);
    written.br = br.length;
  }
  if (gz.length < bytes.length * 0.9) {
    await writeFile(`${path}.gz`, gz);
    written.gz = gz.length;
  }
  return written;
}

/** Precompresses every compressible file under `root`; returns what it wrote. */
export async function precompress(root) {
  const targets = [];
  for await (const path of files(root)) {
    if (!COMPRESSIBLE.has(extname(path))) continue;
    if ((await stat(path)).size < MIN_BYTES) continue;
    targets.push(path);
  }
  // zlib's async calls run on libuv's thread pool: a few at a time uses every core
  // without holding every file in memory at once.
  const results = [];
  let next = 0;
  const worker = async () => {
    while (next < targets.length) results.push(await compressFile(targets[next++]));
  };
  await Promise.all(Array.from({ length: 4 }, worker));
  return results;
}

/** Vite plugin: precompress dist/ once the bundle (and the service worker) are written. */
export function precompressPlugin() {
  let outDir = 'dist';
  return {
    name: 'notesagent-precompress',
    apply: 'build',
    enforce: 'post',
    configResolved(config) {
      outDir = config.build.outDir;
    },
    closeBundle: {
      order: 'post',
      sequential: true,
      async handler() {
        const written = await precompress(outDir);
        const total = written.reduce((sum, file) => sum + file.bytes, 0);
        const br = written.reduce((sum, file) => sum + (file.br || file.bytes), 0);
        console.log(
          `precompressed ${written.length} files: ${(total / 1e6).toFixed(1)} MB -> ${(br / 1e6).toFixed(1)} MB brotli`,
        );
      },
    },
  };
}
