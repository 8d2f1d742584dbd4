import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { createServer as createHttpServer, type IncomingMessage, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import { queueCapacity, type AgentServerConfig } from '../config';
import type { ModelRegistry } from '../models/model-registry';
import { silentLogger, type Logger } from '../ops/logger';
import { AgentMetrics, type MetricsSnapshot } from '../ops/metrics';
import { RedisExecPool } from '../cluster/redis-exec-pool';
import type { ApiKeyEntry } from '../config';
import type { ExecPool } from '../tasks/exec-pool';
import { LocalExecPool } from '../tasks/local-exec-pool';
import { AgentConnection } from './agent-connection';
import {
  ApiKeyVerifier,
  ConnectionsPerKey,
  chooseSubprotocol,
  presentedApiKey,
  wantsIdeCallbacks,
} from './api-keys';
import { AuthThrottle, bearerKeyMatches, isLoopbackAddress, originAllowed } from './access-control';
import { CloseCode } from './close-codes';
import { TrustedProxies } from './trusted-proxies';
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
  /** Wall clock for the failed-key windows (tests inject one). */
  now?: () => number;
}

export class AgentServer {
  readonly #config: AgentServerConfig;
  readonly #registry: ModelRegistry;
  readonly #logger: Logger;
  readonly #http: Server;
  readonly #wss: WebSocketServer;
  readonly #keys: ApiKeyVerifier;
  readonly #perKey: ConnectionsPerKey;
  readonly #throttle: AuthThrottle;
  readonly #proxies: TrustedProxies;
  readonly #pool: ExecPool;
  /** Set when AGENT_SERVER_REDIS_URL (config `redis`) is: the pool shared with other instances. */
  readonly #cluster?: RedisExecPool;
  /** Names this process in Redis, logs and /metrics. */
  readonly instanceId = `${hostname()}-${process.pid}-${randomBytes(3).toString('hex')}`;
  readonly #connections = new Map<WebSocket, AgentConnection>();
  readonly #alive = new WeakSet<WebSocket>();
  readonly metrics = new AgentMetrics();
  #nextConnection = 0;
  #heartbeat?: ReturnType<typeof setInterval>;
  #closing?: Promise<void>;
  /** Set first thing on close(): from then on /health says 503 and upgrades are refused. */
  #stopping = false;
  readonly #startedAt = Date.now();

  constructor(options: AgentServerOptions) {
    this.#config = options.config;
    this.#registry = options.registry;
    this.#logger = options.logger ?? silentLogger;
    this.#keys = new ApiKeyVerifier(options.config.apiKeys);
    this.#perKey = new ConnectionsPerKey(options.config.maxConnectionsPerKey);
    this.#throttle = new AuthThrottle({ ...options.config.authThrottle, now: options.now });
    this.#proxies = new TrustedProxies(options.config.trustedProxies);
    const redis = options.config.redis;
    if (redis) {
      this.#cluster = new RedisExecPool({
        ...redis,
        concurrency: options.config.queue.concurrency,
        maxQueued: queueCapacity(options.config),
        maxConnectionsPerKey: options.config.maxConnectionsPerKey,
        registry: options.registry,
        metrics: this.metrics,
        logger: this.#logger,
        callbackTimeoutMs: options.config.callbackTimeoutMs,
        taskTimeoutMs: options.config.taskTimeoutMs,
        agentVersion: AGENT_VERSION,
        instanceId: this.instanceId,
      });
    }
    this.#pool =
      this.#cluster ??
      new LocalExecPool({
        registry: options.registry,
        metrics: this.metrics,
        logger: this.#logger,
        maxQueued: queueCapacity(options.config),
        concurrency: options.config.queue.concurrency,
        taskTimeoutMs: options.config.taskTimeoutMs,
        agentVersion: AGENT_VERSION,
      });
    const handler = createHttpHandler({
      health: () => ({
        status: this.#stopping
          ? 'shutting_down'
          : this.#cluster && !this.#cluster.connected
            ? 'redis_unavailable'
            : 'ok',
        ...(this.#cluster && { redis: this.#cluster.connected ? 'connected' : 'disconnected' }),
        uptime_s: Math.round((Date.now() - this.#startedAt) / 1000),
        version: AGENT_VERSION,
      }),
      metricsAllowed: (request) =>
        (this.#config.metrics.allowLoopback && isLoopbackAddress(this.#clientAddress(request))) ||
        bearerKeyMatches(request.headers.authorization, this.#config.metrics.keySha256),
      metrics: () => {
        const memory = process.memoryUsage();
        return {
          ...this.snapshot(),
          memory: { rss_bytes: memory.rss, heap_used_bytes: memory.heapUsed },
          ...(this.#cluster && {
            instance: this.instanceId,
            redis: this.#cluster.connected ? 'connected' : 'disconnected',
            // Every instance's tasks, as of this instance's last heartbeat.
            queue_wide: this.#cluster.queueWide(),
          }),
        };
      },
    });
    const tls = options.config.tls;
    // A client that opens a connection and never finishes its request would hold
    // a socket (and, before auth, nothing tells it apart from a slow plugin).
    const handshake = options.config.handshakeTimeoutMs;
    const timeouts = {
      headersTimeout: handshake,
      requestTimeout: Math.max(handshake, 300_000),
      connectionsCheckingInterval: Math.max(25, Math.min(1000, Math.floor(handshake / 4))),
    };
    this.#http = tls
      ? createHttpsServer(
          {
            ...timeouts,
            handshakeTimeout: handshake,
            cert: readFileSync(tls.certPath),
            key: readFileSync(tls.keyPath),
          },
          handler,
        )
      : createHttpServer(timeouts, handler);
    this.#wss = new WebSocketServer({
      noServer: true,
      maxPayload: options.config.maxFrameBytes * HARD_FRAME_LIMIT_FACTOR,
      perMessageDeflate: false,
      handleProtocols: (offered) => chooseSubprotocol(offered),
    });
    this.#http.on('upgrade', (request, socket, head) => this.#upgrade(request, socket, head));
    this.#http.on('clientError', (_error, socket) => socket.destroy());
  }

  /** Resolves when the shared queue is reachable (at once without Redis). */
  async whenRedisConnected(): Promise<void> {
    await this.#cluster?.whenConnected();
  }

  get port(): number {
    return (this.#http.address() as AddressInfo | null)?.port ?? 0;
  }

  snapshot(): MetricsSnapshot {
    const stats = this.#pool.stats();
    return this.metrics.snapshot({
      connections: this.#connections.size,
      queueLength: stats.queued,
      running: stats.running,
    });
  }

  async listen(): Promise<AddressInfo> {
    await this.#cluster?.start();
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
      queue_length: queueCapacity(this.#config),
      concurrency: this.#config.queue.concurrency,
    });
    return address;
  }

  #upgrade(request: IncomingMessage, socket: Duplex, head: Buffer): void {
    socket.on('error', () => socket.destroy());
    const path = new URL(request.url ?? '/', 'http://agent.invalid').pathname;
    if (path !== '/ws' || this.#stopping) {
      const status = this.#stopping ? '503 Service Unavailable' : '404 Not Found';
      socket.end(`HTTP/1.1 ${status}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
      return;
    }
    const address = this.#clientAddress(request);
    const retryAfterMs = this.#throttle.retryAfterMs(address);
    if (retryAfterMs > 0) {
      // Even the right key waits: letting it through would let the blocked
      // address go on trying keys, the one thing the block is there to stop.
      const seconds = Math.ceil(retryAfterMs / 1000);
      const body = `too many wrong API keys from this address; retry after ${seconds} s\n`;
      this.#logger.warn('auth_throttled', { remote: address, retry_after_s: seconds });
      socket.end(
        'HTTP/1.1 429 Too Many Requests\r\nConnection: close\r\n' +
          `Retry-After: ${seconds}\r\nContent-Type: text/plain; charset=utf-8\r\n` +
          `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
      );
      return;
    }
    const policy = {
      allowed: this.#config.allowedOrigins,
      tls: Boolean(this.#config.tls),
      serverHost: this.#config.host,
    };
    if (!originAllowed(request.headers.origin, request.headers.host, policy)) {
      this.#logger.warn('origin_refused', { remote: address, origin: request.headers.origin?.slice(0, 200) });
      socket.end('HTTP/1.1 403 Forbidden\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    this.#wss.handleUpgrade(request, socket, head, (ws) => this.#accept(ws, request));
  }

  /** The socket's peer, or behind a trusted proxy the client X-Forwarded-For names. */
  #clientAddress(request: IncomingMessage): string {
    return this.#proxies.clientAddress(request.socket.remoteAddress, request.headers['x-forwarded-for']);
  }

  /** Auth after the handshake, so the plugin gets a close code and a reason instead of a bare HTTP error. */
  #accept(ws: WebSocket, request: IncomingMessage): void {
    ws.on('error', (error) => this.#logger.debug('socket_error', { error: error.message }));
    const key = this.#keys.verify(presentedApiKey(request));
    if (!key) {
      const address = this.#clientAddress(request);
      this.#throttle.recordFailure(address);
      this.#logger.warn('auth_refused', { remote: address });
      ws.close(CloseCode.UNAUTHORIZED, 'invalid or missing X-Api-Key');
      return;
    }
    const connectionId = `c${++this.#nextConnection}`;
    const refuseTooMany = () => {
      this.#logger.warn('connection_limit', { key: key.name, limit: this.#config.maxConnectionsPerKey });
      ws.close(
        CloseCode.TOO_MANY_CONNECTIONS,
        `too many connections for this key (max ${this.#config.maxConnectionsPerKey})`,
      );
    };
    const cluster = this.#cluster;
    if (!cluster) {
      if (!this.#perKey.tryAcquire(key.sha256)) return refuseTooMany();
      return this.#open(ws, request, key, connectionId, () => this.#perKey.release(key.sha256));
    }
    // The limit is shared with the other instances: ask Redis, and read no frame meanwhile.
    const member = `${this.instanceId}/${connectionId}`;
    ws.pause();
    cluster.slots.acquire(key.sha256, member).then(
      (granted) => {
        // Reading again before anything else: a paused socket never sees the client's close reply.
        if (!granted) {
          ws.resume();
          return refuseTooMany();
        }
        const release = () => cluster.slots.release(key.sha256, member);
        if (ws.readyState !== ws.OPEN) return release();
        this.#open(ws, request, key, connectionId, release);
        ws.resume();
      },
      (error: Error) => {
        ws.resume();
        this.#logger.warn('connection_slot_unavailable', { key: key.name, error: error.message });
        ws.close(CloseCode.TRY_AGAIN_LATER, 'the shared state (Redis) cannot be reached, try again later');
      },
    );
  }

  #open(
    ws: WebSocket,
    request: IncomingMessage,
    key: ApiKeyEntry,
    connectionId: string,
    releaseSlot: () => void,
  ): void {
    const connection = new AgentConnection(connectionId, key.name, ws, {
      pool: this.#pool,
      registry: this.#registry,
      logger: this.#logger,
      config: this.#config,
      ideCallbacks: wantsIdeCallbacks(request),
    });
    this.#connections.set(ws, connection);
    this.#alive.add(ws);
    this.#logger.info('connection_opened', { connection: connection.id, key: key.name });
    ws.on('pong', () => this.#alive.add(ws));
    ws.on('message', (data) => connection.handleMessage(data));
    ws.on('close', (code) => {
      this.#connections.delete(ws);
      releaseSlot();
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
    this.#stopping = true;
    this.#closing ??= this.#shutdown();
    return this.#closing;
  }

  async #shutdown(): Promise<void> {
    this.#logger.info('shutdown_started', { ...this.#pool.stats() });
    // The listener stays open through the grace period, so a load balancer's
    // health check reads 503 (and moves traffic) instead of a refused connection.
    const stopped = await this.#pool.shutdown(this.#config.shutdownTimeoutMs);
    const httpClosed = new Promise<void>((resolve) => this.#http.close(() => resolve()));
    this.#http.closeIdleConnections();
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
    await this.#cluster?.disconnect();
    this.#wss.close();
    this.#http.closeAllConnections();
    await httpClosed;
    this.#logger.info('shutdown_finished', {
      cancelled_queued: stopped.cancelledQueued,
      aborted_running: stopped.abortedRunning,
    });
  }

  /**
   * Stops as a crash would, for the tests of what other instances do: sockets
   * dropped without a close frame, Redis connections cut, nothing released.
   */
  async crash(): Promise<void> {
    this.#stopping = true;
    this.#closing ??= Promise.resolve();
    clearInterval(this.#heartbeat);
    const cut = this.#cluster?.crash();
    for (const ws of this.#connections.keys()) ws.terminate();
    this.#http.close();
    this.#http.closeAllConnections();
    await cut;
  }
}
