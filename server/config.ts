import { createHash } from 'node:crypto';
import { z } from 'zod';
import { parseProxyEntry } from './transport/trusted-proxies';

// Configuration: a JSON file (path in AGENT_SERVER_CONFIG), then environment
// overrides. Pure: the caller passes the environment and a file reader, so the
// rules are tested without touching the process.

const SHA256_HEX = /^[0-9a-f]{64}$/;

/** Plain keys never sit in a file: the file holds SHA-256 hashes, plain keys come from the environment. */
export function hashApiKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

const apiKeyEntrySchema = z
  .object({
    /** Appears in logs instead of the key. */
    name: z.string().min(1).max(100),
    sha256: z.string().toLowerCase().regex(SHA256_HEX, 'sha256 must be 64 hex digits'),
  })
  .strict();
export type ApiKeyEntry = z.infer<typeof apiKeyEntrySchema>;

const modelNames = z.array(z.string().trim().min(1)).default([]);

const localProviderSchema = z
  .object({
    type: z.literal('ollama'),
    baseUrl: z.url().default('http://127.0.0.1:11434'),
    /** Listed even when Ollama cannot be asked for its models. */
    models: modelNames,
  })
  .strict();

const remoteProviderSchema = z.discriminatedUnion('type', [
  z
    .object({
      type: z.literal('openai-compatible'),
      preset: z.enum(['deepseek', 'openai', 'agnes-ai']),
      baseUrl: z.url().optional(),
      /** The name of the environment variable holding the provider's key, never the key. */
      apiKeyEnv: z.string().min(1).optional(),
      models: z.array(z.string().trim().min(1)).min(1),
    })
    .strict(),
  z
    .object({
      type: z.literal('mock'),
      /** A fixed wait before the answer, for demos and the load test. */
      delayMs: z.number().int().nonnegative().default(0),
      /** A built-in mock scenario name; `text` by default. */
      scenario: z.string().min(1).optional(),
    })
    .strict(),
]);
export type RemoteProviderConfig = z.infer<typeof remoteProviderSchema>;

const positiveInt = z.number().int().positive();

export const agentServerConfigSchema = z
  .object({
    host: z.string().min(1).default('127.0.0.1'),
    port: z.number().int().min(0).max(65_535).default(8765),
    tls: z
      .object({ certPath: z.string().min(1), keyPath: z.string().min(1) })
      .strict()
      .optional(),
    apiKeys: z.array(apiKeyEntrySchema).default([]),
    providers: z
      .object({
        /** `local <name>` models; null turns the local engine off. */
        local: localProviderSchema
          .nullable()
          .default({ type: 'ollama', baseUrl: 'http://127.0.0.1:11434', models: [] }),
        remote: z.array(remoteProviderSchema).default([]),
      })
      .strict()
      .default({ local: { type: 'ollama', baseUrl: 'http://127.0.0.1:11434', models: [] }, remote: [] }),
    /** For commands that name no model (§2.7 `exec_unittest_code` has no `model` field). */
    defaultModel: z.string().min(1).optional(),
    queue: z
      .object({
        /** Waiting tasks; unset: one per connection the keys may open (see queueCapacity). */
        maxLength: positiveInt.optional(),
        /** Tasks this instance runs at once. */
        concurrency: positiveInt.default(8),
      })
      .strict()
      .default({ concurrency: 8 }),
    /** Bigger frames get a `frame_too_large` reply; frames over 4× this close the socket (1009). */
    maxFrameBytes: positiveInt.default(1024 * 1024),
    maxConnectionsPerKey: positiveInt.default(5),
    callbackTimeoutMs: positiveInt.default(5000),
    taskTimeoutMs: positiveInt.default(300_000),
    shutdownTimeoutMs: z.number().int().nonnegative().default(10_000),
    /**
     * Browser pages allowed to open a socket (exact origins, or "*"). Clients that
     * send no Origin (IDE plugins) are not affected; the server's own test page is
     * always allowed when reached by IP address, localhost or the configured host.
     */
    allowedOrigins: z.array(z.string().min(1)).default([]),
    /**
     * Load balancers / reverse proxies in front of the server (IP addresses or
     * CIDR ranges). Empty (the default): X-Forwarded-For is never read and the
     * socket's peer is the client. See server/README.md "Behind a load balancer".
     */
    trustedProxies: z
      .array(z.string().refine((entry) => parseProxyEntry(entry) !== null, 'an IP address or CIDR range'))
      .default([]),
    /** Failed key attempts one client address may make per window before its upgrades get 429. */
    authThrottle: z
      .object({ maxFailures: positiveInt.default(10), windowMs: positiveInt.default(60_000) })
      .strict()
      .default({ maxFailures: 10, windowMs: 60_000 }),
    /** GET /metrics: from loopback addresses, and/or with this key (Authorization: Bearer …). */
    metrics: z
      .object({
        allowLoopback: z.boolean().default(true),
        keySha256: z.string().toLowerCase().regex(SHA256_HEX, 'keySha256 must be 64 hex digits').optional(),
      })
      .strict()
      .default({ allowLoopback: true }),
    /**
     * Several instances behind a load balancer: one shared FIFO queue per
     * backend, per-key connection limits and task streams go through Redis.
     * Unset: one process, everything in memory.
     */
    redis: z
      .object({
        url: z.string().regex(/^rediss?:\/\//, 'redis.url must start with redis:// or rediss://'),
        /** Key prefix, so several deployments can share one Redis. */
        prefix: z
          .string()
          .regex(/^[a-z0-9-]+$/)
          .default('notes-agent'),
        /** How often an instance says it is alive; silent for 3× this, its connection slots free up. */
        heartbeatMs: positiveInt.default(2000),
        /** A running task's lock: when its instance dies, the task fails with worker_lost after about this. */
        lockMs: positiveInt.default(15_000),
        /** Tasks running at once across all instances, per backend (`local`, `remote-<provider>`). */
        backendConcurrency: z.record(z.string(), positiveInt).default({}),
      })
      .strict()
      .optional(),
    /** A connection must finish its HTTP (and TLS) handshake within this, or it is closed. */
    handshakeTimeoutMs: positiveInt.default(10_000),
    pingIntervalMs: positiveInt.default(30_000),
    logLevel: z.enum(['debug', 'info', 'warn', 'error', 'silent']).default('info'),
  })
  .strict();
export type AgentServerConfig = z.infer<typeof agentServerConfigSchema>;
export type AgentServerConfigInput = z.input<typeof agentServerConfigSchema>;

export interface LoadConfigOptions {
  env: Record<string, string | undefined>;
  readFile: (path: string) => string;
}

function integerFromEnv(env: LoadConfigOptions['env'], name: string): number | undefined {
  const raw = env[name]?.trim();
  if (!raw) return undefined;
  if (!/^\d+$/.test(raw)) throw new Error(`${name} must be a non-negative integer`);
  return Number(raw);
}

/** Merges file and environment, then validates; throws with a readable message on bad input. */
export function loadConfig({ env, readFile }: LoadConfigOptions): AgentServerConfig {
  const path = env.AGENT_SERVER_CONFIG?.trim();
  let file: Record<string, unknown> = {};
  if (path) {
    try {
      file = JSON.parse(readFile(path)) as Record<string, unknown>;
    } catch (error) {
      throw new Error(`Cannot read the config file ${path}: ${(error as Error).message}`, { cause: error });
    }
  }
  const input = structuredClone(file) as AgentServerConfigInput & Record<string, unknown>;

  if (env.AGENT_SERVER_HOST?.trim()) input.host = env.AGENT_SERVER_HOST.trim();
  const port = integerFromEnv(env, 'AGENT_SERVER_PORT');
  if (port !== undefined) input.port = port;
  const cert = env.AGENT_SERVER_TLS_CERT?.trim();
  const key = env.AGENT_SERVER_TLS_KEY?.trim();
  if (cert || key) {
    if (!cert || !key) throw new Error('AGENT_SERVER_TLS_CERT and AGENT_SERVER_TLS_KEY go together');
    input.tls = { certPath: cert, keyPath: key };
  }
  const plainKeys = (env.AGENT_SERVER_API_KEYS ?? '')
    .split(',')
    .map((k) => k.trim())
    .filter(Boolean);
  input.apiKeys = [
    ...(input.apiKeys ?? []),
    ...plainKeys.map((plain, index) => ({ name: `env-${index + 1}`, sha256: hashApiKey(plain) })),
  ];
  const queueLength = integerFromEnv(env, 'AGENT_SERVER_QUEUE_LENGTH');
  const concurrency = integerFromEnv(env, 'AGENT_SERVER_CONCURRENCY');
  if (queueLength !== undefined || concurrency !== undefined) {
    input.queue = {
      ...input.queue,
      ...(queueLength !== undefined && { maxLength: queueLength }),
      ...(concurrency !== undefined && { concurrency }),
    };
  }
  const frame = integerFromEnv(env, 'AGENT_SERVER_MAX_FRAME_BYTES');
  if (frame !== undefined) input.maxFrameBytes = frame;
  const callback = integerFromEnv(env, 'AGENT_SERVER_CALLBACK_TIMEOUT_MS');
  if (callback !== undefined) input.callbackTimeoutMs = callback;
  const ollama = env.AGENT_SERVER_OLLAMA_URL?.trim();
  if (ollama) {
    input.providers = {
      ...input.providers,
      local: { type: 'ollama', models: [], ...input.providers?.local, baseUrl: ollama },
    };
  }
  if (env.AGENT_SERVER_MOCK === '1') {
    const remote = input.providers?.remote ?? [];
    if (!remote.some((provider) => provider.type === 'mock')) {
      input.providers = { ...input.providers, remote: [...remote, { type: 'mock' }] };
    }
  }
  const redisUrl = env.AGENT_SERVER_REDIS_URL?.trim();
  if (redisUrl) input.redis = { ...input.redis, url: redisUrl };
  const origins = env.AGENT_SERVER_ALLOWED_ORIGINS?.trim();
  if (origins) {
    input.allowedOrigins = origins
      .split(',')
      .map((origin) => origin.trim())
      .filter(Boolean);
  }
  const proxies = env.AGENT_SERVER_TRUSTED_PROXIES?.trim();
  if (proxies) {
    input.trustedProxies = proxies
      .split(',')
      .map((entry) => entry.trim())
      .filter(Boolean);
  }
  const metricsKey = env.AGENT_SERVER_METRICS_KEY?.trim();
  if (metricsKey) input.metrics = { ...input.metrics, keySha256: hashApiKey(metricsKey) };
  const level = env.AGENT_SERVER_LOG_LEVEL?.trim();
  if (level) input.logLevel = level as AgentServerConfig['logLevel'];

  const parsed = agentServerConfigSchema.safeParse(input);
  if (!parsed.success) {
    const problems = parsed.error.issues.map(
      (issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`,
    );
    throw new Error(`Invalid agent server config: ${problems.join('; ')}`);
  }
  return parsed.data;
}

/**
 * Each connection holds at most one task, so a queue as long as the connections
 * the keys may open never refuses a task; a shorter configured one trades
 * refusals for shorter waits.
 */
export function queueCapacity(
  config: Pick<AgentServerConfig, 'queue' | 'apiKeys' | 'maxConnectionsPerKey'>,
): number {
  return config.queue.maxLength ?? Math.max(64, config.apiKeys.length * config.maxConnectionsPerKey);
}
