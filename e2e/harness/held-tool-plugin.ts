import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { strToU8, zipSync } from 'fflate';
import type { BrowserContext } from '@playwright/test';

/**
 * A plugin whose one tool (`held-lookup.lookup`) fetches the URL it is given and
 * answers with the body: pointed at a `HeldAnswer` server, the call stays in
 * flight until the test releases it (what a slow plugin tool looks like before
 * its 30 s timeout), without any clock in the test.
 */
export function heldToolPluginZip(): Buffer {
  const manifest = [
    'id: held-lookup',
    'name: Held Lookup',
    'version: 0.1.0',
    'description: Looks a URL up; answers when the server does.',
    'permissions: [network]',
    'backend:',
    '  type: mcp',
    '  transport: worker',
    '  entry: server.js',
    'contributes:',
    '  tools: [held-lookup.lookup]',
    '',
  ].join('\n');
  const server = `export default function createServer({ Server, ListToolsRequestSchema, CallToolRequestSchema }) {
  const server = new Server({ name: 'held-lookup', version: '0.1.0' }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: [{
      name: 'lookup',
      title: 'Look up',
      description: 'Fetches a URL and answers with its text.',
      inputSchema: { type: 'object', properties: { url: { type: 'string' } }, required: ['url'] },
    }],
  }));
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const response = await fetch(String(request.params.arguments?.url ?? ''));
    return { content: [{ type: 'text', text: await response.text() }] };
  });
  return server;
}
`;
  return Buffer.from(zipSync({ plugin: { 'plugin.yaml': strToU8(manifest), 'server.js': strToU8(server) } }));
}

export interface HeldAnswer {
  /** Where the tool should fetch. */
  url: string;
  /** Settles when the tool's request has arrived (the call is in flight). */
  arrived: Promise<void>;
  /** Answers the held request with `text`. */
  release(text: string): void;
  close(): Promise<void>;
}

/** An HTTP server on 127.0.0.1 (with CORS) that holds its one answer until `release`. */
export async function startHeldAnswer(context: BrowserContext): Promise<HeldAnswer> {
  let markArrived: () => void = () => undefined;
  const arrived = new Promise<void>((resolve) => (markArrived = resolve));
  let answer: (text: string) => void = () => undefined;
  const released = new Promise<string>((resolve) => (answer = resolve));
  const cors = { 'Access-Control-Allow-Origin': '*' };
  const server = createServer((req, res: ServerResponse) => {
    if (req.method === 'OPTIONS') {
      res.writeHead(204, { ...cors, 'Access-Control-Allow-Headers': '*' }).end();
      return;
    }
    markArrived();
    void released.then((text) => {
      if (res.destroyed) return;
      res.writeHead(200, { ...cors, 'Content-Type': 'text/plain; charset=utf-8' }).end(text);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;
  // The fixtures block foreign requests; this one is the test's own.
  await context.route(`${url}/**`, (route) => route.continue());
  return {
    url: `${url}/lookup`,
    arrived,
    release: (text) => answer(text),
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
