import type { z } from 'zod';
import type { jobProgressSchema, jobSchema } from './job-schemas';

// The statuses live apart so that job-schemas.ts can use them without importing this module back.
export * from './job-status';

export type JobProgress = z.infer<typeof jobProgressSchema>;
export type JobDto = z.infer<typeof jobSchema>;

/** Job lifecycle events; names follow §5.3 (`Queued`, `Progress`, `Completed`, ...). */
export const JOB_EVENT_NAMES = ['Queued', 'Started', 'Progress', 'Completed', 'Failed', 'Cancelled'] as const;
export type JobEventName = (typeof JOB_EVENT_NAMES)[number];
