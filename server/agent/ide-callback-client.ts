import {
  ideResultSchemas,
  type IdeCallbackAnswer,
  type IdeCallbackName,
  type IdeCallbackParams,
  type IdeCallbackRequest,
  type IdeResult,
  type RequestId,
} from '../protocol';

// Questions from the agent to the plugin (§3), matched to answers by a
// correlation id. Transport-free: it is given a `send` and gets answers pushed
// in, so the same code serves a socket and a test.

export type IdeCallbackFailure = 'timeout' | 'error' | 'invalid_result' | 'closed' | 'aborted' | 'unsent';

export class IdeCallbackError extends Error {
  override readonly name = 'IdeCallbackError';
  constructor(
    readonly reason: IdeCallbackFailure,
    message: string,
  ) {
    super(message);
  }
}

/** What a task may ask the IDE; tasks see only this. */
export interface IdeServices {
  call<K extends IdeCallbackName>(
    name: K,
    params: IdeCallbackParams[K],
    signal: AbortSignal,
  ): Promise<IdeResult<K>>;
}

interface Pending {
  name: IdeCallbackName;
  settle: (answer: IdeCallbackAnswer | IdeCallbackError) => void;
}

export class IdeCallbackClient {
  readonly #send: (frame: IdeCallbackRequest) => boolean;
  readonly #timeoutMs: number;
  readonly #idPrefix: string;
  readonly #pending = new Map<string, Pending>();
  #next = 0;
  #closed = false;

  constructor(options: {
    send: (frame: IdeCallbackRequest) => boolean;
    timeoutMs: number;
    idPrefix: string;
  }) {
    this.#send = options.send;
    this.#timeoutMs = options.timeoutMs;
    this.#idPrefix = options.idPrefix;
  }

  get pending(): number {
    return this.#pending.size;
  }

  /** The call-backs of one task: each frame names the task's request_id. */
  forTask(taskRequestId: RequestId): IdeServices {
    return { call: (name, params, signal) => this.call(name, params, signal, taskRequestId) };
  }

  call<K extends IdeCallbackName>(
    name: K,
    params: IdeCallbackParams[K],
    signal: AbortSignal,
    taskRequestId: RequestId,
  ): Promise<IdeResult<K>> {
    if (this.#closed) return Promise.reject(new IdeCallbackError('closed', 'The connection is closed'));
    if (signal.aborted) return Promise.reject(new IdeCallbackError('aborted', 'The task was cancelled'));
    const callbackId = `${this.#idPrefix}-${++this.#next}`;
    return new Promise<IdeResult<K>>((resolve, reject) => {
      const finish = (answer: IdeCallbackAnswer | IdeCallbackError) => {
        clearTimeout(timer);
        signal.removeEventListener('abort', onAbort);
        this.#pending.delete(callbackId);
        if (answer instanceof IdeCallbackError) return reject(answer);
        if (answer.error !== undefined) return reject(new IdeCallbackError('error', answer.error));
        const parsed = ideResultSchemas[name].safeParse(answer.result);
        if (!parsed.success)
          return reject(new IdeCallbackError('invalid_result', `${name}: unexpected result`));
        resolve(parsed.data as IdeResult<K>);
      };
      const onAbort = () => finish(new IdeCallbackError('aborted', 'The task was cancelled'));
      const timer = setTimeout(
        () => finish(new IdeCallbackError('timeout', `${name}: no answer in ${this.#timeoutMs} ms`)),
        this.#timeoutMs,
      );
      signal.addEventListener('abort', onAbort, { once: true });
      this.#pending.set(callbackId, { name, settle: finish });
      const frame = { callback_id: callbackId, task_request_id: taskRequestId, cmd: name, ...params };
      if (!this.#send(frame as IdeCallbackRequest)) {
        finish(new IdeCallbackError('unsent', 'The call-back could not be sent'));
      }
    });
  }

  /** Delivers an answer; false for unknown or late ids (the caller logs, never replies). */
  answer(answer: IdeCallbackAnswer): boolean {
    const pending = this.#pending.get(answer.callback_id);
    if (!pending) return false;
    pending.settle(answer);
    return true;
  }

  close(): void {
    this.#closed = true;
    for (const pending of [...this.#pending.values()]) {
      pending.settle(new IdeCallbackError('closed', 'The connection closed'));
    }
  }
}
