import { describe, expect, it } from 'vitest';
import { hashApiKey, loadConfig, queueCapacity } from './config';

const noFile = () => {
  throw new Error('no file expected');
};

describe('loadConfig', () => {
  it('has defaults that run on a fresh machine with a local Ollama', () => {
    const config = loadConfig({ env: {}, readFile: noFile });
    expect(config).toMatchObject({
      host: '127.0.0.1',
      port: 8765,
      apiKeys: [],
      queue: { concurrency: 8 },
      maxConnectionsPerKey: 5,
      allowedOrigins: [],
      metrics: { allowLoopback: true },
      handshakeTimeoutMs: 10_000,
      providers: { local: { type: 'ollama', baseUrl: 'http://127.0.0.1:11434' }, remote: [] },
    });
    expect(config.tls).toBeUndefined();
  });

  it('hashes plain keys from the environment and never keeps them', () => {
    const config = loadConfig({ env: { AGENT_SERVER_API_KEYS: 'alpha, beta' }, readFile: noFile });
    expect(config.apiKeys).toEqual([
      { name: 'env-1', sha256: hashApiKey('alpha') },
      { name: 'env-2', sha256: hashApiKey('beta') },
    ]);
    expect(JSON.stringify(config)).not.toContain('alpha');
  });

  it('reads the file, then lets the environment override it', () => {
    const file = JSON.stringify({
      port: 9000,
      apiKeys: [{ name: 'ci', sha256: hashApiKey('k').toUpperCase() }],
      providers: {
        remote: [
          { type: 'openai-compatible', preset: 'deepseek', apiKeyEnv: 'DS_KEY', models: ['deepseek-chat'] },
        ],
      },
      queue: { maxLength: 8 },
    });
    const config = loadConfig({
      env: {
        AGENT_SERVER_CONFIG: '/etc/agent.json',
        AGENT_SERVER_PORT: '0',
        AGENT_SERVER_CONCURRENCY: '4',
        AGENT_SERVER_TLS_CERT: '/c.pem',
        AGENT_SERVER_TLS_KEY: '/k.pem',
        AGENT_SERVER_OLLAMA_URL: 'http://gpu-box:11434',
        AGENT_SERVER_MOCK: '1',
      },
      readFile: (path) => (path === '/etc/agent.json' ? file : noFile()),
    });
    expect(config.port).toBe(0);
    expect(config.queue).toEqual({ maxLength: 8, concurrency: 4 });
    expect(config.tls).toEqual({ certPath: '/c.pem', keyPath: '/k.pem' });
    expect(config.apiKeys[0]).toEqual({ name: 'ci', sha256: hashApiKey('k') });
    expect(config.providers.local?.baseUrl).toBe('http://gpu-box:11434');
    expect(config.providers.remote.map((p) => p.type)).toEqual(['openai-compatible', 'mock']);
  });

  it.each([
    [{ apiKeys: [{ name: 'x', key: 'plain' }] }, /apiKeys/],
    [{ porrt: 1 }, /Unrecognized key/],
    [{ queue: { maxLength: 0 } }, /queue.maxLength/],
  ])('refuses %j', (file, message) => {
    expect(() =>
      loadConfig({ env: { AGENT_SERVER_CONFIG: 'c.json' }, readFile: () => JSON.stringify(file) }),
    ).toThrow(message);
  });

  it('refuses a half TLS setup and a non-numeric port', () => {
    expect(() => loadConfig({ env: { AGENT_SERVER_TLS_CERT: '/c.pem' }, readFile: noFile })).toThrow(
      /go together/,
    );
    expect(() => loadConfig({ env: { AGENT_SERVER_PORT: 'http' }, readFile: noFile })).toThrow(
      /AGENT_SERVER_PORT/,
    );
  });

  it('sizes the queue by default to one task per connection the keys may open', () => {
    const keys = Array.from({ length: 40 }, (_, i) => `k${i}`).join(',');
    const team = loadConfig({ env: { AGENT_SERVER_API_KEYS: keys }, readFile: noFile });
    // 40 keys × 5 connections: 200 connections, each with one task, never meet queue_full.
    expect(queueCapacity(team)).toBe(200);
    expect(queueCapacity(loadConfig({ env: { AGENT_SERVER_API_KEYS: 'one' }, readFile: noFile }))).toBe(64);
    const fixed = loadConfig({
      env: { AGENT_SERVER_API_KEYS: keys, AGENT_SERVER_QUEUE_LENGTH: '10' },
      readFile: noFile,
    });
    expect(queueCapacity(fixed)).toBe(10);
  });

  it('trusts no proxy by default; reads trusted proxies from the file or the environment, and checks them', () => {
    expect(loadConfig({ env: {}, readFile: noFile }).trustedProxies).toEqual([]);
    const env = { AGENT_SERVER_TRUSTED_PROXIES: '10.0.0.7, 10.1.0.0/16,fd00::/8' };
    expect(loadConfig({ env, readFile: noFile }).trustedProxies).toEqual([
      '10.0.0.7',
      '10.1.0.0/16',
      'fd00::/8',
    ]);
    const file = JSON.stringify({ trustedProxies: ['127.0.0.1'] });
    expect(
      loadConfig({ env: { AGENT_SERVER_CONFIG: 'c.json' }, readFile: () => file }).trustedProxies,
    ).toEqual(['127.0.0.1']);
    expect(() =>
      loadConfig({ env: { AGENT_SERVER_TRUSTED_PROXIES: 'lb.internal' }, readFile: noFile }),
    ).toThrow(/trustedProxies\.0: an IP address or CIDR range/);
    expect(() =>
      loadConfig({ env: { AGENT_SERVER_TRUSTED_PROXIES: '10.0.0.0/33' }, readFile: noFile }),
    ).toThrow(/trustedProxies/);
  });

  it('reads allowed origins and the metrics key from the environment (hashed)', () => {
    const config = loadConfig({
      env: {
        AGENT_SERVER_ALLOWED_ORIGINS: 'https://ide.example, http://localhost:5173',
        AGENT_SERVER_METRICS_KEY: 'metrics-secret',
      },
      readFile: noFile,
    });
    expect(config.allowedOrigins).toEqual(['https://ide.example', 'http://localhost:5173']);
    expect(config.metrics).toEqual({ allowLoopback: true, keySha256: hashApiKey('metrics-secret') });
    expect(JSON.stringify(config)).not.toContain('metrics-secret');
  });

  it('turns on the shared queue with AGENT_SERVER_REDIS_URL, with defaults for the rest', () => {
    const config = loadConfig({ env: { AGENT_SERVER_REDIS_URL: 'redis://10.0.0.9:6379' }, readFile: noFile });
    expect(config.redis).toEqual({
      url: 'redis://10.0.0.9:6379',
      prefix: 'notes-agent',
      heartbeatMs: 2000,
      lockMs: 15_000,
      backendConcurrency: {},
    });
    expect(loadConfig({ env: {}, readFile: noFile }).redis).toBeUndefined();
    expect(() => loadConfig({ env: { AGENT_SERVER_REDIS_URL: 'http://x' }, readFile: noFile })).toThrow(
      /redis.url/,
    );
  });
});
