import type { RunTotals } from '../../agent/run-totals';
import type { MessageKey, MessageParams } from '../i18n';

export type { RunTotals };

interface Translator {
  readonly locale: string;
  t(key: MessageKey, params?: MessageParams): string;
}

/** A duration as a person reads it: milliseconds below a second, then seconds to one decimal. */
export function durationText(ms: number, translator: Translator): string {
  if (ms < 1_000) return translator.t('agent.totals.ms', { value: Math.round(ms) });
  const seconds = new Intl.NumberFormat(translator.locale, { maximumFractionDigits: 1 }).format(ms / 1_000);
  return translator.t('agent.totals.seconds', { value: seconds });
}

/**
 * The parts of a run's totals line in the run list (steps, tokens, duration),
 * each present only when the trace knows it: no tokens for a provider that
 * reported none, no duration before the run ended. Empty for a run with no trace yet.
 */
export function runTotalsParts(totals: RunTotals, translator: Translator): string[] {
  if (totals.steps === 0 && totals.duration_ms === null && !totals.tokens_known) return [];
  const number = new Intl.NumberFormat(translator.locale);
  const parts = [translator.t('agent.totals.steps', { count: totals.steps })];
  if (totals.tokens_known) {
    parts.push(
      translator.t(totals.tokens_estimated ? 'agent.totals.tokensEstimated' : 'agent.totals.tokens', {
        input: number.format(totals.input_tokens),
        output: number.format(totals.output_tokens),
      }),
    );
  }
  if (totals.duration_ms !== null) parts.push(durationText(totals.duration_ms, translator));
  return parts;
}
