import type { EventEnvelope, JobDto, JobStatus } from '../contracts';

export interface JobListQuery {
  kind?: string;
  status?: JobStatus;
  limit: number;
  offset: number;
}

/** Persistence for jobs; the runtime owns every write. */
export interface JobStore {
  put(job: JobDto): Promise<void>;
  get(jobId: string): Promise<JobDto | undefined>;
  /** Newest first. */
  list(query: JobListQuery): Promise<{ items: JobDto[]; total: number }>;
  listByStatus(statuses: readonly JobStatus[]): Promise<JobDto[]>;
  /** Removes the jobs and their event history (pruning finished jobs). */
  delete(jobIds: readonly string[]): Promise<void>;
  /**
   * Optional, for stores that keep events too: in one transaction, reads the
   * job, writes `change(current)` (undefined: nothing is written) and appends
   * `event` for it. The row and its event are stored together or not at all;
   * a store without it gets a read, a put and a separate append.
   */
  readonly commit?: (
    jobId: string,
    change: (current: JobDto | undefined) => JobDto | undefined,
    event: JobEventDraft,
  ) => Promise<{ job: JobDto; envelope: EventEnvelope } | undefined>;
}

/** An event to append with a job's row; `data` may depend on the row written. */
export interface JobEventDraft {
  event: string;
  data: (job: JobDto) => unknown;
  timestamp: string;
}

export class MemoryJobStore implements JobStore {
  readonly #jobs = new Map<string, JobDto>();

  async put(job: JobDto): Promise<void> {
    this.#jobs.set(job.job_id, structuredClone(job));
  }

  async get(jobId: string): Promise<JobDto | undefined> {
    const job = this.#jobs.get(jobId);
    return job && structuredClone(job);
  }

  async list(query: JobListQuery): Promise<{ items: JobDto[]; total: number }> {
    const matching = [...this.#jobs.values()]
      .filter(
        (job) =>
          (query.kind === undefined || job.kind === query.kind) &&
          (query.status === undefined || job.status === query.status),
      )
      .sort((a, b) => b.created_at.localeCompare(a.created_at));
    return {
      items: matching.slice(query.offset, query.offset + query.limit).map((job) => structuredClone(job)),
      total: matching.length,
    };
  }

  async listByStatus(statuses: readonly JobStatus[]): Promise<JobDto[]> {
    return [...this.#jobs.values()]
      .filter((job) => statuses.includes(job.status))
      .map((job) => structuredClone(job));
  }

  async delete(jobIds: readonly string[]): Promise<void> {
    for (const jobId of jobIds) this.#jobs.delete(jobId);
  }
}
