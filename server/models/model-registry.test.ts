import { createServer } from 'node:http';
import { describe, expect, it } from 'vitest';
import { MockAdapter } from '../../src/providers/mock';
import { loadConfig } from '../config';
import { createModelRegistry } from './create-registry';
import { ModelRegistry, type LocalEngine } from './model-registry';

function fakeLocal(models: string[]): LocalEngine & { asked: string[] } {
  const asked: string[] = [];
  return {
    asked,
    listModels: async () => models,
    adapterFor: (model) => {
      asked.push(model);
      return new MockAdapter();
    },
  };
}

describe('ModelRegistry', () => {
  it('lists local models with the "local " prefix, then remote ones', async () => {
    const registry = new ModelRegistry({
      local: fakeLocal(['deepseek-r1:32b', 'qwen3:8b']),
      configuredLocal: ['deepseek-r1:32b'],
      remote: [{ model: 'deepseek-chat', adapter: new MockAdapter() }],
    });
    expect(await registry.list()).toEqual(['local deepseek-r1:32b', 'local qwen3:8b', 'deepseek-chat']);
  });

  it('routes "local <name>" to the local engine and other names to remote adapters', () => {
    const local = fakeLocal([]);
    const remote = new MockAdapter();
    const registry = new ModelRegistry({ local, remote: [{ model: 'deepseek-R1:32b', adapter: remote }] });
    expect(registry.resolve('local deepseek-r1:32b')?.name).toBe('local deepseek-r1:32b');
    expect(local.asked).toEqual(['deepseek-r1:32b']);
    expect(registry.resolve('deepseek-r1:32b')?.adapter).toBe(remote);
    expect(registry.resolve('gpt-9')).toBeUndefined();
    expect(registry.resolve('local ')).toBeUndefined();
    expect(new ModelRegistry({}).resolve('local x')).toBeUndefined();
  });

  it('names the backend each model uses, so each gets its own concurrency limit', () => {
    const registry = new ModelRegistry({
      local: fakeLocal([]),
      remote: [
        { model: 'a', adapter: new MockAdapter() },
        { model: 'b', adapter: new MockAdapter() },
      ],
    });
    expect(registry.resolve('local x')?.backend).toBe('local');
    expect(registry.resolve('a')?.backend).toBe('remote-mock');
    expect(registry.backends()).toEqual(['local', 'remote-mock']);
    expect(new ModelRegistry({}).backends()).toEqual([]);
  });

  it('picks a default model for commands that name none: the configured one, else list_model’s first', async () => {
    expect(
      await new ModelRegistry({ remote: [{ model: 'a', adapter: new MockAdapter() }] }).defaultModel(),
    ).toBe('a');
    expect(await new ModelRegistry({ configuredLocal: ['q'] }).defaultModel()).toBe('local q');
    expect(await new ModelRegistry({ defaultModel: 'x', configuredLocal: ['q'] }).defaultModel()).toBe('x');
    // A fresh machine: only Ollama, no config file, no remote provider.
    const ollamaOnly = new ModelRegistry({ local: fakeLocal(['qwen-test:1b', 'deepseek-r1:32b']) });
    expect(await ollamaOnly.defaultModel()).toBe((await ollamaOnly.list())[0]);
    expect(await ollamaOnly.defaultModel()).toBe('local qwen-test:1b');
    expect(await new ModelRegistry({ local: fakeLocal([]) }).defaultModel()).toBeUndefined();
  });
});

describe('createModelRegistry', () => {
  it('builds the mock provider and an unreachable Ollama degrades to configured models', async () => {
    const config = loadConfig({
      env: { AGENT_SERVER_MOCK: '1', AGENT_SERVER_OLLAMA_URL: 'http://127.0.0.1:9' },
      readFile: () => '',
    });
    config.providers.local!.models.push('llama3');
    const registry = createModelRegistry(config, {});
    expect(await registry.list()).toEqual(['local llama3', 'mock-1']);
    expect(registry.resolve('mock-1')?.adapter.providerId).toBe('mock');
    expect(registry.resolve('local llama3')?.adapter.providerId).toBe('ollama');
  });
});

describe('the local engine (Ollama)', () => {
  it('lists the pulled models and runs `local <name>` through Ollama’s /api/chat', async () => {
    const seen: { path: string; model?: string }[] = [];
    const ollama = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk) => (body += chunk));
      request.on('end', () => {
        seen.push({
          path: request.url ?? '',
          model: body ? (JSON.parse(body) as { model: string }).model : undefined,
        });
        if (request.url === '/api/tags') {
          response.end(JSON.stringify({ models: [{ name: 'qwen3:0.6b' }] }));
          return;
        }
        response.setHeader('Content-Type', 'application/x-ndjson');
        response.write('{"message":{"role":"assistant","content":"local "},"done":false}\n');
        response.end(
          '{"message":{"role":"assistant","content":"answer"},"done":true,"done_reason":"stop"}\n',
        );
      });
    });
    await new Promise<void>((resolve) => ollama.listen(0, '127.0.0.1', resolve));
    const { port } = ollama.address() as { port: number };
    try {
      const config = loadConfig({
        env: { AGENT_SERVER_OLLAMA_URL: `http://127.0.0.1:${port}` },
        readFile: () => '',
      });
      const registry = createModelRegistry(config, {});
      expect(await registry.list()).toEqual(['local qwen3:0.6b']);
      const resolved = registry.resolve('local qwen3:0.6b')!;
      const response = await resolved.adapter.send({
        meta: { sessionId: 's', iteration: 1, requestId: 'r', timestamp: 0, agentVersion: 't' },
        systemPrompt: { roleDefinition: '', outputConstraints: '', safetyGuidelines: '' },
        messages: [{ role: 'user', content: 'hi', timestamp: 0 }],
        params: { stream: true },
      });
      expect(response.content).toBe('local answer');
      expect(seen.at(-1)).toEqual({ path: '/api/chat', model: 'qwen3:0.6b' });
    } finally {
      ollama.close();
    }
  });
});
