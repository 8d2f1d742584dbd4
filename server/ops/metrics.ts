// Counters and latency percentiles for GET /metrics and the load test.

/** The last `capacity` samples: percentiles follow current load, memory stays fixed. */
export class LatencyWindow {
  readonly #samples: number[] = [];
  readonly #capacity: number;
  #next = 0;

  constructor(capacity = 2048) {
    this.#capacity = capacity;
  }

  add(value: number): void {
    if (this.#samples.length < this.#capacity) this.#samples.push(value);
    else this.#samples[this.#next] = value;
    this.#next = (this.#next + 1) % this.#capacity;
  }

  get count(): number {
    return this.#samples.length;
  }

  /** Nearest-rank percentile (p in 0..100); null while there are no samples. */
  percentile(p: number): number | null {
    if (this.#samples.length === 0) return null;
    const sorted = [...this.#samples].sort((a, b) => a - b);
    const rank = Math.min(sorted.length, Math.max(1, Math.ceil((p / 100) * sorted.length)));
    return sorted[rank - 1] ?? null;
  }
}

export interface MetricsSnapshot {
  connections: number;
  queue_length: number;
  running: number;
  served: number;
  failed: number;
  cancelled: number;
  rejected: number;
  /** Enqueue to last reply, served tasks only, milliseconds. */
  latency_ms: { p50: number | null; p99: number | null };
  /** Enqueue to start, every started task, milliseconds. */
  queue_wait_ms: { p50: number | null; p99: number | null };
}

const round = (value: number | null) => (value === null ? null : Math.round(value * 10) / 10);

export class AgentMetrics {
  served = 0;
  failed = 0;
  cancelled = 0;
  rejected = 0;
  readonly latency = new LatencyWindow();
  readonly queueWait = new LatencyWindow();

  snapshot(live: { connections: number; queueLength: number; running: number }): MetricsSnapshot {
    return {
      connections: live.connections,
      queue_length: live.queueLength,
      running: live.running,
      served: this.served,
      failed: this.failed,
      cancelled: this.cancelled,
      rejected: this.rejected,
      latency_ms: { p50: round(this.latency.percentile(50)), p99: round(this.latency.percentile(99)) },
      queue_wait_ms: { p50: round(this.queueWait.percentile(50)), p99: round(this.queueWait.percentile(99)) },
    };
  }
}
