import { CoalescedRun } from '../../core/cross-tab-changes';
import { isTerminalStatus, type JobDto } from '../../contracts/jobs';
import { INDEX_REBUILD_JOB_KIND, INDEX_UPDATE_JOB_KIND } from '../../contracts/search';
import type { JobsState } from './jobs.svelte';

const UNSHOWN_KINDS: readonly string[] = [INDEX_UPDATE_JOB_KIND, INDEX_REBUILD_JOB_KIND];

/**
 * Jobs another tab drives, shown in this tab's panel. This tab's core never sees their
 * events (each tab has its own), so each message about one reads the job's row again;
 * a burst of progress messages costs one read in flight and one after it.
 */
export class JobsElsewhere {
  readonly #jobs: JobsState;
  readonly #read: (jobId: string) => Promise<JobDto>;
  readonly #readers = new Map<string, CoalescedRun>();

  constructor(jobs: JobsState, read: (jobId: string) => Promise<JobDto>) {
    this.#jobs = jobs;
    this.#read = read;
  }

  /** Another tab stored an event of this job. */
  changed(jobId: string): Promise<void> {
    let reader = this.#readers.get(jobId);
    if (!reader) {
      reader = new CoalescedRun(() => this.#show(jobId));
      this.#readers.set(jobId, reader);
    }
    return reader.request();
  }

  async #show(jobId: string): Promise<void> {
    const job = await this.#read(jobId);
    // Search index jobs run on their own, in every tab; the panel never lists them.
    if (UNSHOWN_KINDS.includes(job.kind)) {
      this.#readers.delete(jobId);
      return;
    }
    if (this.#jobs.get(jobId)) this.#jobs.update(job);
    else {
      // Named by its file, as the tab that started it names it; its end is that tab's to announce.
      const fileName = job.input['file_name'];
      this.#jobs.track(job, { label: typeof fileName === 'string' ? fileName : null });
    }
    if (isTerminalStatus(job.status)) this.#readers.delete(jobId);
  }
}
