import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { describe, expect, it } from 'vitest';
import { TestClient } from './testing/test-client';

describe('server/main.ts', () => {
  it('starts from the environment, serves, logs JSON without secrets, and stops on SIGTERM', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
      cwd: new URL('..', import.meta.url),
      env: {
        ...process.env,
        AGENT_SERVER_PORT: '0',
        AGENT_SERVER_API_KEYS: 'smoke-secret-key',
        AGENT_SERVER_MOCK: '1',
        AGENT_SERVER_OLLAMA_URL: 'http://127.0.0.1:9',
        AGENT_SERVER_CONFIG: '',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const lines: string[] = [];
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    const port = await new Promise<number>((resolve, reject) => {
      createInterface({ input: child.stdout }).on('line', (line) => {
        lines.push(line);
        const entry = JSON.parse(line) as { event: string; port?: number };
        if (entry.event === 'server_listening') resolve(entry.port!);
      });
      child.on('exit', () => reject(new Error(`exited early: ${lines.join('\n')}`)));
    });

    expect((await fetch(`http://127.0.0.1:${port}/health`)).status).toBe(200);
    const client = await TestClient.connect(`ws://127.0.0.1:${port}/ws`, 'smoke-secret-key');
    const replies = await client.request({
      cmd: 'exec_chat',
      request_id: 1,
      model: 'mock-1',
      msg: 'private text',
    });
    expect(replies).toEqual([{ request_id: 1, msg: 'Hello! How can I help you today?' }]);
    const models = await client.request({ cmd: 'list_model', request_id: 2 });
    expect(models[0]!.models).toEqual(['mock-1']);

    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    const events = lines.map((line) => (JSON.parse(line) as { event: string }).event);
    expect(events).toEqual(
      expect.arrayContaining(['server_listening', 'task_finished', 'shutdown_finished']),
    );
    const log = lines.join('\n');
    expect(log).not.toContain('smoke-secret-key');
    expect(log).not.toContain('private text');
  }, 20_000);

  it('`npm run agent-server` stops on SIGTERM to the npm process, with close frames to its clients', async () => {
    const child = spawn('npm', ['run', 'agent-server'], {
      cwd: new URL('..', import.meta.url),
      env: {
        ...process.env,
        AGENT_SERVER_PORT: '0',
        AGENT_SERVER_API_KEYS: 'npm-secret-key',
        AGENT_SERVER_MOCK: '1',
        AGENT_SERVER_OLLAMA_URL: 'http://127.0.0.1:9',
        AGENT_SERVER_CONFIG: '',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    const port = await new Promise<number>((resolve, reject) => {
      createInterface({ input: child.stdout }).on('line', (line) => {
        if (!line.startsWith('{')) return; // npm's own banner
        const entry = JSON.parse(line) as { event: string; port?: number };
        if (entry.event === 'server_listening') resolve(entry.port!);
      });
      child.on('exit', () => reject(new Error('npm exited before the server listened')));
    });
    const client = await TestClient.connect(`ws://127.0.0.1:${port}/ws`, 'npm-secret-key');
    expect((await client.request({ cmd: 'list_model', request_id: 1 }))[0]).toHaveProperty('models');

    child.kill('SIGTERM');
    expect(await client.closed).toEqual({ code: 1001, reason: 'server shutting down' });
    expect(await exited).toBe(0);
    // Nothing listens any more: the server did not outlive npm.
    await expect(fetch(`http://127.0.0.1:${port}/health`)).rejects.toThrow();
  }, 20_000);
});
