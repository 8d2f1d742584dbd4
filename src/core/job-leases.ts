/**
 * Which live tab drives a job. A runtime holds the lease of every job it has
 * queued or runs, until the job ends; a tab that closes or crashes loses its
 * leases with it. Start-up recovery in another tab therefore treats a job as
 * abandoned only when its lease is free, never because another tab drives it.
 * The browser adapter is Web Locks (src/services/web-lock-leases.ts); this
 * port keeps the runtime free of `navigator`.
 */
export interface JobLease {
  /** Frees the lease; calling it again does nothing. */
  release(): void;
}

export interface JobLeases {
  /** Takes `name` when it is free; null when another holder (a live tab) has it. Never waits. */
  tryHold(name: string): Promise<JobLease | null>;
}

export function jobLeaseName(jobId: string): string {
  return `notes-agent-job:${jobId}`;
}

/**
 * Every lease is free: one runtime alone in its storage (unit tests of one tab,
 * a browser without Web Locks), where any unfinished job found at start-up was
 * left by a runtime that is gone.
 */
export const unsharedLeases: JobLeases = {
  tryHold: async () => ({ release: () => undefined }),
};

/**
 * Leases shared by the "tabs" of one test, as Web Locks are by the tabs of one
 * origin: `tab()` gives each runtime its view, and `close()` on it frees what
 * that tab held, as a closed tab does.
 */
export class MemoryLeaseManager {
  readonly #held = new Set<string>();

  tab(): JobLeases & { close(): void } {
    const mine = new Set<string>();
    return {
      tryHold: async (name) => {
        if (this.#held.has(name)) return null;
        this.#held.add(name);
        mine.add(name);
        return {
          release: () => {
            if (!mine.delete(name)) return;
            this.#held.delete(name);
          },
        };
      },
      close: () => {
        for (const name of mine) this.#held.delete(name);
        mine.clear();
      },
    };
  }

  isHeld(name: string): boolean {
    return this.#held.has(name);
  }
}

/** A chat answer is leased like a job while it streams. */
export function chatLeaseName(messageId: string): string {
  return `notes-agent-chat:${messageId}`;
}
