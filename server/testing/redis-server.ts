import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { createInterface } from 'node:readline';

// A real redis-server (Debian's package) for the multi-instance tests and the
// bench: loopback only, no persistence, on a free port; it can be stopped and
// started again on the same port to test recovery.

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

export class RedisServer {
  #child?: ChildProcess;

  private constructor(readonly port: number) {}

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  static async start(): Promise<RedisServer> {
    const server = new RedisServer(await freePort());
    await server.restart();
    return server;
  }

  /** Starts it (again) on its port; resolves once it accepts connections. */
  async restart(): Promise<void> {
    const child = spawn(
      'redis-server',
      ['--port', String(this.port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    this.#child = child;
    await new Promise<void>((resolve, reject) => {
      const lines: string[] = [];
      createInterface({ input: child.stdout! }).on('line', (line) => {
        lines.push(line);
        if (line.includes('Ready to accept connections')) resolve();
      });
      child.once('exit', (code) => reject(new Error(`redis-server exited (${code}): ${lines.join('\n')}`)));
      child.once('error', reject);
    });
  }

  /** For a process about to exit: no waiting. */
  killNow(): void {
    this.#child?.kill('SIGKILL');
  }

  /** Stops it at once, as a crash or an operator would. */
  async stop(): Promise<void> {
    const child = this.#child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
  }
}
