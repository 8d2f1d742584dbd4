/** "Now", refreshed every 30 s, so relative times ("5 minutes ago") stay true. */
export class Clock {
  #now = $state(Date.now());
  #timer: ReturnType<typeof setInterval> | null = null;

  get now(): number {
    return this.#now;
  }

  start(intervalMs = 30_000): void {
    if (this.#timer !== null) return;
    this.#timer = setInterval(() => {
      this.#now = Date.now();
    }, intervalMs);
  }

  stop(): void {
    if (this.#timer !== null) clearInterval(this.#timer);
    this.#timer = null;
  }

  reset(): void {
    this.stop();
    this.#now = Date.now();
  }
}

export const clock = new Clock();
