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
});
