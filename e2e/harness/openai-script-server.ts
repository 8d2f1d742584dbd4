import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { BrowserContext } from '@playwright/test';
import { agentScriptStream } from '../../src/services/__fixtures__/openai-agent-script';

export interface ScriptServer {
  url: string;
  /** Every chat-completions body received, parsed. */
  bodies: Array<Record<string, unknown>>;
  close(): Promise<void>;
}

export interface ScriptServerOptions {
  contextLength?: number;
  /**
   * The SSE body answering one chat completion; by default the agent script's
   * next step. A promise holds the request open until it settles (a test can
   * cancel it meanwhile).
   */
  reply?: (body: Record<string, unknown>) => string | Promise<string>;
}

/**
 * An OpenAI-compatible endpoint on 127.0.0.1 (with CORS) whose "model" is the
 * agent script: `/models` lists `script-model` with its context length, and
 * each chat completion streams the script's next step for the request.
 */
export async function startScriptServer(options: ScriptServerOptions = {}): Promise<ScriptServer> {
  const bodies: Array<Record<string, unknown>> = [];
  const cors = {
    'Access-Control-Allow-Origin': '*',
    'Access-Control-Allow-Headers': 'authorization, content-type, accept',
    'Access-Control-Allow-Methods': 'GET, POST, OPTIONS',
  };
  const server: Server = createServer((req, res) => {
    if (req.method === 'OPTIONS') {
      res.writeHead(204, cors).end();
      return;
    }
    if (req.url?.endsWith('/models')) {
      res.writeHead(200, { ...cors, 'Content-Type': 'application/json' });
      res.end(
        JSON.stringify({
          object: 'list',
          data: [{ id: 'script-model', object: 'model', context_length: options.contextLength ?? 32_768 }],
        }),
      );
      return;
    }
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as Record<string, unknown>;
      bodies.push(body);
      void Promise.resolve(options.reply ? options.reply(body) : agentScriptStream(body)).then((text) => {
        // A held request the client gave up on has no one left to answer.
        if (res.destroyed) return;
        res.writeHead(200, { ...cors, 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache' });
        res.end(text);
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    bodies,
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

export type StartScriptServer = (options?: ScriptServerOptions) => Promise<ScriptServer>;

/**
 * The `scriptServer` fixture: each call starts a script server that the test's
 * browser context may reach (the fixtures abort every other foreign request);
 * all are closed when the test ends, passed or failed.
 */
export async function scriptServerFixture(
  { context }: { context: BrowserContext },
  use: (start: StartScriptServer) => Promise<void>,
): Promise<void> {
  const servers: ScriptServer[] = [];
  try {
    await use(async (options) => {
      const server = await startScriptServer(options);
      servers.push(server);
      await context.route(`${server.url}/**`, (route) => route.continue());
      return server;
    });
  } finally {
    await Promise.all(servers.map((server) => server.close()));
  }
}

/**
 * A model that never answers until the test lets it: every request waits on one
 * promise, so nothing it was asked can finish meanwhile (a run stays running).
 */
export function heldReplies(): { reply: () => Promise<string>; release: (text?: string) => void } {
  let release: (text: string) => void = () => {};
  const held = new Promise<string>((resolve) => {
    release = resolve;
  });
  return { reply: () => held, release: (text = '') => release(text) };
}

/** The tool results a request sends back to the model: what a script decides its next step by. */
export function toolMessages(
  body: Record<string, unknown>,
): Array<{ role: string; content?: string | null }> {
  const messages = (body as { messages?: Array<{ role: string; content?: string | null }> }).messages ?? [];
  return messages.filter((message) => message.role === 'tool');
}

/** A plain streamed answer (no tools), as an SSE body. */
export function textStream(text: string, model = 'script-model'): string {
  const chunk = (delta: Record<string, unknown>, finish: string | null) =>
    `data: ${JSON.stringify({ id: 'x', object: 'chat.completion.chunk', model, choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
  return `${chunk({ role: 'assistant', content: text }, null)}${chunk({}, 'stop')}data: [DONE]\n\n`;
}

/** One streamed function call (no text), as an SSE body. */
export function toolCallStream(name: string, args: Record<string, unknown>, model = 'script-model'): string {
  const chunk = (delta: Record<string, unknown>, finish: string | null) =>
    `data: ${JSON.stringify({ id: 'x', object: 'chat.completion.chunk', model, choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
  const call = {
    index: 0,
    id: 'call_1',
    type: 'function',
    function: { name, arguments: JSON.stringify(args) },
  };
  return `${chunk({ role: 'assistant', content: null, tool_calls: [call] }, null)}${chunk({}, 'tool_calls')}data: [DONE]\n\n`;
}
