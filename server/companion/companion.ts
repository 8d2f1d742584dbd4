import { randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import { existsSync, realpathSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { isAbsolute, join, relative, resolve } from 'node:path';
import { WebSocketServer, type WebSocket } from 'ws';
import { z } from 'zod';
import { MCP_MAX_MESSAGE_BYTES } from '../../src/contracts/plugin-types';
import { BoundedLineReader, childEnvironment } from './stdio-transport';
import { spawn, type ChildProcess } from 'node:child_process';

/**
 * The Node companion: stdio MCP servers for the app, on 127.0.0.1 only. The
 * app pairs once with the one-time code printed at start (and keeps the
 * token in its vault), then opens one WebSocket per plugin server; the
 * companion starts the process from an argument array (never a shell) and
 * relays JSON-RPC lines both ways, bounded, with stderr kept apart.
 */

/** Where the app runs out of the box: `npm start` / `npm run preview` (4173) and `npm run dev` (5173). */
export const DEFAULT_ALLOWED_ORIGINS = [
  'http://127.0.0.1:4173',
  'http://localhost:4173',
  'http://127.0.0.1:5173',
  'http://localhost:5173',
] as const;

const approvedCommandSchema = z
  .object({
    plugin_id: z.string().min(1).max(48),
    command: z.string().min(1).max(200),
    args: z.array(z.string().max(4096)).max(64).default([]),
  })
  .strict();

export const companionConfigSchema = z
  .object({
    /** `development` starts any well-formed command; anything else only approved ones (§7.1). */
    environment: z.string().default('production'),
    /** Where each plugin's package folder lives: `<plugins_dir>/<plugin_id>/`. */
    plugins_dir: z.string().min(1),
    /**
     * Origins of the app allowed to call (CORS and the WebSocket's Origin). By default the
     * app as `npm start` / `npm run preview` serve it and as `npm run dev` does.
     */
    allowed_origins: z.array(z.string()).default(() => [...DEFAULT_ALLOWED_ORIGINS]),
    approved: z.array(approvedCommandSchema).default([]),
    /** Environment variables passed to servers beside the system ones. */
    env_allow_list: z.array(z.string().regex(/^[A-Z_][A-Z0-9_]*$/)).default([]),
    port: z.number().int().min(0).max(65535).default(0),
  })
  .strict();
export type CompanionConfig = z.output<typeof companionConfigSchema>;

const startSchema = z
  .object({
    type: z.literal('start'),
    plugin_id: z
      .string()
      .regex(/^[a-z][a-z0-9-]*[a-z0-9]$/)
      .max(48),
    command: z
      .string()
      .min(1)
      .max(200)
      .refine((value) => !/[\s;&|`$<>(){}'"\\*?]/.test(value), 'one executable, never a shell string'),
    args: z
      .array(
        z
          .string()
          .max(4096)
          .refine((value) => !value.includes('\0')),
      )
      .max(64)
      .default([]),
  })
  .strict();

type ErrorBody = { error: { code: string; message: string; details: Record<string, unknown> } };
const errorBody = (code: string, message: string, details: Record<string, unknown> = {}): ErrorBody => ({
  error: { code, message, details },
});

export interface CompanionOptions {
  config: CompanionConfig;
  /** The companion's environment (allow-listed names are read from it). */
  env?: NodeJS.ProcessEnv;
  /** Where refusals a user can fix are told (the terminal by default). */
  log?: (line: string) => void;
  /** Told each started and ended process (tests, logs). */
  onProcess?: (event: { plugin_id: string; pid: number | undefined; event: 'started' | 'exited' }) => void;
}

export interface Companion {
  readonly port: number;
  readonly pairingCode: string;
  close(): Promise<void>;
}

/** The executable to run: a bare name from PATH, or a path that stays inside the plugin's folder. */
export function resolveExecutable(pluginsDir: string, pluginId: string, command: string): string | null {
  if (!command.includes('/') && !command.includes('\\')) return command;
  if (isAbsolute(command)) return null;
  const root = resolve(pluginsDir, pluginId);
  const target = resolve(root, command);
  try {
    const realRoot = realpathSync(root);
    const realTarget = realpathSync(target);
    const inside = relative(realRoot, realTarget);
    if (inside === '' || inside.startsWith('..') || isAbsolute(inside)) return null;
    return realTarget;
  } catch {
    return null;
  }
}

function sameSecret(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

export async function startCompanion(options: CompanionOptions): Promise<Companion> {
  const { config } = options;
  const env = options.env ?? process.env;
  let pairingCode: string | null = String(randomInt(0, 100_000_000)).padStart(8, '0');
  const printedCode = pairingCode;
  const tokens = new Set<string>();
  const children = new Set<ChildProcess>();

  const log = options.log ?? ((line: string) => console.error(line));
  const toldOrigins = new Set<string>();
  /** The browser hides a CORS refusal from the page: the terminal is the only place that can say it. */
  const refusedOrigin = (origin: string) => {
    if (toldOrigins.has(origin)) return;
    toldOrigins.add(origin);
    log(
      `Refused a request from ${origin}: it is not in allowed_origins. Add it to the "allowed_origins" ` +
        `list of the JSON file COMPANION_CONFIG names, then restart the companion.`,
    );
  };
  const cors = (request: IncomingMessage, response: ServerResponse) => {
    const origin = request.headers.origin;
    if (origin && !config.allowed_origins.includes(origin)) refusedOrigin(origin);
    if (origin && config.allowed_origins.includes(origin)) {
      response.setHeader('Access-Control-Allow-Origin', origin);
      response.setHeader('Vary', 'Origin');
      response.setHeader('Access-Control-Allow-Headers', 'content-type, authorization');
      response.setHeader('Access-Control-Allow-Methods', 'POST, OPTIONS');
    }
  };
  const send = (response: ServerResponse, status: number, body: unknown) => {
    response.writeHead(status, { 'content-type': 'application/json' });
    response.end(JSON.stringify(body));
  };

  /**
   * A page whose origin is refused still gets a refusal it can read at `/pair`, in the
   * companion's own error shape: the app then names the origin to add, and tells the
   * companion apart from another server on the port. Its code is never looked at.
   */
  const refusePairing = (request: IncomingMessage, response: ServerResponse, origin: string) => {
    response.setHeader('Access-Control-Allow-Origin', origin);
    response.setHeader('Vary', 'Origin');
    response.setHeader('Access-Control-Allow-Headers', 'content-type');
    response.setHeader('Access-Control-Allow-Methods', 'POST, OPTIONS');
    if (request.method === 'OPTIONS') return send(response, 204, {});
    request.resume();
    send(
      response,
      403,
      errorBody('PLUGIN_HOST_UNAVAILABLE', `The origin ${origin} is not in allowed_origins.`, {
        reason: 'origin_refused',
        origin,
      }),
    );
  };

  const server: Server = createServer((request, response) => {
    cors(request, response);
    const origin = request.headers.origin;
    if (origin && !config.allowed_origins.includes(origin) && request.url === '/pair') {
      return refusePairing(request, response, origin);
    }
    if (request.method === 'OPTIONS') return send(response, 204, {});
    if (request.method !== 'POST' || request.url !== '/pair') {
      return send(response, 404, errorBody('RESOURCE_NOT_FOUND', 'Not found.'));
    }
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => {
      body += chunk;
      if (body.length > 1024) request.destroy();
    });
    request.on('end', () => {
      let code: unknown;
      try {
        code = (JSON.parse(body) as { code?: unknown }).code;
      } catch {
        code = undefined;
      }
      if (pairingCode === null || typeof code !== 'string' || !sameSecret(code, pairingCode)) {
        return send(response, 401, errorBody('PLUGIN_HOST_UNAVAILABLE', 'The pairing code is not valid.'));
      }
      // One use: a second pairing needs a restart (and a new code).
      pairingCode = null;
      const token = randomBytes(32).toString('base64url');
      tokens.add(token);
      send(response, 200, { token });
    });
  });

  const sockets = new WebSocketServer({ noServer: true, maxPayload: MCP_MAX_MESSAGE_BYTES });
  server.on('upgrade', (request, socket, head) => {
    const origin = request.headers.origin;
    if (origin && !config.allowed_origins.includes(origin)) {
      refusedOrigin(origin);
      socket.end('HTTP/1.1 403 Forbidden\r\n\r\n');
      return;
    }
    const auth = /^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1];
    const protocol = request.headers['sec-websocket-protocol']?.split(',').map((part) => part.trim());
    const token = auth ?? protocol?.find((part) => part.startsWith('token.'))?.slice('token.'.length);
    if (!token || ![...tokens].some((known) => sameSecret(known, token))) {
      socket.end('HTTP/1.1 401 Unauthorized\r\n\r\n');
      return;
    }
    sockets.handleUpgrade(request, socket, head, (ws) => serveHost(ws));
  });

  function refuse(ws: WebSocket, status: number, body: ErrorBody): void {
    ws.send(JSON.stringify({ channel: 'control', kind: 'refused', status, ...body }));
    ws.close(4000 + (status % 1000), body.error.code);
  }

  function serveHost(ws: WebSocket): void {
    let child: ChildProcess | undefined;
    ws.once('message', (data) => {
      const parsed = startSchema.safeParse(
        (() => {
          try {
            return JSON.parse(String(data));
          } catch {
            return null;
          }
        })(),
      );
      if (!parsed.success) {
        return refuse(ws, 400, errorBody('PLUGIN_HOST_START_FAILED', 'The start request is not valid.'));
      }
      const request = parsed.data;
      const approved = config.approved.some(
        (entry) =>
          entry.plugin_id === request.plugin_id &&
          entry.command === request.command &&
          JSON.stringify(entry.args) === JSON.stringify(request.args),
      );
      if (config.environment !== 'development' && !approved) {
        return refuse(
          ws,
          403,
          errorBody(
            'MCP_TRUST_APPROVAL_REQUIRED',
            'Approve this command in the companion configuration first.',
            {
              plugin_id: request.plugin_id,
            },
          ),
        );
      }
      const executable = resolveExecutable(config.plugins_dir, request.plugin_id, request.command);
      if (executable === null) {
        return refuse(
          ws,
          422,
          errorBody('PLUGIN_HOST_START_FAILED', 'The executable must be inside the plugin package.', {
            plugin_id: request.plugin_id,
          }),
        );
      }
      const spawned = spawn(executable, request.args, {
        // A server named from PATH may have no package folder here.
        cwd: existsSync(join(config.plugins_dir, request.plugin_id))
          ? join(config.plugins_dir, request.plugin_id)
          : config.plugins_dir,
        env: childEnvironment(env, config.env_allow_list),
        shell: false,
        stdio: ['pipe', 'pipe', 'pipe'],
        windowsHide: true,
      });
      child = spawned;
      children.add(spawned);
      spawned.once('error', () => {
        refuse(ws, 502, errorBody('PLUGIN_HOST_START_FAILED', 'The server could not be started.'));
      });
      spawned.once('spawn', () => {
        options.onProcess?.({ plugin_id: request.plugin_id, pid: spawned.pid, event: 'started' });
        ws.send(JSON.stringify({ channel: 'control', kind: 'started' }));
      });
      const stdout = new BoundedLineReader(
        MCP_MAX_MESSAGE_BYTES,
        (line) => ws.send(JSON.stringify({ channel: 'mcp', text: line })),
        () => {
          ws.send(JSON.stringify({ channel: 'control', kind: 'fault', reason: 'message_too_large' }));
          spawned.kill('SIGKILL');
        },
      );
      spawned.stdout.on('data', (chunk: Buffer) => stdout.push(chunk));
      const stderr = new BoundedLineReader(
        Number.MAX_SAFE_INTEGER,
        (line) => ws.send(JSON.stringify({ channel: 'stderr', text: line.slice(0, 8192) })),
        () => {},
      );
      spawned.stderr.on('data', (chunk: Buffer) => stderr.push(chunk));
      spawned.stdin.on('error', () => {});
      spawned.once('close', () => {
        children.delete(spawned);
        options.onProcess?.({ plugin_id: request.plugin_id, pid: spawned.pid, event: 'exited' });
        ws.close(1000, 'exited');
      });
      ws.on('message', (message) => {
        const wire = (() => {
          try {
            return JSON.parse(String(message)) as { channel?: unknown; text?: unknown };
          } catch {
            return null;
          }
        })();
        if (wire?.channel === 'mcp' && typeof wire.text === 'string' && !wire.text.includes('\n')) {
          spawned.stdin.write(`${wire.text}\n`);
        }
      });
    });
    // The app went away: the process goes too (deregistration on exit).
    ws.once('close', () => {
      if (child && child.exitCode === null) child.kill('SIGTERM');
    });
  }

  await new Promise<void>((resolveListen) => server.listen(config.port, '127.0.0.1', () => resolveListen()));
  return {
    port: (server.address() as AddressInfo).port,
    pairingCode: printedCode,
    async close() {
      for (const child of children) child.kill('SIGKILL');
      for (const client of sockets.clients) client.terminate();
      sockets.close();
      await new Promise<void>((resolveClose) => server.close(() => resolveClose()));
    },
  };
}
