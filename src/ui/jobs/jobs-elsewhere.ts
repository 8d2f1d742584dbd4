import { CoalescedRun } from '../../core/cross-tab-changes';
import { isTerminalStatus, type JobDto } from '../../contracts/jobs';
import { INDEX_REBUILD_JOB_KIND, INDEX_UPDATE_JOB_KIND } from '../../contracts/search';
import type { JobsState } from './jobs.svelte';

const UNSHOWN_KINDS: readonly string[] = [INDEX_UPDATE_JOB_KIND, INDEX_REBUILD_JOB_KIND];

/** How many unshown jobs are remembered: far more than run at once, few enough to stay small. */
const MAX_UNSHOWN_REMEMBERED = 256;

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

  constructor(jobs: JobsState, read: (jobId: string) => Promise<JobDto>) {
    this.#jobs = jobs;
    this.#read = read;
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
      this.#rememberUnshown(jobId);
      return;
    }
    if (this.#jobs.get(jobId)) this.#jobs.update(job);
    else {
      // Named by its file, as the tab that started it names it; its end is that tab's to announce.
      const fileName = job.input['file_name'];
      this.#jobs.showElsewhere(job, typeof fileName === 'string' ? fileName : null);
    }
    if (isTerminalStatus(job.status)) this.#readers.delete(jobId);
  }

  #rememberUnshown(jobId: string): void {
    this.#unshown.add(jobId);
    // A Set keeps the order ids came in: the oldest goes first.
    if (this.#unshown.size > MAX_UNSHOWN_REMEMBERED) {
      const oldest = this.#unshown.values().next().value;
      if (oldest !== undefined) this.#unshown.delete(oldest);
    }
  }
}
