import { z } from 'zod';
import { listJobsSchema, parseInput, type JobDto, type ListJobsInput, type OffsetPage } from '../contracts';
import type { JobRuntime } from '../core/job-runtime';

const jobIdSchema = z.string().min(1, 'job_id is required');

export class JobsService {
  readonly #runtime: JobRuntime;

  constructor(runtime: JobRuntime) {
    this.#runtime = runtime;
  }

  async get(jobId: string): Promise<JobDto> {
    return this.#runtime.get(parseInput(jobIdSchema, jobId));
  }

  async list(input: ListJobsInput = {}): Promise<OffsetPage<JobDto>> {
    return this.#runtime.list(parseInput(listJobsSchema, input));
  }

  /** Accepted means recorded; the job's terminal event is the final answer (§5.3). */
  async cancel(jobId: string): Promise<JobDto> {
    return this.#runtime.cancel(parseInput(jobIdSchema, jobId));
  }
}
