import Dexie from 'dexie';
import type { EventEnvelope, JobDto, JobStatus } from '../contracts';
import type { JobEventDraft, JobListQuery, JobStore } from '../core/job-store';
import type { NotesAgentDatabase } from './database';
import type { EventRepository } from './event-repository';
import { guardQuota } from './storage-errors';

export class JobRepository implements JobStore {
  readonly #db: NotesAgentDatabase;
  readonly commit: JobStore['commit'];

  /**
   * With `events` (the repository the job runtime's EventLog writes to), a job's
   * row and its lifecycle event share one transaction (see JobStore.commit).
   */
  constructor(db: NotesAgentDatabase, events?: EventRepository) {
    this.#db = db;
    this.commit = events ? (jobId, change, draft) => this.#commit(events, jobId, change, draft) : undefined;
  }

  async #commit(
    events: EventRepository,
    jobId: string,
    change: (current: JobDto | undefined) => JobDto | undefined,
    draft: JobEventDraft,
  ): Promise<{ job: JobDto; envelope: EventEnvelope } | undefined> {
    const done = await events.appendWith(jobId, draft.event, draft.timestamp, [this.#db.jobs], async () => {
      const next = change(await this.#db.jobs.get(jobId));
      if (next === undefined) return undefined;
      await this.#db.jobs.put(next);
      return { value: next, data: draft.data(next) };
    });
    return done && { job: done.value, envelope: done.envelope };
  }

  async put(job: JobDto): Promise<void> {
    await guardQuota(() => this.#db.jobs.put(job));
  }

  get(jobId: string): Promise<JobDto | undefined> {
    return this.#db.jobs.get(jobId);
  }

  async list(query: JobListQuery): Promise<{ items: JobDto[]; total: number }> {
    if (query.kind !== undefined) {
      // One kind (pruning, the indexer) reads its own rows by the kind index,
      // not every job: newest first, ties as the created_at index orders them.
      const all = (await this.#db.jobs.where('kind').equals(query.kind).toArray())
        .filter((job) => query.status === undefined || job.status === query.status)
        .sort((a, b) => compareDesc(a.created_at, b.created_at) || compareDesc(a.job_id, b.job_id));
      return { items: all.slice(query.offset, query.offset + query.limit), total: all.length };
    }
    const collection = this.#db.jobs
      .orderBy('created_at')
      .reverse()
      .filter(
        (job) =>
          (query.kind === undefined || job.kind === query.kind) &&
          (query.status === undefined || job.status === query.status),
      );
    const all = await collection.toArray();
    return { items: all.slice(query.offset, query.offset + query.limit), total: all.length };
  }

  listByStatus(statuses: readonly JobStatus[]): Promise<JobDto[]> {
    return this.#db.jobs
      .where('status')
      .anyOf([...statuses])
      .toArray();
  }

  async delete(jobIds: readonly string[]): Promise<void> {
    if (jobIds.length === 0) return;
    await this.#db.transaction('rw', this.#db.jobs, this.#db.events, async () => {
      await this.#db.jobs.bulkDelete([...jobIds]);
      for (const jobId of jobIds) {
        await this.#db.events
          .where('[resource_id+sequence]')
          .between([jobId, Dexie.minKey], [jobId, Dexie.maxKey])
          .delete();
      }
    });
  }
}

function compareDesc(a: string, b: string): number {
  return a < b ? 1 : a > b ? -1 : 0;
}
