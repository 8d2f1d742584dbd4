import { spawn, type ChildProcess } from 'node:child_process';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { MCP_MAX_MESSAGE_BYTES } from '../../src/contracts/plugin-types';
import { parseMessageText, TransportFault } from '../../src/plugins/transport-fault';

/** System variables a server may need to run at all; nothing of the host's own state. */
export const DEFAULT_ENV_ALLOW_LIST = [
  'PATH',
  'HOME',
  'LANG',
  'LC_ALL',
  'TZ',
  'TMPDIR',
  'SYSTEMROOT',
  'TEMP',
];
const MAX_STDERR_LINE = 8 * 1024;

export interface StdioServerOptions {
  /** Resolved executable: a bare name found on PATH, or an absolute path inside the package. */
  command: string;
  args: readonly string[];
  cwd: string;
  /** Names of the variables passed on, beside DEFAULT_ENV_ALLOW_LIST. */
  envAllowList?: readonly string[];
  /** The environment the names are read from (the companion's own, by default). */
  sourceEnv?: NodeJS.ProcessEnv;
  maxMessageBytes?: number;
  /** Each stderr line, cut to 8 KiB; never mixed into the protocol. */
  onStderr?: (line: string) => void;
}

/** Only allow-listed names, never a key that looks like the host's secrets. */
export function childEnvironment(
  source: NodeJS.ProcessEnv,
  allowList: readonly string[] = [],
): Record<string, string> {
  const env: Record<string, string> = {};
  for (const name of new Set([...DEFAULT_ENV_ALLOW_LIST, ...allowList])) {
    const value = source[name];
    if (value !== undefined) env[name] = value;
  }
  return env;
}

/**
 * Reads lines of at most `maxBytes` bytes: a line is refused as soon as it
 * grows past the limit, before the rest of it is held in memory.
 */
export class BoundedLineReader {
  #chunks: Buffer[] = [];
  #length = 0;
  #failed = false;

  constructor(
    private readonly maxBytes: number,
    private readonly onLine: (line: string) => void,
    private readonly onOverflow: () => void,
  ) {}

  push(data: Buffer): void {
    let rest = data;
    while (!this.#failed && rest.length > 0) {
      const newline = rest.indexOf(0x0a);
      const piece = newline === -1 ? rest : rest.subarray(0, newline);
      if (this.#length + piece.length > this.maxBytes) {
        this.#failed = true;
        this.#chunks = [];
        this.onOverflow();
        return;
      }
      this.#chunks.push(piece);
      this.#length += piece.length;
      if (newline === -1) return;
      const line = Buffer.concat(this.#chunks, this.#length).toString('utf8').replace(/\r$/, '');
      this.#chunks = [];
      this.#length = 0;
      rest = rest.subarray(newline + 1);
      if (line.trim().length > 0) this.onLine(line);
    }
  }
}

/**
 * An MCP stdio server as an SDK Transport: started from an argument array
 * without a shell, an allow-listed environment, UTF-8 single-line JSON-RPC
 * read with a bound, stderr kept apart. A broken line or an oversized
 * message is a TransportFault (the host goes unhealthy) and the process is
 * killed; its exit closes the transport.
 */
export class BoundedStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: <T extends JSONRPCMessage>(message: T) => void;
  readonly #options: StdioServerOptions;
  #child: ChildProcess | undefined;
  #closed = false;

  constructor(options: StdioServerOptions) {
    this.#options = options;
  }

  get pid(): number | undefined {
    return this.#child?.pid;
  }

  start(): Promise<void> {
    if (this.#child) throw new Error('already started');
    const options = this.#options;
    const maxBytes = options.maxMessageBytes ?? MCP_MAX_MESSAGE_BYTES;
    return new Promise((resolve, reject) => {
      const child = spawn(options.command, [...options.args], {
        cwd: options.cwd,
        env: childEnvironment(options.sourceEnv ?? process.env, options.envAllowList),
        shell: false,
        stdio: ['pipe', 'pipe', 'pipe'],
        windowsHide: true,
      });
      this.#child = child;
      const fault = (error: TransportFault) => {
        this.onerror?.(error);
        child.kill('SIGKILL');
      };
      const reader = new BoundedLineReader(
        maxBytes,
        (line) => {
          let message: unknown;
          try {
            message = parseMessageText(line, maxBytes);
          } catch (error) {
            fault(
              error instanceof TransportFault ? error : new TransportFault('invalid_message', 'bad line'),
            );
            return;
          }
          this.onmessage?.(message as JSONRPCMessage);
        },
        () => fault(new TransportFault('message_too_large', `a message is larger than ${maxBytes} bytes`)),
      );
      child.stdout.on('data', (data: Buffer) => reader.push(data));
      const stderr = new BoundedLineReader(
        Number.MAX_SAFE_INTEGER,
        (line) => options.onStderr?.(line.slice(0, MAX_STDERR_LINE)),
        () => {},
      );
      child.stderr.on('data', (data: Buffer) => stderr.push(data));
      child.stdin.on('error', () => {}); // EPIPE after a crash; the exit reports it.
      child.once('spawn', () => resolve());
      child.once('error', (error) => {
        if (child.pid === undefined) reject(new TransportFault('start_failed', error.message));
      });
      child.once('close', () => this.#finish());
    });
  }

  send(message: JSONRPCMessage): Promise<void> {
    const stdin = this.#child?.stdin;
    if (!stdin || this.#closed || !stdin.writable) {
      return Promise.reject(new TransportFault('exited', 'the server is not running'));
    }
    return new Promise((resolve, reject) => {
      stdin.write(`${JSON.stringify(message)}\n`, (error) => (error ? reject(error) : resolve()));
    });
  }

  async close(): Promise<void> {
    const child = this.#child;
    if (!child || this.#closed) return;
    const exited = new Promise<void>((resolve) => child.once('close', () => resolve()));
    child.stdin?.end();
    child.kill('SIGTERM');
    // A server that ignores SIGTERM is killed; the timer must not keep the companion alive.
    const force = setTimeout(() => child.kill('SIGKILL'), 2_000);
    force.unref();
    await exited;
    clearTimeout(force);
  }

  #finish(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.onclose?.();
  }
}
