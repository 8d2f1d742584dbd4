import type { EventEnvelope } from '../../contracts/events';
import { isTerminalStatus, type JobDto } from '../../contracts/jobs';
import { subscribeJob } from '../api/core-client';
import { applyJobEvent, mergeJobDto, trackedFromDto, type TrackedJob } from './job-events';

export type SubscribeJob = (jobId: string, onEvent: (envelope: EventEnvelope) => void) => () => void;

export interface TrackOptions {
  label?: string | null;
  /** Called once, with the job as it ended. */
  onFinished?: (job: TrackedJob) => void;
}

/** Every job the UI watches, by id: status and progress, fed by the job's event stream. */
export class JobsState {
  #jobs = $state.raw<Record<string, TrackedJob>>({});
  // Bookkeeping only, never rendered: a plain Map on purpose.
  // eslint-disable-next-line svelte/prefer-svelte-reactivity
  readonly #subscriptions = new Map<string, () => void>();
  readonly #subscribe: SubscribeJob;

  readonly list: TrackedJob[] = $derived(Object.values(this.#jobs));
  readonly active: boolean = $derived(this.list.some((job) => !isTerminalStatus(job.status)));
  readonly finishedCount: number = $derived(this.list.filter((job) => isTerminalStatus(job.status)).length);

  constructor(subscribe: SubscribeJob = subscribeJob) {
    this.#subscribe = subscribe;
  }

  get(jobId: string): TrackedJob | undefined {
    return this.#jobs[jobId];
  }

  /** Starts watching a job; the subscription replays what already happened. */
  track(job: JobDto, options: TrackOptions = {}): void {
    const existing = this.#jobs[job.job_id];
    this.#put(existing ? mergeJobDto(existing, job) : trackedFromDto(job, options.label ?? null));
    if (this.#subscriptions.has(job.job_id)) return;
    let finished = false;
    const unsubscribe = this.#subscribe(job.job_id, (envelope) => {
      const current = this.#jobs[job.job_id];
      if (!current) return;
      const next = applyJobEvent(current, envelope);
      if (next === current) return;
      this.#put(next);
      if (!finished && isTerminalStatus(next.status)) {
        finished = true;
        this.#subscriptions.get(job.job_id)?.();
        this.#subscriptions.delete(job.job_id);
        options.onFinished?.(next);
      }
    });
    if (!finished) this.#subscriptions.set(job.job_id, unsubscribe);
    else unsubscribe();
  }

  /**
   * Lists a job another tab runs. Not subscribed: this tab's core never sees its events, so
   * its updates come as fresher snapshots (`update`).
   */
  showElsewhere(job: JobDto, label: string | null): void {
    const existing = this.#jobs[job.job_id];
    this.#put(existing ? mergeJobDto(existing, job) : { ...trackedFromDto(job, label), elsewhere: true });
  }

  /** A fresher snapshot, e.g. the answer to `jobs.cancel`. */
  update(job: JobDto): void {
    const existing = this.#jobs[job.job_id];
    if (existing) this.#put(mergeJobDto(existing, job));
  }

  dismiss(jobId: string): void {
    this.#subscriptions.get(jobId)?.();
    this.#subscriptions.delete(jobId);
    const { [jobId]: _removed, ...rest } = this.#jobs;
    this.#jobs = rest;
  }

  clearFinished(): void {
    for (const job of this.list) if (isTerminalStatus(job.status)) this.dismiss(job.job_id);
  }

  reset(): void {
    for (const unsubscribe of this.#subscriptions.values()) unsubscribe();
    this.#subscriptions.clear();
    this.#jobs = {};
  }

  #put(job: TrackedJob): void {
    this.#jobs = { ...this.#jobs, [job.job_id]: job };
  }
}

export const jobs = new JobsState();
