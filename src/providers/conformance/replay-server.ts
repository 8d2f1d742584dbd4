import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local HTTP server that replays wire recordings, for adapter tests only.
 *
 * A recording (`__fixtures__/<provider>-<scenario>.chunks.txt`) holds one chunk
 * per line, the payload as the provider documents it; the server frames each
 * line for the protocol (`data: …\n\n`, `event: <type>\ndata: …\n\n`, or a bare
 * NDJSON line). Lines starting with `#` are directives:
 *
 *   #status 429            answer with this status; the other lines are the body
 *   #header Retry-After: 2 add a response header
 *   #split 3               from here, write every chunk in 3-byte pieces, a few ms
 *                          apart, so the client reads tokens and UTF-8 characters cut
 *   #delay 50              from here, wait 50 ms before each chunk
 *   #crlf                  frame with CRLF instead of LF
 *   #cut                   destroy the connection here, mid-response
 *
 * SSE lines starting with `:` are written as comments (heartbeats).
 */
export type ReplayFraming = 'sse' | 'sse-named' | 'ndjson';

export interface ReplayRoute {
  file: string;
  framing: ReplayFraming;
}

export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: unknown;
  receivedAt: number;
  /** When the connection closed, by either side. */
  closedAt?: number;
  /** Settles when the connection closes, by either side. */
  closed: Promise<void>;
  /** Whether the server wrote the whole recording before the close. */
  completed: boolean;
}

type Step =
  | { kind: 'chunk'; text: string }
  | { kind: 'split'; size: number }
  | { kind: 'delay'; ms: number }
  | { kind: 'cut' };

interface Recording {
  status: number;
  headers: Record<string, string>;
  crlf: boolean;
  steps: Step[];
}

export function parseRecording(text: string): Recording {
  const recording: Recording = { status: 200, headers: {}, crlf: false, steps: [] };
  for (const line of text.split('\n')) {
    const trimmed = line.replace(/\r$/, '');
    if (trimmed === '') continue;
    if (!trimmed.startsWith('#')) {
      recording.steps.push({ kind: 'chunk', text: trimmed });
      continue;
    }
    const [directive = '', ...rest] = trimmed.slice(1).split(' ');
    const argument = rest.join(' ');
    switch (directive) {
      case 'status':
        recording.status = Number(argument);
        break;
      case 'header': {
        const colon = argument.indexOf(':');
        recording.headers[argument.slice(0, colon).trim()] = argument.slice(colon + 1).trim();
        break;
      }
      case 'split':
        recording.steps.push({ kind: 'split', size: Number(argument) });
        break;
      case 'delay':
        recording.steps.push({ kind: 'delay', ms: Number(argument) });
        break;
      case 'crlf':
        recording.crlf = true;
        break;
      case 'cut':
        recording.steps.push({ kind: 'cut' });
        break;
      default:
        throw new Error(`Unknown recording directive "#${directive}"`);
    }
  }
  return recording;
}

function frame(line: string, framing: ReplayFraming, crlf: boolean): string {
  const eol = crlf ? '\r\n' : '\n';
  if (framing === 'ndjson') return `${line}${eol}`;
  if (line.startsWith(':')) return `${line}${eol}${eol}`;
  if (framing === 'sse-named') {
    let type: string | undefined;
    try {
      type = (JSON.parse(line) as { type?: string }).type;
    } catch {
      type = undefined;
    }
    if (type) return `event: ${type}${eol}data: ${line}${eol}${eol}`;
  }
  return `data: ${line}${eol}${eol}`;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export class ReplayServer {
  readonly requests: RecordedRequest[] = [];
  readonly #resolve: (path: string) => ReplayRoute | undefined;
  #server: Server | undefined;
  #url = '';

  /** `resolve` maps a request path to the recording it replays. */
  constructor(resolve: (path: string) => ReplayRoute | undefined) {
    this.#resolve = resolve;
  }

  get url(): string {
    return this.#url;
  }

  async start(): Promise<void> {
    const server = createServer((req, res) => void this.#handle(req, res));
    this.#server = server;
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    this.#url = `http://127.0.0.1:${port}`;
  }

  async stop(): Promise<void> {
    const server = this.#server;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  /** The last request whose path starts with `prefix`. */
  lastRequest(prefix: string): RecordedRequest | undefined {
    return this.requests.findLast((request) => request.path.startsWith(prefix));
  }

  async #handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks).toString('utf8');
    let body: unknown;
    try {
      body = raw ? JSON.parse(raw) : undefined;
    } catch {
      body = raw;
    }
    let closed = false;
    const record: RecordedRequest = {
      method: req.method ?? 'GET',
      path: req.url ?? '/',
      headers: req.headers,
      body,
      receivedAt: Date.now(),
      completed: false,
      closed: new Promise<void>((resolve) => {
        res.on('close', () => {
          closed = true;
          record.closedAt = Date.now();
          resolve();
        });
      }),
    };
    this.requests.push(record);

    const route = this.#resolve(record.path);
    if (!route) {
      res.writeHead(404, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ error: { message: `No recording for ${record.path}` } }));
      return;
    }
    const recording = parseRecording(readFileSync(route.file, 'utf8'));
    if (recording.status !== 200) {
      const text = recording.steps.flatMap((step) => (step.kind === 'chunk' ? [step.text] : [])).join('\n');
      res.writeHead(recording.status, { 'Content-Type': 'application/json', ...recording.headers });
      res.end(text);
      record.completed = true;
      return;
    }

    res.socket?.setNoDelay(true);
    res.writeHead(200, {
      'Content-Type': route.framing === 'ndjson' ? 'application/x-ndjson' : 'text/event-stream',
      'Cache-Control': 'no-cache',
      ...recording.headers,
    });
    res.flushHeaders();
    let split = 0;
    let delay = 0;
    for (const step of recording.steps) {
      if (closed) return;
      switch (step.kind) {
        case 'split':
          split = step.size;
          break;
        case 'delay':
          delay = step.ms;
          break;
        case 'cut':
          // Let what was written reach the client, then drop the connection mid-body.
          await new Promise<void>((resolve) => res.write('', () => resolve()));
          await sleep(20);
          res.socket?.destroy();
          return;
        case 'chunk': {
          if (delay > 0) await sleep(delay);
          const bytes = Buffer.from(frame(step.text, route.framing, recording.crlf), 'utf8');
          if (split <= 0) {
            res.write(bytes);
            break;
          }
          for (let i = 0; i < bytes.length && !closed; i += split) {
            res.write(bytes.subarray(i, i + split));
            await sleep(1);
          }
          break;
        }
        default: {
          const unhandled: never = step;
          throw new Error(`Unknown step ${JSON.stringify(unhandled)}`);
        }
      }
    }
    if (closed) return;
    record.completed = true;
    res.end();
  }
}
