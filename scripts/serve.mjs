// Serves the built app (dist/) on localhost: static files with the
// cross-origin isolation headers, index.html for app routes, and a real 404
// for missing files (a SPA fallback would answer a missing model file with HTML).
import { createServer } from 'node:http';
import { createReadStream, existsSync, statSync } from 'node:fs';
import { extname, join, normalize, resolve } from 'node:path';
import { COMPRESSIBLE } from './precompress.mjs';

const args = process.argv.slice(2);
const flag = (name, fallback) => {
  const index = args.indexOf(`--${name}`);
  return index >= 0 && args[index + 1] ? args[index + 1] : fallback;
};
const port = Number(flag('port', process.env.PORT ?? 4173));
const host = flag('host', '127.0.0.1');
const root = resolve(new URL('..', import.meta.url).pathname, flag('dir', 'dist'));

if (!existsSync(join(root, 'index.html'))) {
  console.error(`No build found in ${root}. Run \`npm run build\` first.`);
  process.exit(1);
}

/**
 * The page's policy (the same as the meta tag in index.html, plus what only a
 * header can say). Only HTML gets it: the workers' scripts keep no policy of
 * their own, because they call the providers and model hosts the user
 * configures at run time, which no policy fixed here could list.
 */
export const PAGE_CSP =
  "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob: https:; font-src 'self' data:; media-src 'self' blob:; connect-src 'self'; worker-src 'self' blob:; object-src 'none'; base-uri 'self'; form-action 'self'; frame-src 'none'; frame-ancestors 'none'";

const types = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.webmanifest': 'application/manifest+json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
  '.ttf': 'font/ttf',
  '.wasm': 'application/wasm',
  '.onnx': 'application/octet-stream',
  '.txt': 'text/plain; charset=utf-8',
};

/**
 * The precompressed variant (scripts/precompress.mjs) the client accepts, brotli
 * first; none for a client that sends no Accept-Encoding or refuses both (q=0).
 */
export function chooseEncoding(acceptEncoding, file) {
  if (!acceptEncoding) return undefined;
  const accepted = new Set(
    String(acceptEncoding)
      .split(',')
      .map((part) => part.trim().split(';'))
      .filter(([, q]) => !q || Number(q.trim().replace(/^q=/, '')) > 0)
      .map(([name]) => name.trim().toLowerCase()),
  );
  if (accepted.has('br') && existsSync(`${file}.br`)) return 'br';
  if (accepted.has('gzip') && existsSync(`${file}.gz`)) return 'gzip';
  return undefined;
}

const server = createServer((request, response) => {
  const url = new URL(request.url ?? '/', 'http://localhost');
  let path = normalize(decodeURIComponent(url.pathname)).replace(/^(\.\.[/\\])+/, '');
  let file = join(root, path);
  if (!file.startsWith(root)) {
    response.writeHead(403).end();
    return;
  }
  if (existsSync(file) && statSync(file).isDirectory()) file = join(file, 'index.html');
  // App routes (no extension) get the shell; files that do not exist get 404.
  if (!existsSync(file) && extname(path) === '') file = join(root, 'index.html');
  if (!existsSync(file)) {
    response.writeHead(404, { 'Content-Type': 'text/plain' }).end('Not found');
    return;
  }
  const encoding = chooseEncoding(request.headers['accept-encoding'], file);
  const body = encoding ? `${file}.${encoding === 'br' ? 'br' : 'gz'}` : file;
  const headers = {
    'Content-Type': types[extname(file)] ?? 'application/octet-stream',
    'Content-Length': statSync(body).size,
    ...(encoding && { 'Content-Encoding': encoding }),
    ...(COMPRESSIBLE.has(extname(file)) && { Vary: 'Accept-Encoding' }),
    'Cross-Origin-Opener-Policy': 'same-origin',
    'Cross-Origin-Embedder-Policy': 'require-corp',
    'Cross-Origin-Resource-Policy': 'same-origin',
    // The service worker and HTML must revalidate so updates are found; hashed assets are immutable.
    'Cache-Control': path.startsWith('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache',
    ...(extname(file) === '.html' && { 'Content-Security-Policy': PAGE_CSP }),
  };
  response.writeHead(200, headers);
  if (request.method === 'HEAD') response.end();
  else createReadStream(body).pipe(response);
});

server.listen(port, host, () => {
  // The bound port, not the requested one: `--port 0` asks the system for a free port.
  const bound = server.address().port;
  console.log(`NotesAgent is running at http://${host === '0.0.0.0' ? 'localhost' : host}:${bound}/`);
});
