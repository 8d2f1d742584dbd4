import type { ConformanceCase } from './case-schema';
import type { ConformanceTarget } from './targets';

type PlannedTarget = Pick<ConformanceTarget, 'id' | 'capabilities' | 'unsupported' | 'missing'>;

/** A case a target runs; `problem` says why it cannot pass as things are (the test then fails). */
export interface PlannedRun<T extends PlannedTarget> {
  target: T;
  testCase: ConformanceCase;
  problem?: string;
}

/** A case a target declares it does not support: reported, never run. */
export interface DeclaredUnsupported {
  target: string;
  case: string;
  reason: string;
}

export interface ConformancePlan<T extends PlannedTarget> {
  runs: PlannedRun<T>[];
  unsupported: DeclaredUnsupported[];
  /** Declarations that name no case, or give no reason. */
  invalidDeclarations: string[];
}

/**
 * Which case runs against which target. A case is left out only when the target declares it
 * unsupported with a reason; a missing recording or capability of any other case is a failure.
 */
export function planConformance<T extends PlannedTarget>(
  targets: readonly T[],
  cases: readonly ConformanceCase[],
): ConformancePlan<T> {
  const caseIds = new Set(cases.map((testCase) => testCase.id));
  const runs: PlannedRun<T>[] = [];
  const unsupported: DeclaredUnsupported[] = [];
  const invalidDeclarations: string[] = [];
  for (const target of targets) {
    for (const [id, reason] of Object.entries(target.unsupported)) {
      if (!caseIds.has(id)) invalidDeclarations.push(`${target.id}: no case ${id}`);
      else if (reason.trim() === '') invalidDeclarations.push(`${target.id}: ${id} has no reason`);
    }
    for (const testCase of cases) {
      const reason = target.unsupported[testCase.id];
      if (reason !== undefined) {
        unsupported.push({ target: target.id, case: testCase.id, reason });
        continue;
      }
      const lacking = testCase.capabilities.filter((capability) => !target.capabilities.includes(capability));
      const problem =
        lacking.length > 0
          ? `${target.id} lacks ${lacking.join(', ')}: declare ${testCase.id} unsupported, with the reason`
          : target.missing(testCase.scenario);
      runs.push({ target, testCase, ...(problem !== undefined && { problem }) });
    }
  }
  return { runs, unsupported, invalidDeclarations };
}
