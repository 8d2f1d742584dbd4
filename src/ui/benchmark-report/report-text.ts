import { errorText, t as bt, type MessageKey } from '../i18n';
import { translateReason } from './failure-reason';
import { modeKey } from './side-by-side';

// Called from templates: `t` reads the current language, so a switch re-renders them.

export function modeName(mode: string): string {
  const key = modeKey(mode);
  return key ? bt(key) : mode;
}

const RUN_STATUSES = ['queued', 'running', 'completed', 'failed', 'cancelled'] as const;

/** A run status in the UI's language; one this page does not know is shown as written. */
export function statusName(status: string): string {
  return (RUN_STATUSES as readonly string[]).includes(status)
    ? bt(`bench.status.${status as (typeof RUN_STATUSES)[number]}`)
    : status;
}

/**
 * What became of an agent case: the agent run's own status alone would say
 * "Completed" beside "Why it failed"; a run that completed but whose check did
 * not pass is a failed case, and says both.
 */
export function agentOutcome(status: string, passed: boolean): string {
  if (passed) return bt('bench.passed');
  if (status === 'completed') return bt('benchUx.checkFailed');
  return bt('benchUx.runEnded', { status: statusName(status) });
}

/** Provider errors a user fixes in Settings: the reason says so instead of leaving them guessing. */
const PROVIDER_CODE = /^(PROVIDER_|METONA_|NETWORK_|MODEL_)/;

function reasonPart(key: MessageKey, params: Record<string, string>): string {
  // The agent run's own status and error code arrive as the core wrote them ("failed", PROVIDER_…).
  if (key === 'bench.reason.runEnded') {
    return bt('bench.runStatusReason.runEnded', { status: statusName(params.status ?? '') });
  }
  if (key === 'bench.reason.runEndedCode') {
    const code = params.code ?? '';
    const status = statusName(params.status ?? '');
    // The error's own sentence, without its full stop: the reason's parts are joined with "；",
    // and the way out follows it as a sentence of its own.
    const error = errorText(code, params.message ?? '').replace(/[。.！!]+$/, '');
    return PROVIDER_CODE.test(code)
      ? bt('bench.runStatusReason.runEndedProvider', { status, error })
      : bt('bench.runStatusReason.runEndedError', { status, error });
  }
  return bt(key, params);
}

export function reasonText(reason: string): string {
  return translateReason(reason, reasonPart, bt('bench.reason.separator'));
}
