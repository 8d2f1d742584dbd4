import { z } from 'zod';
import { isoUtcPattern } from './time';
import { errorEnvelopeSchema } from './validation';
import { JOB_STATUSES, isTerminalStatus } from './job-status';
import { pageQuerySchema } from './pages';

/** §4.2. `processing` is the first phase's name for `running`; accept, never emit it. */
export const jobStatusSchema = z.preprocess(
  (value) => (value === 'processing' ? 'running' : value),
  z.enum(JOB_STATUSES),
);

/** `percent` may be null (unknown total); callers must not read 100 as completed. */
export const jobProgressSchema = z.object({
  phase: z.string().min(1),
  current: z.number().nonnegative(),
  total: z.number().nonnegative().nullable(),
  percent: z.number().min(0).max(100).nullable(),
  message: z.string().nullable().default(null),
});

const isoString = z.string().regex(isoUtcPattern, 'expected a UTC ISO 8601 timestamp');

export const jobSchema = z
  .object({
    job_id: z.string().min(1),
    kind: z.string().min(1),
    status: jobStatusSchema,
    progress: jobProgressSchema.nullable(),
    input: z.record(z.string(), z.unknown()).default({}),
    result: z.unknown().nullable().default(null),
    error: errorEnvelopeSchema.shape.error.nullable(),
    created_at: isoString,
    started_at: isoString.nullable(),
    updated_at: isoString,
    completed_at: isoString.nullable(),
  })
  .superRefine((job, ctx) => {
    const terminal = isTerminalStatus(job.status);
    if (terminal && job.completed_at === null) {
      ctx.addIssue({ code: 'custom', path: ['completed_at'], message: 'a terminal job needs completed_at' });
    }
    if (!terminal && job.completed_at !== null) {
      ctx.addIssue({
        code: 'custom',
        path: ['completed_at'],
        message: 'only terminal jobs have completed_at',
      });
    }
    if (job.status === 'failed' && job.error === null) {
      ctx.addIssue({ code: 'custom', path: ['error'], message: 'a failed job needs a project error code' });
    }
  });

export const listJobsSchema = pageQuerySchema.extend({
  kind: z.string().min(1).optional(),
  status: z.enum(JOB_STATUSES).optional(),
});
export type ListJobsInput = z.input<typeof listJobsSchema>;
