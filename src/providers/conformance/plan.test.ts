import { describe, expect, it } from 'vitest';
import type { ConformanceCase } from './case-schema';
import { planConformance } from './plan';

const testCase = (id: string, scenario: string, capabilities: ConformanceCase['capabilities']) =>
  ({ id, scenario, capabilities }) as ConformanceCase;

const cases = [
  testCase('text', 'text', ['chat']),
  testCase('reasoning', 'reasoning', ['chat', 'reasoning']),
  testCase('usage', 'usage', ['chat']),
];
const recorded = new Set(['text', 'reasoning']);
const target = (unsupported: Record<string, string>, capabilities: ConformanceCase['capabilities']) => ({
  id: 'demo',
  capabilities,
  unsupported,
  missing: (scenario: string) => (recorded.has(scenario) ? undefined : `no recording ${scenario}`),
});

describe('planConformance', () => {
  it('leaves out only declared cases and reports them with their reason', () => {
    const plan = planConformance([target({ usage: 'not recorded' }, ['chat', 'reasoning'])], cases);
    expect(plan.runs.map((run) => [run.testCase.id, run.problem])).toEqual([
      ['text', undefined],
      ['reasoning', undefined],
    ]);
    expect(plan.unsupported).toEqual([{ target: 'demo', case: 'usage', reason: 'not recorded' }]);
    expect(plan.invalidDeclarations).toEqual([]);
  });

  it('turns a missing recording or capability of an undeclared case into a failing run, not a skip', () => {
    const plan = planConformance([target({}, ['chat'])], cases);
    expect(plan.runs.map((run) => [run.testCase.id, run.problem])).toEqual([
      ['text', undefined],
      ['reasoning', 'demo lacks reasoning: declare reasoning unsupported, with the reason'],
      ['usage', 'no recording usage'],
    ]);
    expect(plan.unsupported).toEqual([]);
  });

  it('rejects declarations of unknown cases and declarations without a reason', () => {
    const plan = planConformance([target({ nope: 'gone', usage: ' ' }, ['chat', 'reasoning'])], cases);
    expect(plan.invalidDeclarations).toEqual(['demo: no case nope', 'demo: usage has no reason']);
  });
});
