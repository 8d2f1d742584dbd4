import type {
  IMetonaProviderAdapter,
  MetonaCallOptions,
  MetonaModelInfo,
  MetonaRequest,
  MetonaResponse,
  MetonaStreamEvent,
} from '../../src/ir';

export interface ObservedCall {
  request: MetonaRequest;
  /** Set when the upstream call saw its AbortSignal fire. */
  abortedAt?: number;
  settled: Promise<'resolved' | 'rejected'>;
}

/**
 * Wraps a real adapter (the mock in tests) and records each call, including
 * whether the abort reached the upstream call, so tests observe cancellation
 * at the provider, not only at the socket.
 */
export class ObservedAdapter implements IMetonaProviderAdapter {
  readonly calls: ObservedCall[] = [];
  #waiters: ((call: ObservedCall) => void)[] = [];
  #gate: Promise<void> | null = null;

  constructor(readonly inner: IMetonaProviderAdapter) {}

  get providerId() {
    return this.inner.providerId;
  }
  get supportedModels() {
    return this.inner.supportedModels;
  }
  getContextWindow(model: string): number {
    return this.inner.getContextWindow(model);
  }
  healthCheck(): Promise<boolean> {
    return this.inner.healthCheck();
  }
  listModels(): Promise<MetonaModelInfo[]> {
    return this.inner.listModels();
  }
  send(request: MetonaRequest, options?: MetonaCallOptions): Promise<MetonaResponse> {
    return this.sendStream(request, () => undefined, options);
  }

  sendStream(
    request: MetonaRequest,
    onEvent: (event: MetonaStreamEvent) => void,
    options: MetonaCallOptions = {},
  ): Promise<MetonaResponse> {
    // A held call is recorded at once but reaches the model only when the test releases it.
    const promise = this.#gate
      ? this.#gate.then(() => this.inner.sendStream(request, onEvent, options))
      : this.inner.sendStream(request, onEvent, options);
    const call: ObservedCall = {
      request,
      settled: promise.then(
        () => 'resolved' as const,
        () => 'rejected' as const,
      ),
    };
    options.signal?.addEventListener('abort', () => (call.abortedAt = Date.now()), { once: true });
    this.calls.push(call);
    for (const waiter of this.#waiters.splice(0)) waiter(call);
    return promise;
  }

  /**
   * Holds every later call before the model until the returned release is called, so a
   * test can act while a task is running without racing a scenario's delay.
   */
  hold(): () => void {
    let release!: () => void;
    this.#gate = new Promise<void>((resolve) => (release = resolve));
    return () => {
      this.#gate = null;
      release();
    };
  }

  /** The n-th call (0-based), once it has been made. */
  async call(index: number): Promise<ObservedCall> {
    while (!this.calls[index]) await new Promise<ObservedCall>((resolve) => this.#waiters.push(resolve));
    return this.calls[index];
  }
}
