import Dexie from 'dexie';
import type { JobDto, JobStatus } from '../contracts';
import type { JobListQuery, JobStore } from '../core/job-store';
import type { NotesAgentDatabase } from './database';
import { guardQuota } from './storage-errors';

export class JobRepository implements JobStore {
  readonly #db: NotesAgentDatabase;

  constructor(db: NotesAgentDatabase) {
    this.#db = db;
  }

  async put(job: JobDto): Promise<void> {
    await guardQuota(() => this.#db.jobs.put(job));
  }

  get(jobId: string): Promise<JobDto | undefined> {
    return this.#db.jobs.get(jobId);
  }

  async list(query: JobListQuery): Promise<{ items: JobDto[]; total: number }> {
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
