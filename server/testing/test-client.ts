import { WebSocket } from 'ws';

// A real `ws` client for the integration tests, the fuzz loop and the bench:
// collects every frame and waits for replies by request_id.

// Frames are the agent's JSON objects; tests read their fields freely.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Frame = Record<string, any>;

export function isTerminal(frame: Frame): boolean {
  return (
    'error' in frame || 'models' in frame || (typeof frame.msg === 'string' && frame.stream_finish !== false)
  );
}

export class TestClient {
  readonly frames: Frame[] = [];
  /** Each frame's text as it came, same order: JSON.parse rounds ids beyond 2^53. */
  readonly texts: string[] = [];
  readonly closed: Promise<{ code: number; reason: string }>;
  #listeners = new Set<() => void>();

  private constructor(readonly socket: WebSocket) {
    socket.on('message', (data) => {
      this.texts.push(String(data));
      this.frames.push(JSON.parse(String(data)) as Frame);
      for (const listener of [...this.#listeners]) listener();
    });
    this.closed = new Promise((resolve) => {
      socket.on('close', (code, reason) => {
        resolve({ code, reason: reason.toString() });
        for (const listener of [...this.#listeners]) listener();
      });
    });
  }

  /** Resolves once the handshake is done; an auth refusal shows up later in `closed`. */
  static connect(
    url: string,
    key?: string,
    options: { protocols?: string[]; headers?: Record<string, string> } = {},
  ): Promise<TestClient> {
    const socket = new WebSocket(url, options.protocols, {
      headers: { ...(key === undefined ? {} : { 'X-Api-Key': key }), ...options.headers },
    });
    const client = new TestClient(socket);
    return new Promise((resolve, reject) => {
      socket.once('open', () => resolve(client));
      socket.once('error', reject);
    });
  }

  send(frame: object | string | Buffer): void {
    this.socket.send(typeof frame === 'string' || Buffer.isBuffer(frame) ? frame : JSON.stringify(frame));
  }

  get isOpen(): boolean {
    return this.socket.readyState === WebSocket.OPEN;
  }

  /**
   * The first frame (already received or still to come) that matches. No time limit unless one is
   * given: on a busy machine a frame may take long, and the test's own limit still ends a hang.
   */
  waitFor(predicate: (frame: Frame) => boolean, timeoutMs?: number): Promise<Frame> {
    return new Promise((resolve, reject) => {
      const check = () => {
        const found = this.frames.find(predicate);
        if (found) {
          done();
          resolve(found);
        } else if (this.socket.readyState === WebSocket.CLOSED) {
          done();
          reject(new Error('The socket closed before the frame came'));
        }
      };
      const timer =
        timeoutMs === undefined
          ? undefined
          : setTimeout(() => {
              done();
              reject(
                new Error(
                  `No matching frame within ${timeoutMs} ms; got ${JSON.stringify(this.frames.slice(-5))}`,
                ),
              );
            }, timeoutMs);
      const done = () => {
        clearTimeout(timer);
        this.#listeners.delete(check);
      };
      this.#listeners.add(check);
      check();
    });
  }

  /** Every reply for the request, in order, once its terminal reply has come. */
  async replies(requestId: unknown, timeoutMs?: number): Promise<Frame[]> {
    await this.waitFor((frame) => frame.request_id === requestId && isTerminal(frame), timeoutMs);
    return this.frames.filter((frame) => frame.request_id === requestId);
  }

  /** Sends a request and resolves with its replies. */
  async request(frame: Frame, timeoutMs?: number): Promise<Frame[]> {
    this.send(frame);
    return this.replies(frame.request_id, timeoutMs);
  }

  close(): Promise<{ code: number; reason: string }> {
    this.socket.close(1000);
    return this.closed;
  }
}
