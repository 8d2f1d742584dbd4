import { describe, expect, it } from 'vitest';
import { reasonParts, translateReason } from './failure-reason';

describe('reasonParts', () => {
  it('turns each phrase the service writes into a message with its values', () => {
    expect(reasonParts('expected block not retrieved')).toEqual([
      { key: 'bench.reason.notRetrieved', params: {} },
    ]);
    expect(reasonParts('no results; answer failed: Rate limit reached')).toEqual([
      { key: 'bench.reason.noResults', params: {} },
      { key: 'bench.reason.answerFailed', params: { error: 'Rate limit reached' } },
    ]);
    expect(
      reasonParts(
        'run failed (PROVIDER_ERROR: boom); expected tools not called: search_notes, read_note; tasks_created: expected 3, got 1',
      ),
    ).toEqual([
      {
        key: 'bench.reason.runEndedCode',
        params: { status: 'failed', code: 'PROVIDER_ERROR', message: 'boom' },
      },
      { key: 'bench.reason.toolsMissing', params: { tools: 'search_notes, read_note' } },
      { key: 'bench.reason.tasksCreated', params: { expected: '3', actual: '1' } },
    ]);
    expect(reasonParts('token budget exceeded: the run was stopped at 980 of 1000 tokens')).toEqual([
      { key: 'bench.reason.budgetStopped', params: { tokens: '980', budget: '1000' } },
    ]);
    expect(reasonParts('token budget exceeded: 1200 > 1000')).toEqual([
      { key: 'bench.reason.budgetExceeded', params: { tokens: '1200', budget: '1000' } },
    ]);
    expect(reasonParts('answer does not contain "TLB"')).toEqual([
      { key: 'bench.reason.answerMissing', params: { text: 'TLB' } },
    ]);
  });

  it('keeps a phrase it does not know as written', () => {
    expect(reasonParts('something new; the answer cited no source')).toEqual([
      { key: null, text: 'something new' },
      { key: 'bench.reason.citedNone', params: {} },
    ]);
  });
});

describe('translateReason', () => {
  it('joins the translated parts with the language separator', () => {
    const text = translateReason(
      'expected block not retrieved; the answer did not cite the expected block; odd',
      (key, params) => `${key}${JSON.stringify(params)}`,
      '；',
    );
    expect(text).toBe('bench.reason.notRetrieved{}；bench.reason.citedOther{}；odd');
  });
});
