import { agentServerConfigSchema, hashApiKey, type AgentServerConfigInput } from '../config';
import { MOCK_MODEL, MockAdapter, type MockScenarioInput } from '../../src/providers/mock';
import type { IMetonaProviderAdapter } from '../../src/ir';
import { ModelRegistry, type LocalEngine } from '../models/model-registry';
import type { Logger } from '../ops/logger';
import { AgentServer } from '../transport/agent-server';
import { ObservedAdapter } from './observed-adapter';

export const TEST_KEY = 'test-key-alpha';
export const OTHER_KEY = 'test-key-beta';

/** Scenarios the server tests pick with `/scenario <name>` (exec_chat) or as the default. */
export const TEST_SCENARIOS: Record<string, MockScenarioInput> = {
  pause: {
    id: 'pause',
    steps: [
      { type: 'delay', ms: 150 },
      { type: 'text', chunks: ['done'] },
      { type: 'finish', reason: 'stop' },
    ],
  },
  /** A model that takes 50 ms, as in the sizing rule of README.md. */
  model50: {
    id: 'model50',
    steps: [
      { type: 'delay', ms: 50 },
      { type: 'text', chunks: ['ok'] },
      { type: 'finish', reason: 'stop' },
    ],
  },
  short: {
    id: 'short',
    chunk_delay_ms: 5,
    steps: [{ type: 'text', chunks: Array.from({ length: 10 }, (_, i) => `s${i} `) }, { type: 'finish' }],
  },
  long: {
    id: 'long',
    chunk_delay_ms: 100,
    steps: [{ type: 'text', chunks: Array.from({ length: 50 }, (_, i) => `w${i} `) }, { type: 'finish' }],
  },
};

export interface TestServer {
  server: AgentServer;
  url: string;
  httpUrl: string;
  adapter: ObservedAdapter;
  close(): Promise<void>;
}

/** The agent on 127.0.0.1, port 0, with the mock provider as `mock-1` and as `local mock-1`. */
export async function startTestServer(
  options: {
    config?: AgentServerConfigInput;
    adapter?: IMetonaProviderAdapter;
    logger?: Logger;
    now?: () => number;
  } = {},
): Promise<TestServer> {
  const adapter = new ObservedAdapter(options.adapter ?? new MockAdapter({ scenarios: TEST_SCENARIOS }));
  const local: LocalEngine = { listModels: async () => [MOCK_MODEL], adapterFor: () => adapter };
  const registry = new ModelRegistry({ local, remote: [{ model: MOCK_MODEL, adapter }] });
  const config = agentServerConfigSchema.parse({
    host: '127.0.0.1',
    port: 0,
    apiKeys: [
      { name: 'alpha', sha256: hashApiKey(TEST_KEY) },
      { name: 'beta', sha256: hashApiKey(OTHER_KEY) },
    ],
    logLevel: 'silent',
    callbackTimeoutMs: 300,
    shutdownTimeoutMs: 1000,
    ...options.config,
  });
  const server = new AgentServer({ config, registry, logger: options.logger, now: options.now });
  const { port } = await server.listen();
  return {
    server,
    adapter,
    url: `ws://127.0.0.1:${port}/ws`,
    httpUrl: `http://127.0.0.1:${port}`,
    close: () => server.close(),
  };
}
