import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadCases, type ConformanceCase } from './case-schema';
import { formatReport, type ReportRow } from './report';
import { ReplayServer } from './replay-server';
import { assertCase, runCase } from './run-case';
import { conformanceTargets, resolveReplayRoute, type ConformanceTarget } from './targets';

/**
 * The provider conformance suite (contract §8.3): every case file in `cases/`
 * against every adapter, remote ones through a local replay server on
 * 127.0.0.1. Prints a report of provider, model, protocol, time and skip reasons.
 */
const cases = loadCases();
const server = new ReplayServer(resolveReplayRoute);
const report: ReportRow[] = [];

beforeAll(() => server.start());
afterAll(async () => {
  await server.stop();
  process.stdout.write(`\n${formatReport(report)}`);
});

function skipReason(target: ConformanceTarget, testCase: ConformanceCase): string | undefined {
  const lacking = testCase.capabilities.filter((capability) => !target.capabilities.includes(capability));
  if (lacking.length > 0) return `${target.provider} lacks ${lacking.join(', ')}`;
  return target.missing(testCase.scenario);
}

async function waitFor(check: () => boolean, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  return true;
}

describe.each(conformanceTargets)('conformance: $id ($protocol)', (target) => {
  for (const testCase of cases) {
    const skip = skipReason(target, testCase);
    const row: ReportRow = {
      target: target.id,
      provider: target.provider,
      model: target.model,
      protocol: target.protocol,
      case: testCase.id,
      result: skip ? 'skipped' : 'failed',
      ...(skip && { skipReason: skip }),
    };
    report.push(row);

    it.skipIf(skip !== undefined)(`${testCase.id}${skip ? ` (skipped: ${skip})` : ''}`, async () => {
      const prefix = `/${target.id}/${testCase.scenario}`;
      const adapter = target.create({ baseUrl: `${server.url}${prefix}`, scenario: testCase.scenario });
      const started = performance.now();
      const run = await runCase(adapter, testCase);
      row.durationMs = performance.now() - started;
      assertCase(run, testCase);

      const within = testCase.assertions.connection_closed_within_ms;
      if (within !== undefined) {
        expect(run.abortedAt).toBeDefined();
        expect(Date.now() - run.abortedAt!).toBeLessThan(within);
        if (target.replay) {
          const request = server.lastRequest(prefix);
          expect(await waitFor(() => request?.closedAt !== undefined, within)).toBe(true);
          expect(request!.completed).toBe(false);
          expect(request!.closedAt! - run.abortedAt!).toBeLessThan(within);
        }
      }
      row.result = 'passed';
    });
  }
});
