import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startScriptServer, type ScriptServer } from '../e2e/harness/openai-script-server';
import type { AgentCaseResult, BenchmarkReportDto } from '../src/contracts';
import { runAgentCli } from './agent-cli';
import { scriptedAgentDataset } from '../src/services/__fixtures__/openai-agent-script';

/** Two cases the scripted model answers alike: it always writes 3 tasks, so only the first passes. */
const DATASET = scriptedAgentDataset('cli-scripted-v1', 'the CLI against the scripted server');

interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** `npm run bench:agent -- …` as the npm script runs it (tsx), in a child process: the real entry point. */
function benchAgent(args: string[], env: Record<string, string> = {}): Promise<CliResult> {
  return new Promise((resolve) => {
    execFile(
      join('node_modules', '.bin', 'tsx'),
      ['bench/agent-cli.ts', ...args],
      { env: { ...process.env, ...env }, maxBuffer: 16 * 1024 * 1024 },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

let server: ScriptServer;
let folder: string;

beforeAll(async () => {
  server = await startScriptServer();
  folder = await mkdtemp(join(tmpdir(), 'bench-agent-cli-'));
  await writeFile(join(folder, 'dataset.json'), JSON.stringify(DATASET));
});

afterAll(async () => {
  await server.close();
  await rm(folder, { recursive: true, force: true });
});

describe('npm run bench:agent', () => {
  it('runs an imported dataset on the scripted OpenAI-compatible server and writes the report', async () => {
    const out = join(folder, 'report.json');
    const result = await benchAgent(
      [
        ...['--import', join(folder, 'dataset.json'), '--dataset', 'cli-scripted-v1'],
        ...['--provider', 'local', '--model', 'script-model', '--base-url', `${server.url}/v1`],
        ...['--api-key-env', 'BENCH_CLI_TEST_KEY', '--concurrency', '2', '--out', out],
      ],
      { BENCH_CLI_TEST_KEY: 'sk-cli-test-0123456789' },
    );
    expect(result.stderr).not.toMatch(/Error/u);
    expect(result.code).toBe(0);
    const lines = result.stdout.split('\n');
    expect(lines).toContain('task_success_rate 0.500');
    expect(lines).toContain('tool_selection_accuracy 1.000');
    expect(lines).toContain('average_steps 4.00');
    expect(lines).toContain('average_token_usage 560');
    expect(lines.find((line) => line.startsWith('pass tasks-3'))).toBeDefined();
    expect(lines.find((line) => line.startsWith('FAIL tasks-1'))).toMatch(
      /tasks_created: expected 1, got 3; trace run_/u,
    );
    expect(lines).toContain(`report: ${out}`);

    const report = JSON.parse(await readFile(out, 'utf8')) as BenchmarkReportDto;
    expect(report.run).toMatchObject({
      kind: 'agent',
      status: 'completed',
      dataset_id: 'cli-scripted-v1',
      config_snapshot: { provider_id: 'local', model: 'script-model', concurrency: 2 },
    });
    expect((report.cases as AgentCaseResult[]).map((entry) => [entry.case_id, entry.passed])).toEqual([
      ['tasks-3', true],
      ['tasks-1', false],
    ]);
    // Four model calls per case, every one to the local server.
    expect(server.bodies).toHaveLength(8);
    expect(server.bodies.every((body) => body.model === 'script-model')).toBe(true);
  }, 180_000);

  it('refuses an unknown dataset, a bad option and a missing key with their codes', async () => {
    const quiet = { log: () => undefined };
    await expect(runAgentCli(['--dataset', 'no-such-dataset'], quiet)).rejects.toMatchObject({
      code: 'BENCHMARK_DATASET_NOT_FOUND',
    });
    await expect(runAgentCli(['--concurrency', '0'], quiet)).rejects.toMatchObject({
      code: 'BENCHMARK_CONFIG_INVALID',
      details: { field: 'concurrency' },
    });
    await expect(
      runAgentCli(['--base-url', `${server.url}/v1`, '--api-key-env', 'BENCH_CLI_UNSET'], quiet),
    ).rejects.toThrow('the environment variable BENCH_CLI_UNSET is not set');
    await expect(runAgentCli(['--no-such-option'], quiet)).rejects.toMatchObject({
      code: 'ERR_PARSE_ARGS_UNKNOWN_OPTION',
    });
  });
});
