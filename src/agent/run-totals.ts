/**
 * A run's totals as its list row shows them (steps, tokens, duration), folded
 * from the stored trace one event at a time, so the trace snapshot can page
 * through a long run without holding it. Only the trace's own numbers count:
 * the terminal event's `duration_ms` and the `Usage` events, never a clock of
 * whoever reads it, so a past run shows the same totals every time.
 */

export interface RunTotals {
  /** Model rounds of the run (compression calls are not steps). */
  steps: number;
  input_tokens: number;
  output_tokens: number;
  total_tokens: number;
  /** True when the run reported token usage at all (some providers send none and nothing was estimated). */
  tokens_known: boolean;
  /** Some of the usage is the app's estimate: the provider reported none for a call. */
  tokens_estimated: boolean;
  /** From the terminal event; null while the run has not ended. */
  duration_ms: number | null;
}

/** The part of an event envelope the fold reads. */
export interface TraceEventLike {
  event: string;
  data: unknown;
}

export function emptyRunTotals(): RunTotals {
  return {
    steps: 0,
    input_tokens: 0,
    output_tokens: 0,
    total_tokens: 0,
    tokens_known: false,
    tokens_estimated: false,
    duration_ms: null,
  };
}

const TERMINAL = new Set(['RunCompleted', 'RunFailed', 'RunCancelled']);

const count = (value: unknown): number | null =>
  typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : null;

function record(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
}

/**
 * Adds one event (in sequence order) to `totals`, in place. The terminal
 * event's own figures win over the sums so far: they are what the run
 * recorded as its outcome (a cancelled call's usage may never have arrived).
 */
export function addToRunTotals(totals: RunTotals, envelope: TraceEventLike): RunTotals {
  const data = record(envelope.data);
  if (envelope.event === 'ModelCallStarted' && data.purpose !== 'compression') {
    const step = count(data.step);
    if (step !== null) totals.steps = Math.max(totals.steps, step);
  } else if (envelope.event === 'Usage') {
    totals.input_tokens += count(data.input_tokens) ?? 0;
    totals.output_tokens += count(data.output_tokens) ?? 0;
    totals.total_tokens += count(data.total_tokens) ?? 0;
    totals.tokens_known = true;
    if (data.estimated === true) totals.tokens_estimated = true;
  } else if (TERMINAL.has(envelope.event)) {
    totals.steps = count(data.steps) ?? totals.steps;
    totals.duration_ms = count(data.duration_ms);
    const usage = record(data.token_usage);
    const total = count(usage.total_tokens);
    if (total !== null && (total > 0 || !totals.tokens_known)) {
      totals.input_tokens = count(usage.input_tokens) ?? totals.input_tokens;
      totals.output_tokens = count(usage.output_tokens) ?? totals.output_tokens;
      totals.total_tokens = total;
      totals.tokens_known ||= total > 0;
    }
  }
  return totals;
}

export function runTotals(events: readonly TraceEventLike[]): RunTotals {
  return events.reduce(addToRunTotals, emptyRunTotals());
}
