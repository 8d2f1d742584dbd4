import { readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';

// The plain HTTP side: the test page (at / and at the protocol's
// /simpletest2025), GET /health and GET /metrics. Everything else is 404.

export interface HttpRouteContext {
  health(): { status: 'ok' | 'shutting_down' | 'redis_unavailable' } & Record<string, unknown>;
  metrics(): object;
  /** /metrics shows load and memory: loopback or a key by default (see config `metrics`). */
  metricsAllowed(request: IncomingMessage): boolean;
}

interface Asset {
  body: Buffer;
  type: string;
}

function loadAssets(): Record<string, Asset> {
  const read = (name: string) => readFileSync(new URL(`../web/${name}`, import.meta.url));
  const page = { body: read('test-page.html'), type: 'text/html; charset=utf-8' };
  return {
    '/': page,
    '/simpletest2025': page,
    '/test-page.js': { body: read('test-page.js'), type: 'text/javascript; charset=utf-8' },
  };
}

const PAGE_SECURITY_HEADERS = {
  // The page talks only to this server; no inline script, nothing from elsewhere.
  'Content-Security-Policy':
    "default-src 'none'; script-src 'self'; style-src 'unsafe-inline'; connect-src 'self' ws: wss:; base-uri 'none'; form-action 'none'",
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
};

function sendJson(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'Content-Type': 'application/json', 'Cache-Control': 'no-store' });
  response.end(JSON.stringify(body));
}

export function createHttpHandler(context: HttpRouteContext) {
  const assets = loadAssets();
  return (request: IncomingMessage, response: ServerResponse): void => {
    const path = new URL(request.url ?? '/', 'http://agent.invalid').pathname;
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      response.writeHead(405, { Allow: 'GET, HEAD' }).end();
      return;
    }
    if (path === '/health') {
      const health = context.health();
      return sendJson(response, health.status === 'ok' ? 200 : 503, health);
    }
    if (path === '/metrics') {
      if (!context.metricsAllowed(request)) return sendJson(response, 403, { error: 'forbidden' });
      return sendJson(response, 200, context.metrics());
    }
    const asset = assets[path];
    if (!asset) return sendJson(response, 404, { error: 'not_found' });
    response.writeHead(200, { 'Content-Type': asset.type, ...PAGE_SECURITY_HEADERS });
    response.end(request.method === 'HEAD' ? undefined : asset.body);
  };
}
