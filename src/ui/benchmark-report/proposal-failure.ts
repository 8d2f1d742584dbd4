import type { MessageKey } from '../i18n';

/** What the proposal panel shows for a failed proposal: its code, the text by cause, the core's detail. */
export interface ProposalFailure {
  code: string;
  text: string;
  detail: string | null;
}

/**
 * The panel's own line for each way a proposal fails, where it can say more
 * than the code's generic text (which model, which note, what to do next);
 * null leaves the generic text by code.
 */
export function proposalFailureKey(code: string, details: Record<string, unknown>): MessageKey | null {
  switch (code) {
    case 'BENCHMARK_CONFIG_INVALID':
      return details.field === 'provider_id' ? 'bench.propose.error.model' : 'bench.propose.error.config';
    case 'RESOURCE_NOT_FOUND':
      return 'bench.propose.error.noteGone';
    case 'BENCHMARK_RUN_FAILED':
      return details.reason === 'invalid_answer'
        ? 'bench.propose.error.invalidAnswer'
        : 'bench.propose.error.failed';
    case 'STATE_CONFLICT':
      return 'bench.propose.error.conflict';
    default:
      return null;
  }
}

/** The details of an error that crossed the worker (an AppError keeps them). */
export function detailsOf(error: unknown): Record<string, unknown> {
  const details = (error as { details?: unknown } | null)?.details;
  return typeof details === 'object' && details !== null ? (details as Record<string, unknown>) : {};
}
