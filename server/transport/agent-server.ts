import { readFileSync } from 'node:fs';
import { createServer as createHttpServer, type IncomingMessage, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import type { AgentServerConfig } from '../config';
import type { ModelRegistry } from '../models/model-registry';
import { silentLogger, type Logger } from '../ops/logger';
import { AgentMetrics, type MetricsSnapshot } from '../ops/metrics';
import { TaskQueue } from '../tasks/task-queue';
import { AgentConnection } from './agent-connection';
import { ApiKeyVerifier, ConnectionsPerKey, chooseSubprotocol, presentedApiKey } from './api-keys';
import { CloseCode } from './close-codes';
import { createHttpHandler } from './http-routes';

// The agent service: an HTTP(S) server for the page, health and metrics, with
// the WebSocket endpoint /ws attached through `upgrade` (ws in noServer mode).

export const AGENT_VERSION = 'notes-agent-server/0.1.0';
/** Frames over maxFrameBytes get an error reply; only frames over this multiple close the socket. */
export const HARD_FRAME_LIMIT_FACTOR = 4;
const CLOSE_WAIT_MS = 2000;

export interface AgentServerOptions {
  config: AgentServerConfig;
  registry: ModelRegistry;
  logger?: Logger;
}

export class AgentServer {
  readonly #config: AgentServerConfig;
  readonly #registry: ModelRegistry;
  readonly #logger: Logger;
  readonly #http: Server;
  readonly #wss: WebSocketServer;
  readonly #keys: ApiKeyVerifier;
  readonly #perKey: ConnectionsPerKey;
  readonly #queue: TaskQueue;
  readonly #connections = new Map<WebSocket, AgentConnection>();
  readonly #alive = new WeakSet<WebSocket>();
  readonly metrics = new AgentMetrics();
  #nextConnection = 0;
  #heartbeat?: ReturnType<typeof setInterval>;
  #closing?: Promise<void>;
  readonly #startedAt = Date.now();

  constructor(options: AgentServerOptions) {
    this.#config = options.config;
    this.#registry = options.registry;
    this.#logger = options.logger ?? silentLogger;
    this.#keys = new ApiKeyVerifier(options.config.apiKeys);
    this.#perKey = new ConnectionsPerKey(options.config.maxConnectionsPerKey);
    this.#queue = new TaskQueue({
      maxQueued: options.config.queue.maxLength,
      concurrency: options.config.queue.concurrency,
      onEvent: (event) => {
        if (event.type === 'started') return this.metrics.queueWait.add(event.waitMs);
        if (event.outcome === 'completed') {
          this.metrics.served++;
          this.metrics.latency.add(event.totalMs);
        } else if (event.outcome === 'failed') this.metrics.failed++;
        else this.metrics.cancelled++;
      },
    });
    const handler = createHttpHandler({
      health: () => ({
        status: this.#closing ? 'shutting_down' : 'ok',
        uptime_s: Math.round((Date.now() - this.#startedAt) / 1000),
        version: AGENT_VERSION,
      }),
      metrics: () => {
        const memory = process.memoryUsage();
        return { ...this.snapshot(), memory: { rss_bytes: memory.rss, heap_used_bytes: memory.heapUsed } };
      },
    });
    const tls = options.config.tls;
    this.#http = tls
      ? createHttpsServer({ cert: readFileSync(tls.certPath), key: readFileSync(tls.keyPath) }, handler)
      : createHttpServer(handler);
    this.#wss = new WebSocketServer({
      noServer: true,
      maxPayload: options.config.maxFrameBytes * HARD_FRAME_LIMIT_FACTOR,
      perMessageDeflate: false,
      handleProtocols: (offered) => chooseSubprotocol(offered),
    });
    this.#http.on('upgrade', (request, socket, head) => this.#upgrade(request, socket, head));
    this.#http.on('clientError', (_error, socket) => socket.destroy());
  }

  get port(): number {
    return (this.#http.address() as AddressInfo | null)?.port ?? 0;
  }

  snapshot(): MetricsSnapshot {
    return this.metrics.snapshot({
      connections: this.#connections.size,
      queueLength: this.#queue.queued,
      running: this.#queue.running,
    });
  }

  async listen(): Promise<AddressInfo> {
    await new Promise<void>((resolve, reject) => {
      this.#http.once('error', reject);
      this.#http.listen(this.#config.port, this.#config.host, () => {
        this.#http.off('error', reject);
        resolve();
      });
    });
    this.#heartbeat = setInterval(() => this.#checkAlive(), this.#config.pingIntervalMs);
    this.#heartbeat.unref();
    const address = this.#http.address() as AddressInfo;
    this.#logger.info('server_listening', {
      host: address.address,
      port: address.port,
      tls: Boolean(this.#config.tls),
      api_keys: this.#keys.size,
      queue_length: this.#config.queue.maxLength,
      concurrency: this.#config.queue.concurrency,
    });
    return address;
  }

  #upgrade(request: IncomingMessage, socket: Duplex, head: Buffer): void {
    socket.on('error', () => socket.destroy());
    const path = new URL(request.url ?? '/', 'http://agent.invalid').pathname;
    if (path !== '/ws' || this.#closing) {
      const status = this.#closing ? '503 Service Unavailable' : '404 Not Found';
      socket.end(`HTTP/1.1 ${status}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
      return;
    }
    this.#wss.handleUpgrade(request, socket, head, (ws) => this.#accept(ws, request));
  }

  /** Auth after the handshake, so the plugin gets a close code and a reason instead of a bare HTTP error. */
  #accept(ws: WebSocket, request: IncomingMessage): void {
    ws.on('error', (error) => this.#logger.debug('socket_error', { error: error.message }));
    const key = this.#keys.verify(presentedApiKey(request));
    if (!key) {
      this.#logger.warn('auth_refused', { remote: request.socket.remoteAddress });
      ws.close(CloseCode.UNAUTHORIZED, 'invalid or missing X-Api-Key');
      return;
    }
    if (!this.#perKey.tryAcquire(key.sha256)) {
      this.#logger.warn('connection_limit', { key: key.name, limit: this.#perKey.limit });
      ws.close(
        CloseCode.TOO_MANY_CONNECTIONS,
        `too many connections for this key (max ${this.#perKey.limit})`,
      );
      return;
    }
    const connection = new AgentConnection(`c${++this.#nextConnection}`, key.name, ws, {
      queue: this.#queue,
      registry: this.#registry,
      metrics: this.metrics,
      logger: this.#logger,
      config: this.#config,
      agentVersion: AGENT_VERSION,
    });
    this.#connections.set(ws, connection);
    this.#alive.add(ws);
    this.#logger.info('connection_opened', { connection: connection.id, key: key.name });
    ws.on('pong', () => this.#alive.add(ws));
    ws.on('message', (data) => connection.handleMessage(data));
    ws.on('close', (code) => {
      this.#connections.delete(ws);
      this.#perKey.release(key.sha256);
      connection.handleClose();
      this.#logger.info('connection_closed', { connection: connection.id, key: key.name, code });
    });
  }

  /** Half-open TCP connections would hold a key's slot forever; unanswered pings end them. */
  #checkAlive(): void {
    for (const ws of this.#connections.keys()) {
      if (!this.#alive.has(ws)) {
        ws.terminate();
        continue;
      }
      this.#alive.delete(ws);
      ws.ping();
    }
  }

  /**
   * Graceful stop: refuse new connections and tasks, cancel queued tasks, let
   * running ones finish for shutdownTimeoutMs, then abort them and close.
   */
  close(): Promise<void> {
    this.#closing ??= this.#shutdown();
    return this.#closing;
  }

  async #shutdown(): Promise<void> {
    this.#logger.info('shutdown_started', { queued: this.#queue.queued, running: this.#queue.running });
    const httpClosed = new Promise<void>((resolve) => this.#http.close(() => resolve()));
    this.#http.closeIdleConnections();
    const stopped = await this.#queue.shutdown(this.#config.shutdownTimeoutMs);
    clearInterval(this.#heartbeat);
    const sockets = [...this.#connections.keys()];
    await Promise.all(
      sockets.map(
        (ws) =>
          new Promise<void>((resolve) => {
            if (ws.readyState === ws.CLOSED) return resolve();
            const timer = setTimeout(() => {
              ws.terminate();
              resolve();
            }, CLOSE_WAIT_MS);
            ws.once('close', () => {
              clearTimeout(timer);
              resolve();
            });
            ws.close(CloseCode.GOING_AWAY, 'server shutting down');
          }),
      ),
    );
    this.#wss.close();
    this.#http.closeAllConnections();
    await httpClosed;
    this.#logger.info('shutdown_finished', {
      cancelled_queued: stopped.cancelledQueued,
      aborted_running: stopped.abortedRunning,
    });
  }
}
