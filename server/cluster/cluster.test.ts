import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { MockAdapter } from '../../src/providers/mock';
import { hashApiKey, type AgentServerConfigInput } from '../config';
import type { LogFields, Logger } from '../ops/logger';
import { RedisServer } from '../testing/redis-server';
import { TEST_KEY, TEST_SCENARIOS, startTestServer, type TestServer } from '../testing/start-test-server';
import { ObservedAdapter } from '../testing/observed-adapter';
import { TestClient, type Frame } from '../testing/test-client';

// Several instances on one real redis-server (Debian's package; .ci/run installs it).

let redis: RedisServer;
beforeAll(async () => {
  redis = await RedisServer.start();
});
afterAll(() => redis.stop());

const servers: TestServer[] = [];
const clients: TestClient[] = [];
// A hang guard, not a speed limit: closing waits for each BullMQ worker's blocking
// read to return, which takes seconds on a loaded machine.
afterEach(async () => {
  for (const client of clients.splice(0)) client.socket.terminate();
  await Promise.all(servers.splice(0).map((server) => server.close()));
}, 60_000);

let run = 0;
type LogEntry = LogFields & { event: string };

/** Records every log line of an instance, so tests wait on what happened instead of on time. */
function recordingLogger(entries: LogEntry[], listeners: Set<() => void>): Logger {
  const log = (event: string, fields: LogFields = {}) => {
    entries.push({ event, ...fields });
    for (const listener of [...listeners]) listener();
  };
  return { debug: log, info: log, warn: log, error: log };
}

interface Cluster {
  instances: TestServer[];
  log: LogEntry[];
  adapter: ObservedAdapter;
  /** Resolves when a log entry matches. */
  until(predicate: (entry: LogEntry) => boolean): Promise<LogEntry>;
}

async function startCluster(count: number, config: AgentServerConfigInput = {}, redisConfig: object = {}) {
  const prefix = `t${process.pid}-${++run}`;
  const log: LogEntry[] = [];
  const listeners = new Set<() => void>();
  const adapter = new ObservedAdapter(new MockAdapter({ scenarios: TEST_SCENARIOS }));
  const instances: TestServer[] = [];
  for (let i = 0; i < count; i++) {
    const instance = await startTestServer({
      adapter,
      logger: recordingLogger(log, listeners),
      config: {
        logLevel: 'debug',
        ...config,
        redis: { url: redis.url, prefix, heartbeatMs: 200, lockMs: 1000, ...redisConfig },
      },
    });
    instances.push(instance);
    servers.push(instance);
  }
  const until = (predicate: (entry: LogEntry) => boolean) =>
    new Promise<LogEntry>((resolve) => {
      const check = () => {
        const found = log.find(predicate);
        if (!found) return;
        listeners.delete(check);
        resolve(found);
      };
      listeners.add(check);
      check();
    });
  return { instances, log, adapter, until } satisfies Cluster;
}

async function connect(url: string, key = TEST_KEY) {
  const client = await TestClient.connect(url, key);
  clients.push(client);
  return client;
}

const chat = (request_id: string, scenario = 'text') => ({
  cmd: 'exec_chat',
  request_id,
  model: 'mock-1',
  msg: `/scenario ${scenario}`,
});

describe('several instances on one Redis', () => {
  it('does not start when Redis cannot be reached, and says where', async () => {
    await expect(startTestServer({ config: { redis: { url: 'redis://127.0.0.1:1' } } })).rejects.toThrow(
      /^Cannot reach Redis at 127\.0\.0\.1:1: /,
    );
  });

  it('a task runs on the other instance when this one is busy; its stream reaches the client; resubmitting cancels across instances', async () => {
    const { instances, until, adapter } = await startCluster(2, { queue: { concurrency: 1 } });
    const [a, b] = instances as [TestServer, TestServer];
    const [busy, client] = await Promise.all([connect(a.url), connect(a.url)]);
    busy.send(chat('busy', 'long'));
    const first = await until((entry) => entry.event === 'task_started' && entry.request_id === 'busy');
    client.send({ ...chat('moved', 'short'), stream: true });
    const second = await until((entry) => entry.event === 'task_started' && entry.request_id === 'moved');
    expect(new Set([first.instance, second.instance])).toEqual(
      new Set([a.server.instanceId, b.server.instanceId]),
    );
    const replies = await client.replies('moved', 20_000);
    expect(replies.map((f) => f.stream_seq_id)).toEqual(Array.from({ length: 11 }, (_, i) => i));
    expect(replies.at(-1)).toMatchObject({ stream_finish: true, msg: '' });

    // The busy task runs on either instance; a new task from its connection cancels it there.
    const running = await adapter.call(0);
    expect(running.request.meta.requestId).toBe('busy');
    expect(await busy.request(chat('again'))).toEqual([
      { request_id: 'again', msg: 'Hello! How can I help you today?' },
    ]);
    expect(busy.frames.filter((f) => f.request_id === 'busy')).toEqual([
      { request_id: 'busy', error: 'cancelled' },
    ]);
    expect(await running.settled).toBe('rejected');
    expect(running.abortedAt).toBeDefined();

    const metrics = async () => (await (await fetch(`${a.httpUrl}/metrics`)).json()) as Frame;
    expect(await metrics()).toMatchObject({ redis: 'connected', served: 2, cancelled: 1 });
    // The deployment's queue is as of the last heartbeat: the one after the queue emptied says 0.
    await expect
      .poll(async () => ((await metrics()).queue_wide as { waiting: number }).waiting, { timeout: 20_000 })
      .toBe(0);
    expect((await (await fetch(`${b.httpUrl}/health`)).json()) as Frame).toMatchObject({
      status: 'ok',
      redis: 'connected',
    });
  });

  it('IDE call-backs reach the plugin and its answers reach the task when it runs on another instance', async () => {
    const { instances, until, adapter } = await startCluster(2, { queue: { concurrency: 1 } });
    const [a] = instances as [TestServer];
    const busy = await connect(a.url);
    busy.send(chat('busy', 'long'));
    const first = await until((entry) => entry.event === 'task_started' && entry.request_id === 'busy');
    const plugin = await TestClient.connect(`${a.url}?ide_callbacks=1`, TEST_KEY);
    clients.push(plugin);
    const asked: Frame[] = [];
    plugin.socket.on('message', (data) => {
      const frame = JSON.parse(String(data)) as Frame;
      if (!frame.callback_id || !frame.cmd) return;
      asked.push(frame);
      const range = { start: { line: 3, character: 0 }, end: { line: 9, character: 0 } };
      plugin.send({
        callback_id: frame.callback_id,
        result:
          frame.cmd === 'get_document_symbols'
            ? [{ name: 'next_turn', kind: 'Function', range, children: [] }]
            : [],
      });
    });
    const replies = await plugin.request(
      {
        cmd: 'exec_unittest_code',
        request_id: 'ut',
        model: 'mock-1',
        test_cases_str: '1. wraps around',
        function_name: 'next_turn',
        file_path: 'src/game.py',
      },
      20_000,
    );
    expect(replies).toEqual([{ request_id: 'ut', msg: 'Hello! How can I help you today?' }]);
    const ran = await until((entry) => entry.event === 'task_started' && entry.request_id === 'ut');
    expect(ran.instance).not.toBe(first.instance);
    expect(asked.map((frame) => frame.cmd)).toEqual(['get_document_symbols']);
    expect(asked[0]).toMatchObject({ task_request_id: 'ut', abspath: 'src/game.py' });
    const prompt = adapter.calls.find((call) => call.request.meta.requestId === 'ut')!.request.messages[0]!
      .content;
    expect(prompt).toContain('Outline of `src/game.py`:\n- next_turn (Function)');
  });

  it('200 connections over two instances, 5 tasks each: every task answered, FIFO per key, none run twice, the key limit held across instances', async () => {
    const { instances, log, adapter } = await startCluster(
      2,
      { apiKeys: Array.from({ length: 40 }, (_, k) => ({ name: `k${k}`, sha256: hashApiKey(`team-${k}`) })) },
      // One task at a time across the cluster, so the order they start in is observable.
      { backendConcurrency: { 'remote-mock': 1 } },
    );
    const [a, b] = instances as [TestServer, TestServer];
    const team = await Promise.all(
      Array.from({ length: 200 }, (_, c) => connect((c % 2 ? b : a).url, `team-${Math.floor(c / 5)}`)),
    );
    // Every key has its five connections, over both instances: a sixth is refused on either.
    for (const instance of [a, b]) {
      const extra = await TestClient.connect(instance.url, 'team-0');
      expect(await extra.closed).toEqual({ code: 4429, reason: 'too many connections for this key (max 5)' });
    }
    const answers = await Promise.all(
      team.map(async (client, c) => {
        const replies: Frame[][] = [];
        for (let t = 0; t < 5; t++) {
          replies.push(await client.request(chat(`k${Math.floor(c / 5)}-c${c}-t${t}`), 60_000));
        }
        return replies;
      }),
    );
    expect(answers.flat().filter((replies) => replies.length !== 1 || !('msg' in replies[0]!))).toEqual([]);
    const calls = adapter.calls.map((call) => call.request.meta.requestId);
    expect(calls).toHaveLength(1000);
    expect(new Set(calls).size).toBe(1000);
    // Jobs get increasing ids as they are queued, from whichever instance: per key they started in that order.
    const started = log.filter((entry) => entry.event === 'task_started');
    expect(started).toHaveLength(1000);
    const byKey = new Map<string, number[]>();
    for (const entry of started) {
      const key = String(entry.request_id).split('-')[0]!;
      byKey.set(key, [...(byKey.get(key) ?? []), Number(entry.job)]);
    }
    expect(byKey.size).toBe(40);
    for (const jobs of byKey.values()) expect(jobs).toEqual([...jobs].sort((x, y) => x - y));
    // A slot given back on one instance can be taken on the other.
    await team[1]!.close();
    const replacement = await connect(a.url, 'team-0');
    expect((await replacement.request({ cmd: 'list_model', request_id: 1 }))[0]).toHaveProperty('models');
  }, 120_000);

  it('an instance that dies: its clients see the socket drop, every task of the others ends with a result or an error, the other keeps serving', async () => {
    const keys = Array.from({ length: 4 }, (_, k) => `crash-${k}`);
    const { instances, until } = await startCluster(
      2,
      {
        queue: { concurrency: 2 },
        apiKeys: keys.map((key, k) => ({ name: `k${k}`, sha256: hashApiKey(key) })),
      },
      { lockMs: 600 },
    );
    const [a, b] = instances as [TestServer, TestServer];
    const onA = await Promise.all(Array.from({ length: 6 }, (_, i) => connect(a.url, keys[i % 2]!)));
    const onB = await Promise.all(Array.from({ length: 4 }, (_, i) => connect(b.url, keys[2 + (i % 2)]!)));
    // Only A's plugins send, so whatever B runs belongs to A's connections.
    for (const [i, client] of onA.entries()) client.send(chat(`a${i}`, 'long'));
    await until((entry) => entry.event === 'task_started' && entry.instance === b.server.instanceId);
    await b.server.crash();
    for (const client of onB) expect((await client.closed).code).toBe(1006);

    // A's own tasks may run on; the ones that ran on B fail with worker_lost. Cancel the
    // survivors with a short task each, so nobody waits out the 5 s stream.
    const lost = await until((entry) => entry.event === 'task_worker_lost');
    expect(lost.reason).toMatch(/stalled/);
    const ends = await Promise.all(
      onA.map(async (client, i) => {
        const frames = client.frames.filter((f) => f.request_id === `a${i}`);
        if (frames.some((f) => 'error' in f)) return frames;
        client.send(chat(`again${i}`));
        return client.replies(`a${i}`, 20_000);
      }),
    );
    // Each ends with its result, "cancelled" (replaced above) or worker_lost.
    const last = ends.map((frames) => String(frames.at(-1)!.error ?? 'result'));
    expect(last.filter((error) => error.startsWith('worker_lost: ')).length).toBeGreaterThanOrEqual(1);
    expect(last.filter((error) => !/^(result|cancelled|worker_lost: .+)$/.test(error))).toEqual([]);
    // A keeps serving every one of its plugins.
    const after = await Promise.all(onA.map((client, i) => client.request(chat(`after${i}`), 20_000)));
    expect(after.every((frames) => frames.at(-1)!.msg === 'Hello! How can I help you today?')).toBe(true);
    // B's connection slots expire with its heartbeats: its keys connect again, to A.
    let reconnected: TestClient | undefined;
    for (let attempt = 0; attempt < 200 && !reconnected; attempt++) {
      const clientsBefore = clients.length;
      const candidate = await connect(a.url, keys[2]!);
      const refused = await Promise.race([
        candidate.closed,
        candidate.request({ cmd: 'list_model', request_id: 1 }),
      ]);
      if (Array.isArray(refused)) reconnected = candidate;
      else clients.splice(clientsBefore, 1);
    }
    expect(reconnected).toBeDefined();
  }, 60_000);

  it('Redis stopped mid-run: clear errors at once, /health says so; everything recovers when it returns', async () => {
    const { instances, until } = await startCluster(2);
    const [a, b] = instances as [TestServer, TestServer];
    const client = await connect(a.url);
    client.send(chat('running', 'long'));
    await until((entry) => entry.event === 'task_started' && entry.request_id === 'running');
    await redis.stop();
    expect(await client.replies('running')).toEqual([
      {
        request_id: 'running',
        error:
          'unavailable: lost the connection to the shared task queue (Redis) while the task ran; send it again',
      },
    ]);
    expect(await client.request(chat('while-down'))).toEqual([
      {
        request_id: 'while-down',
        error: 'unavailable: the shared task queue (Redis) cannot be reached; try again later',
      },
    ]);
    const health = await fetch(`${a.httpUrl}/health`);
    expect(health.status).toBe(503);
    expect(await health.json()).toMatchObject({ status: 'redis_unavailable', redis: 'disconnected' });
    const uncounted = await TestClient.connect(b.url, TEST_KEY);
    expect(await uncounted.closed).toEqual({
      code: 1013,
      reason: 'the shared state (Redis) cannot be reached, try again later',
    });
    await redis.restart();
    await Promise.all([a.server.whenRedisConnected(), b.server.whenRedisConnected()]);
    expect(await client.request(chat('after'), 30_000)).toEqual([
      { request_id: 'after', msg: 'Hello! How can I help you today?' },
    ]);
    const fresh = await connect(b.url);
    expect(await fresh.request(chat('fresh'), 30_000)).toEqual([
      { request_id: 'fresh', msg: 'Hello! How can I help you today?' },
    ]);
    expect((await fetch(`${a.httpUrl}/health`)).status).toBe(200);
  }, 60_000);
});
