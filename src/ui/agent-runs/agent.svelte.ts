import type { EventEnvelope } from '../../contracts/events';
import type { ModelInfoDto, ProviderDto } from '../../contracts/provider-config';
import type { AgentRunDto, AgentToolInfoDto } from '../../contracts/agent-runs';
import type { RunTotals } from '../../agent/run-totals';
import {
  buildTimeline,
  isTerminalRunEvent,
  pendingPermission,
  runPhase,
  type RunPhase,
  type TimelineItem,
} from './timeline';

/** The agent view: the prompt, past runs, and the selected run's events. */
export class AgentViewState {
  #input = $state('');
  #runs = $state.raw<AgentRunDto[]>([]);
  #selectedRunId = $state<string | null>(null);
  #events = $state.raw<EventEnvelope[]>([]);
  #busy = $state(false);
  #providers = $state.raw<ProviderDto[]>([]);
  #models = $state.raw<Record<string, readonly ModelInfoDto[] | undefined>>({});
  #choice = $state<{ provider_id: string; model: string } | null>(null);
  #tools = $state.raw<AgentToolInfoDto[]>([]);
  #totals = $state.raw<Readonly<Record<string, RunTotals>>>({});

  readonly timeline: TimelineItem[] = $derived(buildTimeline(this.#events));
  readonly permission = $derived(pendingPermission(this.#events));
  /** What the selected run waits on now; null when it is not running. */
  readonly phase: RunPhase | null = $derived(runPhase(this.#events, this.timeline));
  readonly selectedRun: AgentRunDto | null = $derived(
    this.#runs.find((run) => run.run_id === this.#selectedRunId) ?? null,
  );
  /** The selected run can still be cancelled. */
  readonly active: boolean = $derived(
    this.#selectedRunId !== null &&
      !this.#events.some((envelope) => isTerminalRunEvent(envelope.event)) &&
      (this.selectedRun === null ||
        this.selectedRun.status === 'queued' ||
        this.selectedRun.status === 'running'),
  );

  get input(): string {
    return this.#input;
  }
  get runs(): AgentRunDto[] {
    return this.#runs;
  }
  get selectedRunId(): string | null {
    return this.#selectedRunId;
  }
  get events(): EventEnvelope[] {
    return this.#events;
  }
  get busy(): boolean {
    return this.#busy;
  }

  get providers(): ProviderDto[] {
    return this.#providers;
  }
  get models(): Record<string, readonly ModelInfoDto[] | undefined> {
    return this.#models;
  }
  /** The model the next run uses; null until the lists are loaded. */
  get choice(): { provider_id: string; model: string } | null {
    return this.#choice;
  }
  get tools(): AgentToolInfoDto[] {
    return this.#tools;
  }
  /** Each listed run's totals, as its stored trace gives them (absent until read). */
  get totals(): Readonly<Record<string, RunTotals>> {
    return this.#totals;
  }
  setTotals(runId: string, totals: RunTotals): void {
    this.#totals = { ...this.#totals, [runId]: totals };
  }
  setProviders(providers: ProviderDto[], models: Record<string, readonly ModelInfoDto[] | undefined>): void {
    this.#providers = providers;
    this.#models = models;
  }
  choose(choice: { provider_id: string; model: string } | null): void {
    this.#choice = choice;
  }
  setTools(tools: AgentToolInfoDto[]): void {
    this.#tools = tools;
  }

  setInput(input: string): void {
    this.#input = input;
  }
  setBusy(busy: boolean): void {
    this.#busy = busy;
  }
  setRuns(runs: AgentRunDto[]): void {
    this.#runs = runs;
  }

  /** Adds or replaces one run, newest first. */
  upsertRun(run: AgentRunDto): void {
    const others = this.#runs.filter((existing) => existing.run_id !== run.run_id);
    this.#runs = [run, ...others].sort((a, b) => b.created_at.localeCompare(a.created_at));
  }

  /** Shows another run; its events arrive again from the start. */
  select(runId: string | null): void {
    this.#selectedRunId = runId;
    this.#events = [];
  }

  /** Events of the selected run, each sequence once, in order. */
  appendEvent(envelope: EventEnvelope): void {
    if (envelope.resource_id !== this.#selectedRunId) return;
    if (this.#events.some((existing) => existing.sequence === envelope.sequence)) return;
    // The list's row was read when the run was queued; its own events say it has started.
    if (envelope.event === 'RunStarted') {
      const row = this.#runs.find((run) => run.run_id === envelope.resource_id);
      if (row?.status === 'queued') this.upsertRun({ ...row, status: 'running' });
    }
    const last = this.#events.at(-1);
    this.#events =
      last === undefined || last.sequence < envelope.sequence
        ? [...this.#events, envelope]
        : [...this.#events, envelope].sort((a, b) => a.sequence - b.sequence);
  }

  reset(): void {
    this.#input = '';
    this.#runs = [];
    this.#selectedRunId = null;
    this.#events = [];
    this.#busy = false;
    this.#totals = {};
  }
}

export const agentView = new AgentViewState();
