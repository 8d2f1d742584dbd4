import type { JobRuntime } from '../../core/job-runtime';

/**
 * Follows the job, cancels it at its first Progress event, and returns the
 * name of every event it published once its stream has ended and the runtime
 * is idle.
 */
export async function cancelAtFirstProgress(runtime: JobRuntime, jobId: string): Promise<string[]> {
  const names: string[] = [];
  let cancelled = false;
  const subscription = runtime.subscribe(jobId, 0, (envelope) => {
    names.push(envelope.event);
    if (envelope.event === 'Progress' && !cancelled) {
      cancelled = true;
      void runtime.cancel(jobId);
    }
  });
  await subscription.closed;
  await runtime.idle();
  return names;
}
