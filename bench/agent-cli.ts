// `npm run bench:agent -- --dataset agent-core-v1 --provider mock --model mock-1 [--concurrency 2] [--token-budget 20000]`
// `npm run bench:agent -- --provider local --model m --base-url http://127.0.0.1:8000/v1 --api-key-env KEY`
// configures an OpenAI-compatible provider for this run first (the key is read from that variable).
// Runs the agent benchmark through the benchmark service in Node over
// fake-indexeddb: every case through the agent runtime in the run's own
// database. Prints the §9.7 agent metrics, one line per case, and the report path.
import 'fake-indexeddb/auto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import type { AgentCaseResult } from '../src/contracts';
import { NotesAgentDatabase } from '../src/db';
import { createCoreApi } from '../src/services/core-api';

const OPTIONS = {
  dataset: { type: 'string', default: 'agent-core-v1' },
  provider: { type: 'string', default: 'mock' },
  model: { type: 'string', default: 'mock-1' },
  'max-steps': { type: 'string', default: '10' },
  'token-budget': { type: 'string', default: '20000' },
  concurrency: { type: 'string', default: '1' },
  import: { type: 'string' },
  'base-url': { type: 'string' },
  'api-key-env': { type: 'string' },
  out: { type: 'string' },
} as const;

/** Where the CLI prints its table and report path (stdout when run as a script). */
export interface CliOutput {
  log: (line: string) => void;
}

/** Runs the CLI on these arguments; throws (an AppError with its code) when the run cannot complete. */
export async function runAgentCli(args: string[], output: CliOutput = { log: console.log }): Promise<void> {
  const { values } = parseArgs({ args, options: OPTIONS });
  const db = new NotesAgentDatabase(`bench-agent-cli-${process.pid}`);
  const core = createCoreApi(db);
  try {
    const benchmarks = core.api.benchmarks;
    if (values['base-url']) {
      const keyName = values['api-key-env'];
      const apiKey = keyName ? process.env[keyName] : undefined;
      if (keyName && !apiKey) throw new Error(`the environment variable ${keyName} is not set`);
      await core.api.providers.create({
        provider_id: values.provider,
        preset: 'custom',
        base_url: values['base-url'],
        default_model: values.model,
        ...(apiKey && { api_key: apiKey }),
      });
    }
    if (values.import) await benchmarks.importDataset(await readFile(values.import, 'utf8'));
    const created = await benchmarks.createAgentRun({
      dataset_id: values.dataset,
      provider_id: values.provider,
      model: values.model,
      max_steps: Number(values['max-steps']),
      token_budget: Number(values['token-budget']),
      concurrency: Number(values.concurrency),
    });
    await core.idle();
    const report = await benchmarks.report(created.run_id);
    const { run } = report;
    if (run.status !== 'completed' || run.metrics?.kind !== 'agent') {
      throw new Error(`run ${run.status}: ${run.error?.code ?? ''} ${run.error?.message ?? ''}`);
    }
    const out = values.out ?? join(tmpdir(), 'notes-agent-bench', `${run.run_id}.json`);
    await mkdir(dirname(out), { recursive: true });
    await writeFile(out, `${JSON.stringify(report, null, 1)}\n`);
    const m = run.metrics;
    output.log(`\nBenchmark ${run.run_id}: ${run.dataset_id} on ${values.provider}/${values.model}`);
    output.log(
      [
        `task_success_rate ${m.task_success_rate.toFixed(3)}`,
        `tool_selection_accuracy ${m.tool_selection_accuracy.toFixed(3)}`,
        `tool_argument_accuracy ${m.tool_argument_accuracy.toFixed(3)}`,
        `invalid_tool_call_rate ${m.invalid_tool_call_rate.toFixed(3)}`,
        `average_steps ${m.average_steps.toFixed(2)}`,
        `average_latency_ms ${m.average_latency_ms.toFixed(1)}`,
        `average_token_usage ${m.average_token_usage.toFixed(0)}`,
      ].join('\n'),
    );
    for (const entry of report.cases as AgentCaseResult[]) {
      output.log(
        `${entry.passed ? 'pass' : 'FAIL'} ${entry.case_id.padEnd(24)} tools ${entry.tools_called.join(',') || '-'}` +
          (entry.failure_reason ? `  (${entry.failure_reason}; trace ${entry.trace_run_id})` : ''),
      );
    }
    output.log(`report: ${out}`);
  } finally {
    core.dispose();
    await db.delete();
  }
}

// Run as a script (`tsx bench/agent-cli.ts`), not when a test imports it.
if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  runAgentCli(process.argv.slice(2)).catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
