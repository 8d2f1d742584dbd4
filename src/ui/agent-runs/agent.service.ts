import type { Remote } from 'comlink';
import type { EventEnvelope } from '../../contracts/events';
import type { StartAgentRunInput } from '../../contracts/agent-runs';
import type { CoreApi } from '../../services/core-api';
import { core, subscribeEvents } from '../api/core-client';
import { reportError } from '../errors';
import { agentView } from './agent.svelte';
import { isTerminalRunEvent } from './timeline';

type PermissionAnswer = 'allow_once' | 'always_allow' | 'deny';

const RUN_PAGE = 50;

function agentApi(): Remote<CoreApi['agent']> {
  return core.agent;
}

let unsubscribe: (() => void) | null = null;

export async function loadRuns(): Promise<void> {
  try {
    const page = await agentApi().list({ limit: RUN_PAGE, offset: 0 });
    agentView.setRuns(page.items);
  } catch (error) {
    reportError(error);
  }
}

async function refreshRun(runId: string): Promise<void> {
  try {
    agentView.upsertRun(await agentApi().get(runId));
  } catch (error) {
    reportError(error);
  }
}

/**
 * Shows a run's timeline: its stored events first (a past run replays exactly),
 * then live ones until its terminal event.
 */
export function openRun(runId: string): void {
  unsubscribe?.();
  agentView.select(runId);
  unsubscribe = subscribeEvents(runId, (envelope: EventEnvelope) => {
    agentView.appendEvent(envelope);
    if (isTerminalRunEvent(envelope.event)) void refreshRun(runId);
  });
}

export async function startRun(options: Omit<StartAgentRunInput, 'prompt'> = {}): Promise<void> {
  const prompt = agentView.input.trim();
  if (prompt === '' || agentView.busy) return;
  agentView.setBusy(true);
  try {
    const run = await agentApi().start({ ...options, prompt });
    agentView.setInput('');
    agentView.upsertRun(run);
    openRun(run.run_id);
  } catch (error) {
    reportError(error);
  } finally {
    agentView.setBusy(false);
  }
}

export async function cancelRun(): Promise<void> {
  const runId = agentView.selectedRunId;
  if (runId === null) return;
  try {
    agentView.upsertRun(await agentApi().cancel(runId));
  } catch (error) {
    reportError(error);
  }
}

export async function answerPermission(decision: PermissionAnswer): Promise<void> {
  const runId = agentView.selectedRunId;
  const request = agentView.permission;
  if (runId === null || request === null) return;
  try {
    await agentApi().resolvePermission({ run_id: runId, request_id: request.request_id, decision });
  } catch (error) {
    reportError(error);
  }
}

/** Leaving the view: stop following the run (it keeps running in the worker). */
export function closeAgentView(): void {
  unsubscribe?.();
  unsubscribe = null;
}
