// Load test for the agent service (wired into `npm run bench`): starts the real
// server (server/main.ts) as a child process with the mock provider at a fixed
// delay, opens N loopback connections, and has each send tasks one after the
// other. Reports throughput and queue wait against the provider's own delay as
// ratios, and the server's memory per open connection. Bounded: it stops itself
// at --deadline-s and always stops the server.
//
//   tsx server/bench/load.ts [--connections 200] [--tasks 5] [--delay-ms 50]
//                            [--concurrency 50] [--deadline-s 120]
//                            [--cluster-connections 40] [--cluster-tasks 5]
//                            [--cluster-delay-ms 100] [--cluster-concurrency 4]
//
// Then, with a redis-server of its own on a loopback port: the same load on
// one instance and on two (AGENT_SERVER_REDIS_URL), at the same concurrency
// per instance, and prints the throughput ratio (the goal is ≥ 1.8×).
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { hashApiKey } from '../config';
import { RedisServer } from '../testing/redis-server';
import { TestClient } from '../testing/test-client';

function option(name: string, fallback: number): number {
  const index = process.argv.indexOf(`--${name}`);
  const value = index >= 0 ? Number(process.argv[index + 1]) : fallback;
  if (!Number.isFinite(value) || value <= 0) throw new Error(`--${name} must be a positive number`);
  return value;
}

const CONNECTIONS = option('connections', 200);
const TASKS = option('tasks', 5);
const DELAY_MS = option('delay-ms', 50);
const CONCURRENCY = option('concurrency', 50);
const DEADLINE_MS = option('deadline-s', 120) * 1000;
const PER_KEY = 5;
const CLUSTER_CONNECTIONS = option('cluster-connections', 40);
const CLUSTER_TASKS = option('cluster-tasks', 5);
const CLUSTER_DELAY_MS = option('cluster-delay-ms', 100);
const CLUSTER_CONCURRENCY = option('cluster-concurrency', 4);

const print = (line = '') => process.stdout.write(`${line}\n`);
const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? NaN;
};
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Metrics {
  served: number;
  failed: number;
  rejected: number;
  queue_wait_ms: { p50: number | null; p99: number | null };
  memory: { rss_bytes: number; heap_used_bytes: number };
}

/**
 * The server's config in `dir`: one API key per PER_KEY connections (named
 * `${keyPrefix}-${i}`), the mock provider at `delayMs`, and `queue`.
 */
function writeBenchConfig(
  dir: string,
  keyPrefix: string,
  connections: number,
  delayMs: number,
  queue: { maxLength?: number; concurrency: number },
): { keys: string[]; configPath: string } {
  const keys = Array.from({ length: Math.ceil(connections / PER_KEY) }, (_, i) => `${keyPrefix}-${i}`);
  const configPath = join(dir, 'config.json');
  writeFileSync(
    configPath,
    JSON.stringify({
      host: '127.0.0.1',
      port: 0,
      apiKeys: keys.map((key, i) => ({ name: `bench-${i}`, sha256: hashApiKey(key) })),
      providers: { local: null, remote: [{ type: 'mock', delayMs }] },
      queue,
      logLevel: 'warn',
    }),
  );
  return { keys, configPath };
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'agent-bench-'));
  const { keys, configPath } = writeBenchConfig(dir, 'bench-key', CONNECTIONS, DELAY_MS, {
    maxLength: CONNECTIONS + 16,
    concurrency: CONCURRENCY,
  });
  const server = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    cwd: new URL('../..', import.meta.url),
    env: { ...process.env, AGENT_SERVER_CONFIG: configPath, AGENT_SERVER_LOG_LEVEL: 'info' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const deadline = setTimeout(() => {
    print(`Deadline of ${DEADLINE_MS / 1000} s reached: stopping.`);
    server.kill('SIGKILL');
    for (const child of running) child.kill('SIGKILL');
    process.exit(1);
  }, DEADLINE_MS);
  const clients: TestClient[] = [];
  try {
    const port = await new Promise<number>((resolve, reject) => {
      createInterface({ input: server.stdout }).on('line', (line) => {
        const entry = JSON.parse(line) as { event: string; port?: number };
        if (entry.event === 'server_listening') resolve(entry.port!);
      });
      server.once('exit', () => reject(new Error('The server exited before listening')));
    });
    const base = `127.0.0.1:${port}`;
    const metrics = async () => (await (await fetch(`http://${base}/metrics`)).json()) as Metrics;

    await sleep(300);
    const idle = await metrics();
    for (let i = 0; i < CONNECTIONS; i++) {
      clients.push(await TestClient.connect(`ws://${base}/ws`, keys[Math.floor(i / PER_KEY)]));
    }
    await sleep(300);
    const connected = await metrics();

    const latencies: number[] = [];
    let failures = 0;
    const started = performance.now();
    await Promise.all(
      clients.map(async (client, c) => {
        for (let t = 0; t < TASKS; t++) {
          const request_id = `${c}-${t}`;
          const sent = performance.now();
          const replies = await client.request(
            { cmd: 'exec_chat', request_id, model: 'mock-1', msg: 'bench' },
            DEADLINE_MS,
          );
          if (replies.at(-1)?.error !== undefined) failures++;
          else latencies.push(performance.now() - sent);
        }
      }),
    );
    const seconds = (performance.now() - started) / 1000;
    const done = await metrics();

    const total = CONNECTIONS * TASKS;
    const throughput = latencies.length / seconds;
    const ideal = (CONCURRENCY * 1000) / DELAY_MS;
    const ratio = (ms: number | null) => (ms === null ? 'n/a' : `${(ms / DELAY_MS).toFixed(2)}×`);
    const kib = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`;
    const waits = done.queue_wait_ms;
    print(
      `Agent service load test: ${CONNECTIONS} connections × ${TASKS} tasks, mock provider delay ${DELAY_MS} ms,`,
    );
    print(`concurrency ${CONCURRENCY}, loopback 127.0.0.1.`);
    print(
      `  tasks           ${latencies.length}/${total} served, ${failures} failed, in ${seconds.toFixed(2)} s`,
    );
    print(
      `  throughput      ${throughput.toFixed(0)} tasks/s = ${(throughput / ideal).toFixed(2)} of the ideal ${ideal.toFixed(0)}/s (concurrency ÷ delay)`,
    );
    print(
      `  queue wait      p50 ${waits.p50} ms = ${ratio(waits.p50)} delay, p99 ${waits.p99} ms = ${ratio(waits.p99)} delay`,
    );
    const p50 = percentile(latencies, 50);
    const p99 = percentile(latencies, 99);
    print(
      `  client latency  p50 ${p50.toFixed(1)} ms = ${ratio(p50)} delay, p99 ${p99.toFixed(1)} ms = ${ratio(p99)} delay`,
    );
    print(
      `  memory/conn     rss ${kib((connected.memory.rss_bytes - idle.memory.rss_bytes) / CONNECTIONS)}, heap ${kib((connected.memory.heap_used_bytes - idle.memory.heap_used_bytes) / CONNECTIONS)} (server process, idle connections; GC makes this approximate)`,
    );
    print(
      JSON.stringify({
        bench: 'agent-server-load',
        connections: CONNECTIONS,
        tasks: total,
        served: latencies.length,
        failed: failures,
        server: { served: done.served, failed: done.failed, rejected: done.rejected },
        seconds,
        throughput_per_s: throughput,
        throughput_vs_ideal: throughput / ideal,
        queue_wait_p50_vs_delay: waits.p50 === null ? null : waits.p50 / DELAY_MS,
        queue_wait_p99_vs_delay: waits.p99 === null ? null : waits.p99 / DELAY_MS,
        latency_p50_vs_delay: p50 / DELAY_MS,
        latency_p99_vs_delay: p99 / DELAY_MS,
        rss_bytes_per_connection: (connected.memory.rss_bytes - idle.memory.rss_bytes) / CONNECTIONS,
        heap_bytes_per_connection:
          (connected.memory.heap_used_bytes - idle.memory.heap_used_bytes) / CONNECTIONS,
      }),
    );
    if (failures > 0) process.exitCode = 1;
    await clusterComparison();
  } finally {
    clearTimeout(deadline);
    await Promise.all(clients.map((client) => client.close()));
    const exited = new Promise((resolve) => server.once('exit', resolve));
    server.kill('SIGTERM');
    await exited;
    rmSync(dir, { recursive: true, force: true });
  }
}

interface Instance {
  port: number;
  stop(): Promise<void>;
}

/** server/main.ts as a child process; resolves once it listens. */
async function startInstance(configPath: string, env: Record<string, string> = {}): Promise<Instance> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    cwd: new URL('../..', import.meta.url),
    env: { ...process.env, AGENT_SERVER_CONFIG: configPath, AGENT_SERVER_LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  running.add(child);
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const port = await new Promise<number>((resolve, reject) => {
    createInterface({ input: child.stdout }).on('line', (line) => {
      // Every task logs a line: parse only the one that matters.
      if (!line.includes('"server_listening"')) return;
      resolve((JSON.parse(line) as { port: number }).port);
    });
    child.once('exit', () => reject(new Error('The server exited before listening')));
  });
  return {
    port,
    stop: async () => {
      child.kill('SIGTERM');
      await exited;
      running.delete(child);
    },
  };
}
const running = new Set<ReturnType<typeof spawn>>();

/** Each connection sends its tasks one after the other; connections go round-robin over the instances. */
async function drive(ports: number[], keys: string[], connections: number, tasks: number) {
  const clients = await Promise.all(
    Array.from({ length: connections }, (_, i) =>
      TestClient.connect(`ws://127.0.0.1:${ports[i % ports.length]}/ws`, keys[Math.floor(i / PER_KEY)]),
    ),
  );
  let failures = 0;
  const started = performance.now();
  await Promise.all(
    clients.map(async (client, c) => {
      for (let t = 0; t < tasks; t++) {
        const replies = await client.request(
          { cmd: 'exec_chat', request_id: `${c}-${t}`, model: 'mock-1', msg: 'bench' },
          DEADLINE_MS,
        );
        if (replies.at(-1)?.error !== undefined) failures++;
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  await Promise.all(clients.map((client) => client.close()));
  return { served: connections * tasks - failures, failures, seconds };
}

/** One instance vs two on one Redis, the same concurrency each. */
async function clusterComparison(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'agent-bench-cluster-'));
  const redis = await RedisServer.start();
  process.once('exit', () => redis.killNow());
  const instances: Instance[] = [];
  try {
    const { keys, configPath } = writeBenchConfig(dir, 'cluster-key', CLUSTER_CONNECTIONS, CLUSTER_DELAY_MS, {
      concurrency: CLUSTER_CONCURRENCY,
    });
    const results: { instances: number; throughput: number; served: number; failures: number }[] = [];
    for (const count of [1, 2]) {
      const env = { AGENT_SERVER_REDIS_URL: redis.url };
      for (let i = 0; i < count; i++) instances.push(await startInstance(configPath, env));
      const run = await drive(
        instances.map((instance) => instance.port),
        keys,
        CLUSTER_CONNECTIONS,
        CLUSTER_TASKS,
      );
      results.push({ instances: count, throughput: run.served / run.seconds, ...run });
      await Promise.all(instances.splice(0).map((instance) => instance.stop()));
    }
    const [one, two] = results as [(typeof results)[0], (typeof results)[0]];
    const ideal = (CLUSTER_CONCURRENCY * 1000) / CLUSTER_DELAY_MS;
    const ratio = two.throughput / one.throughput;
    print();
    print(
      `Several instances on one Redis: ${CLUSTER_CONNECTIONS} connections × ${CLUSTER_TASKS} tasks, mock delay ${CLUSTER_DELAY_MS} ms, concurrency ${CLUSTER_CONCURRENCY} per instance.`,
    );
    for (const result of results) {
      print(
        `  ${result.instances} instance${result.instances > 1 ? 's' : ' '}     ${result.throughput.toFixed(1)} tasks/s = ${(result.throughput / (ideal * result.instances)).toFixed(2)} of the ideal ${(ideal * result.instances).toFixed(0)}/s, ${result.failures} failed`,
      );
    }
    print(`  two vs one      ${ratio.toFixed(2)}× (goal ≥ 1.8×)`);
    print(
      JSON.stringify({
        bench: 'agent-server-cluster',
        connections: CLUSTER_CONNECTIONS,
        tasks: CLUSTER_CONNECTIONS * CLUSTER_TASKS,
        delay_ms: CLUSTER_DELAY_MS,
        concurrency_per_instance: CLUSTER_CONCURRENCY,
        one_instance_per_s: one.throughput,
        two_instances_per_s: two.throughput,
        two_vs_one: ratio,
        failed: one.failures + two.failures,
      }),
    );
    if (one.failures + two.failures > 0) process.exitCode = 1;
  } finally {
    await Promise.all(instances.map((instance) => instance.stop()));
    await redis.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
