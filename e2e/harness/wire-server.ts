import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { BrowserContext } from '@playwright/test';

/** One request a wire double received, as the provider would see it. */
export interface RecordedRequest {
  method: string;
  path: string;
  /** Lower-cased header names, as Node gives them. */
  headers: Record<string, string | string[] | undefined>;
  /**
   * The JSON body, parsed; undefined for a request without one. Typed as the
   * object it should be: a double checks that it is before reading it.
   */
  body: Record<string, unknown> | undefined;
}

export interface WireServer {
  url: string;
  /** Every request but CORS preflights, in order. */
  requests: RecordedRequest[];
  close(): Promise<void>;
}

export type WireHandler = (
  request: RecordedRequest,
  res: ServerResponse,
  headers: Record<string, string>,
) => void;

/**
 * A local HTTP server for one provider's wire. With `cors`, it answers
 * preflights and adds the allow headers the real service sends; without it,
 * it answers like a server that refuses this origin (no allow headers, as
 * Ollama does when the page's origin is not in OLLAMA_ORIGINS), so the
 * browser blocks the call.
 */
export async function startWireServer({ cors }: { cors: boolean }, handle: WireHandler): Promise<WireServer> {
  const requests: RecordedRequest[] = [];
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const allow: Record<string, string> = cors
      ? {
          'Access-Control-Allow-Origin': req.headers.origin ?? '*',
          'Access-Control-Allow-Headers': req.headers['access-control-request-headers'] ?? '*',
          'Access-Control-Allow-Methods': 'GET, POST, OPTIONS',
          Vary: 'Origin',
        }
      : {};
    if (req.method === 'OPTIONS') {
      res.writeHead(cors ? 204 : 403, allow).end();
      return;
    }
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const recorded: RecordedRequest = {
        method: req.method ?? 'GET',
        path: new URL(req.url ?? '/', 'http://x').pathname,
        headers: { ...req.headers },
        body: text ? (JSON.parse(text) as Record<string, unknown>) : undefined,
      };
      requests.push(recorded);
      handle(recorded, res, allow);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

export function sendJson(
  res: ServerResponse,
  status: number,
  headers: Record<string, string>,
  body: unknown,
): void {
  res.writeHead(status, { ...headers, 'Content-Type': 'application/json' });
  res.end(JSON.stringify(body));
}

/** Splits an answer into a few pieces, so the client gets a stream of deltas, not one. */
export function pieces(text: string): string[] {
  return text.split(/(?<= )/);
}

/**
 * For a spec file: `reach(context, start)` lets the test's browser reach a wire double
 * (the fixtures cut off every other foreign address), and each double is closed after its test.
 */
export function reachableWireServers(test: {
  afterEach(hook: () => Promise<void>): void;
}): (context: BrowserContext, start: Promise<WireServer>) => Promise<WireServer> {
  const servers: WireServer[] = [];
  test.afterEach(async () => {
    await Promise.all(servers.splice(0).map((server) => server.close()));
  });
  return async (context, start) => {
    const server = await start;
    servers.push(server);
    await context.route(`${server.url}/**`, (route) => route.continue());
    return server;
  };
}
