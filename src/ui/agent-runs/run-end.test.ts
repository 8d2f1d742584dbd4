import { describe, expect, it } from 'vitest';
import type { EventEnvelope } from '../../contracts/events';
import { runEnd } from './run-end';

const envelope = (sequence: number, event: string, data: unknown = {}): EventEnvelope => ({
  id: sequence,
  sequence,
  event,
  resource_id: 'run-1',
  data,
  timestamp: '2026-01-01T00:00:00Z',
});

describe('runEnd', () => {
  it('is null while the run has no terminal event', () => {
    expect(runEnd([envelope(1, 'RunStarted'), envelope(2, 'ModelCallStarted')])).toBeNull();
  });

  it("says a completed run's first line of answer, without Markdown", () => {
    expect(
      runEnd([
        envelope(1, 'RunStarted'),
        envelope(2, 'RunCompleted', { output: '\n**Added** 3 tasks.\nMore.' }),
      ]),
    ).toEqual({ kind: 'completed', answer: 'Added 3 tasks.' });
  });

  it('keeps why a run failed, and that one was cancelled', () => {
    expect(runEnd([envelope(3, 'RunFailed', { code: 'PROVIDER_TIMEOUT', message: 'slow' })])).toEqual({
      kind: 'failed',
      code: 'PROVIDER_TIMEOUT',
      message: 'slow',
    });
    expect(runEnd([envelope(4, 'RunCancelled')])).toEqual({ kind: 'cancelled' });
  });
});
