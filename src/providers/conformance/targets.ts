import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { IMetonaProviderAdapter } from '../../ir';
import { AnthropicAdapter } from '../anthropic';
import { MockAdapter, mockScenarios } from '../mock';
import { OllamaAdapter } from '../ollama';
import { OpenAICompatibleAdapter, type OpenAICompatiblePresetId } from '../openai-compatible';
import { WEBLLM_CATALOG } from '../../models';
import { WebLlmAdapter } from '../webllm';
import { WebLlmEngineDouble, parseEngineScript } from '../webllm/__fixtures__/engine-double';
import { WebLlmWorkerHost } from '../webllm/worker-host';
import type { Capability } from './case-schema';
import type { ReplayFraming, ReplayRoute } from './replay-server';

/** One adapter configuration the conformance suite runs every case against. */
export interface ConformanceTarget {
  id: string;
  provider: string;
  model: string;
  protocol: string;
  capabilities: Capability[];
  /**
   * The cases this target does not run, by case id, and why. They are listed in the report, not
   * run; every other case must run, so a lost recording fails instead of going quiet.
   */
  unsupported: Readonly<Record<string, string>>;
  /** Remote adapters: where the recordings live and how the replay server frames them. */
  replay?: { dir: URL; prefix: string; framing: ReplayFraming };
  /** What the scenario's recording lacks here (file not found); undefined when it is there. */
  missing(scenario: string): string | undefined;
  create(options: { baseUrl: string; scenario: string }): IMetonaProviderAdapter;
}

function recordingFile(target: Pick<ConformanceTarget, 'replay'>, scenario: string): URL | undefined {
  if (!target.replay) return undefined;
  return new URL(`${target.replay.prefix}-${scenario}.chunks.txt`, target.replay.dir);
}

function remote(
  base: Omit<ConformanceTarget, 'missing' | 'replay'> & { replay: NonNullable<ConformanceTarget['replay']> },
): ConformanceTarget {
  return {
    ...base,
    missing(scenario) {
      const file = recordingFile(base, scenario);
      return file && existsSync(file)
        ? undefined
        : `no recording ${base.replay.prefix}-${scenario}.chunks.txt`;
    },
  };
}

const openAIFixtures = new URL('../openai-compatible/__fixtures__/', import.meta.url);

function openAICompatible(
  preset: OpenAICompatiblePresetId,
  model: string,
  capabilities: Capability[],
  unsupported: Record<string, string> = {},
) {
  return remote({
    id: preset,
    provider: preset,
    model,
    protocol: 'OpenAI Chat Completions, SSE',
    capabilities,
    unsupported,
    replay: { dir: openAIFixtures, prefix: preset, framing: 'sse' },
    create: ({ baseUrl }) => new OpenAICompatibleAdapter({ preset, model, baseUrl, apiKey: 'test-key' }),
  });
}

const NO_HTTP_STATUS: Record<string, string> = {
  'provider-auth-failed': 'an in-browser engine has no HTTP status (no 401)',
  'provider-rate-limited': 'an in-browser engine has no HTTP status (no 429)',
  'provider-server-error': 'an in-browser engine has no HTTP status (no 500)',
};

const AGNES_NOT_RECORDED =
  'not recorded from the Agnes AI endpoint (only text, reasoning, tool call and 401 were)';

const HERMES_NOT_RECORDED =
  'not recorded with Hermes 3; the webllm target replays this case through the same adapter and host';

const webllmFixtures = new URL('../webllm/__fixtures__/', import.meta.url);

/**
 * The wires complete an unreadable call with its fault for the agent to report; web-llm's calls
 * are text the adapter reads whole, so one it cannot read still ends the answer with
 * `parse_error` (webllm/adapter.test.ts).
 */
const WEBLLM_UNREADABLE_CALL =
  'web-llm writes calls as text: one that cannot be read has no call to complete and ends with parse_error';

/**
 * The in-browser provider: the real adapter and worker host, in-thread, over
 * an engine double that plays web-llm chunk recordings
 * (`webllm/__fixtures__/<prefix>-<scenario>.chunks.txt`).
 */
function webllm(
  id: string,
  model: string,
  prefix: string,
  capabilities: Capability[],
  unsupported: Record<string, string>,
): ConformanceTarget {
  const file = (scenario: string) => new URL(`${prefix}-${scenario}.chunks.txt`, webllmFixtures);
  return {
    id,
    provider: 'webllm',
    model,
    protocol: 'web-llm engine chunks (engine double, in-process)',
    capabilities,
    unsupported: { ...NO_HTTP_STATUS, ...unsupported },
    missing(scenario) {
      return existsSync(file(scenario)) ? undefined : `no recording ${prefix}-${scenario}.chunks.txt`;
    },
    create({ scenario }) {
      const engine = new WebLlmEngineDouble({
        script: parseEngineScript(readFileSync(file(scenario), 'utf8')),
        functionCallingModelIds: WEBLLM_CATALOG.filter((entry) => entry.toolCalling === 'native').map(
          (entry) => entry.id,
        ),
      });
      engine.cache.seed(model, 1);
      const host = new WebLlmWorkerHost({ load: async () => ({ engine }), cache: engine.cache });
      return new WebLlmAdapter({ client: host, model });
    },
  };
}

export const conformanceTargets: ConformanceTarget[] = [
  {
    id: 'mock',
    provider: 'mock',
    model: 'mock-1',
    protocol: 'in-process scenario',
    capabilities: ['chat', 'streaming', 'tool_calling', 'reasoning', 'vision'],
    unsupported: {},
    missing: (scenario) => (scenario in mockScenarios ? undefined : `no mock scenario ${scenario}.json`),
    create: ({ scenario }) => new MockAdapter({ scenario }),
  },
  openAICompatible('deepseek', 'deepseek-chat', ['chat', 'streaming', 'tool_calling', 'reasoning']),
  // Chat Completions does not stream OpenAI's reasoning, so no reasoning capability here.
  openAICompatible('openai', 'gpt-4o-mini', ['chat', 'streaming', 'tool_calling', 'vision'], {
    'provider-reasoning': 'Chat Completions does not stream OpenAI reasoning',
  }),
  openAICompatible(
    'agnes-ai',
    'agnes-test-model',
    ['chat', 'streaming', 'tool_calling', 'reasoning'],
    Object.fromEntries(
      [
        'provider-cancel-mid-stream',
        'provider-invalid-tool-args',
        'provider-rate-limited',
        'provider-server-error',
        'provider-stream-interrupted',
        'provider-tool-args-split',
        'provider-tool-calls-parallel',
        'provider-usage',
        'provider-utf8-split',
      ].map((id) => [id, AGNES_NOT_RECORDED]),
    ),
  ),
  remote({
    id: 'anthropic',
    provider: 'anthropic',
    model: 'claude-sonnet-4-5',
    protocol: 'Anthropic Messages, SSE',
    capabilities: ['chat', 'streaming', 'tool_calling', 'reasoning', 'vision'],
    unsupported: {},
    replay: {
      dir: new URL('../anthropic/__fixtures__/', import.meta.url),
      prefix: 'anthropic',
      framing: 'sse-named',
    },
    create: ({ baseUrl }) =>
      new AnthropicAdapter({ model: 'claude-sonnet-4-5', baseUrl, apiKey: 'test-key' }),
  }),
  remote({
    id: 'ollama',
    provider: 'ollama',
    model: 'qwen3:8b',
    protocol: 'Ollama /api/chat, NDJSON',
    capabilities: ['chat', 'streaming', 'tool_calling', 'reasoning', 'vision'],
    unsupported: {},
    replay: { dir: new URL('../ollama/__fixtures__/', import.meta.url), prefix: 'ollama', framing: 'ndjson' },
    create: ({ baseUrl }) => new OllamaAdapter({ model: 'qwen3:8b', baseUrl }),
  }),
  // Qwen3: thinking, and tools described in the prompt (no native function calling).
  webllm('webllm', 'Qwen3-1.7B-q4f32_1-MLC', 'webllm', ['chat', 'streaming', 'tool_calling', 'reasoning'], {
    'provider-invalid-tool-args': WEBLLM_UNREADABLE_CALL,
  }),
  // Hermes 3: web-llm's native function calling.
  webllm(
    'webllm-native',
    'Hermes-3-Llama-3.1-8B-q4f16_1-MLC',
    'webllm-native',
    ['chat', 'streaming', 'tool_calling'],
    {
      'provider-reasoning': 'Hermes 3 is not a reasoning model',
      'provider-invalid-tool-args': WEBLLM_UNREADABLE_CALL,
      'provider-stream-interrupted': HERMES_NOT_RECORDED,
      'provider-tool-args-split': HERMES_NOT_RECORDED,
      'provider-usage': HERMES_NOT_RECORDED,
      'provider-utf8-split': HERMES_NOT_RECORDED,
    },
  ),
];

/** The replay server's router: `/<target>/<scenario>/…` to that target's recording. */
export function resolveReplayRoute(path: string): ReplayRoute | undefined {
  const [, targetId, scenario] = path.split('/');
  const target = conformanceTargets.find((candidate) => candidate.id === targetId);
  if (!target?.replay || !scenario) return undefined;
  const file = recordingFile(target, scenario);
  if (!file || !existsSync(file)) return undefined;
  return { file: fileURLToPath(file), framing: target.replay.framing };
}
