import { describe, expect, it } from 'vitest';
import { runTotals, type TraceEventLike } from './run-totals';

const ev = (event: string, data: Record<string, unknown> = {}): TraceEventLike => ({ event, data });
const usage = (input: number, output: number, estimated = false) =>
  ev('Usage', {
    model_call_id: 'm',
    input_tokens: input,
    output_tokens: output,
    total_tokens: input + output,
    estimated,
    run_total_tokens: 0,
  });

describe('runTotals', () => {
  it('counts steps, input and output tokens and takes the duration the run recorded', () => {
    const totals = runTotals([
      ev('RunStarted'),
      ev('ModelCallStarted', { step: 1, purpose: 'step' }),
      usage(120, 30),
      ev('ToolCall'),
      ev('ToolResult'),
      ev('ModelCallStarted', { step: 2, purpose: 'step' }),
      usage(200, 15),
      ev('RunCompleted', {
        steps: 2,
        duration_ms: 1530,
        token_usage: { input_tokens: 320, output_tokens: 45, total_tokens: 365 },
      }),
    ]);
    expect(totals).toEqual({
      steps: 2,
      input_tokens: 320,
      output_tokens: 45,
      total_tokens: 365,
      tokens_known: true,
      tokens_estimated: false,
      duration_ms: 1530,
    });
  });

  it('while a run goes on: steps and tokens so far, no duration (the page has no clock for it)', () => {
    const totals = runTotals([
      ev('ModelCallStarted', { step: 1, purpose: 'step' }),
      usage(10, 5, true),
      ev('ModelCallStarted', { step: 2, purpose: 'step' }),
    ]);
    expect(totals).toMatchObject({
      steps: 2,
      input_tokens: 10,
      output_tokens: 5,
      tokens_estimated: true,
      duration_ms: null,
    });
  });

  it('does not count a compression call as a step', () => {
    const totals = runTotals([
      ev('ModelCallStarted', { step: 1, purpose: 'step' }),
      ev('ModelCallStarted', { step: 2, purpose: 'compression' }),
    ]);
    expect(totals.steps).toBe(1);
  });

  it('says tokens are unknown when the run reported no usage at all', () => {
    const totals = runTotals([
      ev('ModelCallStarted', { step: 1, purpose: 'step' }),
      ev('RunCancelled', {
        reason: 'user',
        steps: 1,
        duration_ms: 40,
        token_usage: { input_tokens: 0, output_tokens: 0, total_tokens: 0 },
      }),
    ]);
    expect(totals).toMatchObject({ steps: 1, tokens_known: false, total_tokens: 0, duration_ms: 40 });
  });

  it('keeps the sums when the terminal event reports no usage, and ignores malformed numbers', () => {
    const totals = runTotals([
      usage(7, 3),
      ev('Usage', { input_tokens: -4, output_tokens: 'many', total_tokens: Number.NaN }),
      ev('RunFailed', { steps: 1, duration_ms: 12, token_usage: { total_tokens: 0 } }),
    ]);
    expect(totals).toMatchObject({ input_tokens: 7, output_tokens: 3, total_tokens: 10, duration_ms: 12 });
  });
});
