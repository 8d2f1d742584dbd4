import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// @ts-expect-error plain ESM build helper
import { brotliQuality, precompress } from './precompress.mjs';

const serveScript = new URL('./serve.mjs', import.meta.url).pathname;

interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

function get(port: number, path: string, headers: Record<string, string> = {}): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
      );
    });
    req.on('error', reject);
    req.end();
  });
}

/** Starts the real server on a free port and resolves once it says where it listens. */
function startServer(dir: string): Promise<{ child: ChildProcess; port: number }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [serveScript, '--port', '0', '--dir', dir]);
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = /:(\d+)\//.exec(out);
      if (match) resolve({ child, port: Number(match[1]) });
    });
    child.on('exit', (code) => reject(new Error(`server exited with ${code}: ${out}`)));
  });
}

describe('serving the build with precompressed assets', () => {
  let dir: string;
  let server: { child: ChildProcess; port: number };
  const script = `export const greeting = ${JSON.stringify('hello 你好 '.repeat(400))};\n`;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'serve-test-'));
    mkdirSync(join(dir, 'assets'));
    writeFileSync(join(dir, 'index.html'), `<!doctype html><title>t</title>${'<p>x</p>'.repeat(300)}`);
    writeFileSync(join(dir, 'assets', 'app-abc123.js'), script);
    writeFileSync(join(dir, 'assets', 'tiny-abc.js'), 'export {};\n');
    writeFileSync(join(dir, 'assets', 'photo.png'), Buffer.alloc(4096, 7));
    await precompress(dir);
    server = await startServer(dir);
  });

  afterAll(() => {
    server?.child.kill();
    rmSync(dir, { recursive: true, force: true });
  });

  it('writes brotli and gzip beside text files, not beside tiny files or images', () => {
    expect(existsSync(join(dir, 'assets', 'app-abc123.js.br'))).toBe(true);
    expect(existsSync(join(dir, 'assets', 'app-abc123.js.gz'))).toBe(true);
    expect(existsSync(join(dir, 'index.html.br'))).toBe(true);
    expect(existsSync(join(dir, 'assets', 'tiny-abc.js.br'))).toBe(false);
    expect(existsSync(join(dir, 'assets', 'photo.png.br'))).toBe(false);
  });

  it('spends the best brotli quality on small files and a fast one on large runtimes', () => {
    expect(brotliQuality(100_000)).toBe(11);
    expect(brotliQuality(2_000_000)).toBe(9);
    expect(brotliQuality(27_000_000)).toBe(5);
  });

  it('sends brotli to a client that accepts it, with a long cache for hashed assets', async () => {
    const reply = await get(server.port, '/assets/app-abc123.js', { 'Accept-Encoding': 'gzip, deflate, br' });
    expect(reply.status).toBe(200);
    expect(reply.headers['content-encoding']).toBe('br');
    expect(reply.headers.vary).toBe('Accept-Encoding');
    expect(reply.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(Number(reply.headers['content-length'])).toBe(reply.body.length);
    expect(reply.body.length).toBeLessThan(Buffer.byteLength(script) / 5);
    expect(brotliDecompressSync(reply.body).toString()).toBe(script);
  });

  it('sends gzip where brotli is refused, and the plain file to a client that accepts neither', async () => {
    const gz = await get(server.port, '/assets/app-abc123.js', { 'Accept-Encoding': 'gzip, br;q=0' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.body).toString()).toBe(script);

    const plain = await get(server.port, '/assets/app-abc123.js');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.toString()).toBe(script);
  });

  it('keeps the page policy and revalidation on the compressed shell', async () => {
    const reply = await get(server.port, '/', { 'Accept-Encoding': 'br' });
    expect(reply.headers['content-encoding']).toBe('br');
    expect(reply.headers['cache-control']).toBe('no-cache');
    expect(reply.headers['content-security-policy']).toContain("default-src 'self'");
    expect(brotliDecompressSync(reply.body).toString()).toBe(readFileSync(join(dir, 'index.html'), 'utf8'));
  });

  it('answers 404 for a missing file even when the client accepts compression', async () => {
    const reply = await get(server.port, '/assets/missing.js', { 'Accept-Encoding': 'br' });
    expect(reply.status).toBe(404);
  });
});
