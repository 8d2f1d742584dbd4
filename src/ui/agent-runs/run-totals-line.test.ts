import { beforeAll, describe, expect, it } from 'vitest';
import { I18nState } from '../i18n/i18n.svelte';
import { runTotalsParts, type RunTotals } from './run-totals-line';

const english = new I18nState();
const chinese = new I18nState();
beforeAll(() => chinese.setLocale('zh-CN'));

const totals = (overrides: Partial<RunTotals> = {}): RunTotals => ({
  steps: 2,
  input_tokens: 1234,
  output_tokens: 56,
  total_tokens: 1290,
  tokens_known: true,
  tokens_estimated: false,
  duration_ms: 1530,
  ...overrides,
});

describe('runTotalsParts', () => {
  it('says steps, input/output tokens and duration in the reader’s language', () => {
    expect(runTotalsParts(totals(), english)).toEqual(['2 steps', '1,234 in / 56 out tokens', '1.5 s']);
    expect(runTotalsParts(totals({ steps: 1, duration_ms: 80 }), english)).toEqual([
      '1 step',
      '1,234 in / 56 out tokens',
      '80 ms',
    ]);
    expect(runTotalsParts(totals(), chinese)).toEqual(['2 步', '输入 1,234 / 输出 56 个 token', '1.5 秒']);
  });

  it('marks estimated tokens, and leaves out what the trace does not know', () => {
    expect(runTotalsParts(totals({ tokens_estimated: true, duration_ms: null }), english)).toEqual([
      '2 steps',
      '~1,234 in / 56 out tokens (estimated)',
    ]);
    expect(runTotalsParts(totals({ tokens_known: false }), english)).toEqual(['2 steps', '1.5 s']);
  });

  it('is empty for a run that has no trace yet', () => {
    expect(
      runTotalsParts(totals({ steps: 0, tokens_known: false, input_tokens: 0, duration_ms: null }), english),
    ).toEqual([]);
  });
});
