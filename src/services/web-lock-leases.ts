import { unsharedLeases, type JobLease, type JobLeases } from '../core/job-leases';

/**
 * Job leases as Web Locks, shared by every tab (and its workers) of the origin:
 * a lock is held until released or until its tab goes, so a job whose lock is
 * free has nobody driving it. Without the API (Node tests, old browsers) every
 * lease is free, as before leases existed.
 */
export function webLockLeases(locks: LockManager | undefined = lockManager()): JobLeases {
  if (!locks) return unsharedLeases;
  return {
    tryHold: (name) =>
      new Promise<JobLease | null>((resolve) => {
        let release!: () => void;
        const released = new Promise<void>((done) => (release = done));
        locks
          .request(name, { ifAvailable: true }, (lock) => {
            if (!lock) {
              resolve(null);
              return undefined;
            }
            resolve({ release: () => release() });
            // The lock is held until this promise settles.
            return released;
          })
          // A context that refuses locks (a sandboxed frame) runs as a lone tab would, not without jobs.
          .catch(() => resolve({ release: () => undefined }));
      }),
  };
}

function lockManager(): LockManager | undefined {
  const nav = (globalThis as { navigator?: { locks?: LockManager } }).navigator;
  return nav?.locks;
}
