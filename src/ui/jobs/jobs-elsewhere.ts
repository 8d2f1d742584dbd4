import { CoalescedRun } from '../../core/cross-tab-changes';
import { isTerminalStatus, type JobDto } from '../../contracts/jobs';
import { INDEX_REBUILD_JOB_KIND, INDEX_UPDATE_JOB_KIND } from '../../contracts/search';
import { showJobEndToast } from './job-end-toast';
import { jobKindLabel, type TrackedJob } from './job-events';
import type { JobsState } from './jobs.svelte';

const UNSHOWN_KINDS: readonly string[] = [INDEX_UPDATE_JOB_KIND, INDEX_REBUILD_JOB_KIND];

/** How many job ids each set remembers: far more than run at once, few enough to stay small. */
const MAX_REMEMBERED = 256;

/** Adds the id, forgetting the oldest one past the bound (a Set keeps the order ids came in). */
function remember(ids: Set<string>, jobId: string): void {
  ids.add(jobId);
  if (ids.size > MAX_REMEMBERED) {
    const oldest = ids.values().next().value;
    if (oldest !== undefined) ids.delete(oldest);
  }
}

/**
 * Jobs another tab drives, shown in this tab's panel. This tab's core never sees their
 * events (each tab has its own), so each message about one reads the job's row again;
 * a burst of progress messages costs one read in flight and one after it.
 */
export class JobsElsewhere {
  readonly #jobs: JobsState;
  readonly #read: (jobId: string) => Promise<JobDto>;
  readonly #readers = new Map<string, CoalescedRun>();
  /** Jobs read once and found to be ones the panel never lists: later messages are dropped unread. */
  readonly #unshown = new Set<string>();
  /** Jobs whose end this tab has said: a late message, or one about a dismissed row, says it no more. */
  readonly #told = new Set<string>();
  readonly #onEnded: (job: TrackedJob) => void;

  /**
   * `onEnded`: said once when an import another tab runs ends. The user may have gone on to
   * this tab meanwhile; the tab that ran it says it too, from its own core's events.
   */
  constructor(
    jobs: JobsState,
    read: (jobId: string) => Promise<JobDto>,
    onEnded: (job: TrackedJob) => void = showJobEndToast,
  ) {
    this.#jobs = jobs;
    this.#read = read;
    this.#onEnded = onEnded;
  }

  /** Another tab stored an event of this job. */
  changed(jobId: string): Promise<void> {
    if (this.#unshown.has(jobId)) return Promise.resolve();
    let reader = this.#readers.get(jobId);
    if (!reader) {
      reader = new CoalescedRun(() => this.#show(jobId));
      this.#readers.set(jobId, reader);
    }
    return reader.request();
  }

  async #show(jobId: string): Promise<void> {
    if (this.#unshown.has(jobId)) return;
    const job = await this.#read(jobId);
    // Search index jobs run on their own, in every tab; the panel never lists them.
    if (UNSHOWN_KINDS.includes(job.kind)) {
      this.#readers.delete(jobId);
      remember(this.#unshown, jobId);
      return;
    }
    const before = this.#jobs.get(jobId);
    if (before) this.#jobs.update(job);
    else {
      // Named by its file, as the tab that started it names it.
      const fileName = job.input['file_name'];
      this.#jobs.showElsewhere(job, typeof fileName === 'string' ? fileName : null);
    }
    if (isTerminalStatus(job.status)) this.#readers.delete(jobId);
    this.#tellEnd(jobId, before);
  }

  /**
   * On the read that first finds it over, and only for imports: a model download's end is for
   * the tab that chose the model to act on, and "Import failed" would misname it here.
   */
  #tellEnd(jobId: string, before: TrackedJob | undefined): void {
    const after = this.#jobs.get(jobId);
    if (!after || !isTerminalStatus(after.status) || this.#told.has(jobId)) return;
    if (before && isTerminalStatus(before.status)) return;
    remember(this.#told, jobId);
    if (jobKindLabel(after.kind) === 'import') this.#onEnded(after);
  }
}
