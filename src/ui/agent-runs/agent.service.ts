import type { Remote } from 'comlink';
import type { EventEnvelope } from '../../contracts/events';
import type { AgentRunDto, StartAgentRunInput } from '../../contracts/agent-runs';
import type { CoreApi } from '../../services/core-api';
import { core, subscribeEvents } from '../api/core-client';
import { reportError } from '../errors';
import { onPluginsChanged } from '../extensions/plugins.service';
import { loadLocalModels } from '../local-models/local-models.service';
import { localModels } from '../local-models/local-models.svelte';
import { DEMO_PROVIDER, defaultAgentChoice } from './agent-models';
import { agentView } from './agent.svelte';
import { currentRoute, navigate } from '../navigation';
import { refreshAll } from '../notes/notes.service';
import { showBackgroundWrite } from '../editor/editor.service';
import { isTerminalRunEvent } from './timeline';
import { allowedToolsFor } from './tool-choice';
import { agentSettings } from './agent-settings.svelte';

type PermissionAnswer = 'allow_once' | 'always_allow' | 'deny';

const RUN_PAGE = 50;

function agentApi(): Remote<CoreApi['agent']> {
  return core.agent;
}

let unsubscribe: (() => void) | null = null;

let followingPlugins = false;

/**
 * The tools again whenever a plugin becomes ready, stops or fails: after a reload the
 * enabled plugins start in the background, after the view's first read of the list.
 */
function followPluginTools(): void {
  if (followingPlugins) return;
  followingPlugins = true;
  onPluginsChanged(() => void loadAgentTools());
}

async function loadAgentTools(): Promise<void> {
  try {
    const [tools, disabled] = await Promise.all([agentApi().tools(), agentApi().disabledTools()]);
    agentView.setTools(tools);
    agentSettings.setTools(tools, disabled);
  } catch (error) {
    console.warn('Could not read the agent tools', error);
  }
}

/**
 * The picker's lists (enabled providers, each one's models, the in-browser
 * models) and the tools; keeps the picked model while its provider exists.
 */
export async function loadAgentSetup(): Promise<void> {
  followPluginTools();
  try {
    const [providers, tools, disabled] = await Promise.all([
      core.providers.list(),
      agentApi().tools(),
      agentApi().disabledTools(),
    ]);
    agentView.setTools(tools);
    agentSettings.setTools(tools, disabled);
    const enabled = providers.items.filter((provider) => provider.enabled);
    const lists = await Promise.all(
      enabled.map(async (provider) => {
        try {
          return [provider.provider_id, (await core.providers.models(provider.provider_id)).items] as const;
        } catch {
          return [provider.provider_id, undefined] as const;
        }
      }),
    );
    agentView.setProviders(enabled, Object.fromEntries(lists));
    await loadLocalModels();
    const current = agentView.choice;
    const exists =
      current !== null &&
      (current.provider_id === DEMO_PROVIDER ||
        current.provider_id === 'webllm' ||
        enabled.some((provider) => provider.provider_id === current.provider_id));
    if (!exists) agentView.choose(defaultAgentChoice(enabled, localModels.data));
  } catch (error) {
    reportError(error);
    // The picker waits for a choice: with the lists unread, the demo model still runs.
    if (agentView.choice === null) agentView.choose(defaultAgentChoice([], null));
  }
}

export async function loadRuns(): Promise<void> {
  try {
    const page = await agentApi().list({ limit: RUN_PAGE, offset: 0 });
    agentView.setRuns(page.items);
    // An ended run's totals never change: read once per page load (a read scans the run's trace).
    for (const run of page.items) {
      if (agentView.totals[run.run_id]?.duration_ms == null) refreshTotals(run.run_id);
    }
  } catch (error) {
    reportError(error);
  }
}

const totalsReading = new Set<string>();
const totalsStale = new Set<string>();

/**
 * Re-reads a run's totals from its stored trace (the snapshot's summary). Calls while
 * one read is under way coalesce into one more read after it, so a replayed trace
 * does not ask once per event.
 */
function refreshTotals(runId: string): void {
  if (totalsReading.has(runId)) {
    totalsStale.add(runId);
    return;
  }
  totalsReading.add(runId);
  void agentApi()
    .trace({ run_id: runId, limit: 1 })
    .then(
      (snapshot) => {
        if (snapshot.summary.totals) agentView.setTotals(runId, snapshot.summary.totals);
      },
      // The totals add to the row; a run whose trace cannot be read still lists without them.
      () => undefined,
    )
    .finally(() => {
      totalsReading.delete(runId);
      if (totalsStale.delete(runId)) refreshTotals(runId);
    });
}

/** The events after which a run's totals (steps, tokens, duration) have changed. */
const TOTALS_CHANGE = new Set(['ModelCallStarted', 'Usage', 'RunCompleted', 'RunFailed', 'RunCancelled']);

const ENDED: Record<string, AgentRunDto['status']> = {
  RunCompleted: 'completed',
  RunFailed: 'failed',
  RunCancelled: 'cancelled',
};

/** After the run's terminal event: its row, whose status the event decides if the row lags behind. */
async function refreshRun(runId: string, ended?: string): Promise<void> {
  try {
    const row = await agentApi().get(runId);
    const status = ended ? ENDED[ended] : undefined;
    const active = row.status === 'queued' || row.status === 'running';
    agentView.upsertRun(status && active ? { ...row, status } : row);
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
    if (TOTALS_CHANGE.has(envelope.event)) refreshTotals(runId);
    if (isTerminalRunEvent(envelope.event)) void refreshRun(runId, envelope.event);
  });
}

/**
 * The run an address names (a bookmark, Back, Forward), or none. A run that does not
 * exist says so, and the address is replaced by that of what is shown, so a reload or
 * Back does not meet the error again.
 */
export async function showRun(runId: string | null): Promise<void> {
  if (runId === null) {
    unsubscribe?.();
    unsubscribe = null;
    agentView.select(null);
    return;
  }
  try {
    agentView.upsertRun(await agentApi().get(runId));
  } catch (error) {
    reportError(error);
    const route = currentRoute();
    if (route.view === 'agent' && route.runId === runId)
      navigate({ view: 'agent', runId: agentView.selectedRunId }, { replace: true });
    return;
  }
  openRun(runId);
}

export async function startRun(options: Omit<StartAgentRunInput, 'prompt'> = {}): Promise<void> {
  const prompt = agentView.input.trim();
  if (prompt === '' || agentView.busy) return;
  agentView.setBusy(true);
  try {
    const choice = agentView.choice;
    const allowedTools = options.allowed_tools ?? (await enabledTools());
    const run = await agentApi().start({
      ...(choice && { provider: choice.provider_id, model: choice.model }),
      ...options,
      ...(allowedTools !== undefined && { allowed_tools: allowedTools }),
      prompt,
    });
    agentView.setInput('');
    agentView.upsertRun(run);
    followWrites(run.run_id);
    openRun(run.run_id);
  } catch (error) {
    reportError(error);
  } finally {
    agentView.setBusy(false);
  }
}

/**
 * The tools left on in Settings → Agent, read when the run starts (a plugin's tools may have
 * come or gone since the view loaded); undefined while none is off, so the run is offered all.
 */
async function enabledTools(): Promise<string[] | undefined> {
  const [tools, disabled] = await Promise.all([agentApi().tools(), agentApi().disabledTools()]);
  return allowedToolsFor(tools, disabled);
}

/** The tools that write notes: the notebook's list and sidebar are not told of their writes. */
const NOTE_WRITERS = new Set(['notes.create', 'notes.update', 'notes.organise', 'tasks.create']);

/**
 * Refreshes the note list and the sidebar (folders, tags) after each note write of
 * a run, until the run ends, whichever view is shown meanwhile: leaving the Agent
 * view stops following its timeline, not the run, whose new note, move or tag
 * must show in the notebook the user went to.
 */
function followWrites(runId: string): void {
  let stop: (() => void) | null = null;
  let ended = false;
  stop = subscribeEvents(runId, (envelope: EventEnvelope) => {
    if (envelope.event === 'ToolResult') {
      const { name, success } = envelope.data as { name?: unknown; success?: unknown };
      if (success === true && typeof name === 'string' && NOTE_WRITERS.has(name)) {
        void refreshAll();
        // The open note may be the one written: the editor shows it (or keeps unsaved text beside it).
        void showBackgroundWrite();
      }
    }
    if (isTerminalRunEvent(envelope.event)) {
      ended = true;
      // A run that ends while another is shown: its row's totals are final now.
      refreshTotals(runId);
      stop?.();
    }
  });
  // A run can end before the subscription is even returned (events replayed at once).
  if (ended) stop();
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
