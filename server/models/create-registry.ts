import type { AgentServerConfig, RemoteProviderConfig } from '../config';
import { MOCK_MODEL, MockAdapter } from '../../src/providers/mock';
import { OllamaAdapter } from '../../src/providers/ollama';
import { OpenAICompatibleAdapter } from '../../src/providers/openai-compatible';
import { ModelRegistry, type LocalEngine, type RemoteModel } from './model-registry';

// Config → adapters. Provider code stays in src/providers; this file only
// chooses and configures adapters.

const LIST_TIMEOUT_MS = 2000;
const LIST_CACHE_MS = 10_000;

/** `local <name>` → the native Ollama adapter (src/providers/ollama), one per model name. */
export function createOllamaEngine(baseUrl: string): LocalEngine {
  const adapters = new Map<string, OllamaAdapter>();
  const adapterFor = (model: string) => {
    let adapter = adapters.get(model);
    if (!adapter) {
      adapter = new OllamaAdapter({ baseUrl, model });
      adapters.set(model, adapter);
    }
    return adapter;
  };
  // list_model is cheap for plugins to call; keep Ollama from being asked every time.
  let cached: { at: number; models: Promise<string[]> } | undefined;
  return {
    adapterFor,
    listModels() {
      const now = Date.now();
      if (!cached || now - cached.at > LIST_CACHE_MS) {
        const models = new OllamaAdapter({ baseUrl, model: 'list' })
          .listModels({ signal: AbortSignal.timeout(LIST_TIMEOUT_MS) })
          .then((infos) => infos.map((info) => info.id))
          .catch(() => [] as string[]);
        cached = { at: now, models };
      }
      return cached.models;
    },
  };
}

function remoteModels(
  provider: RemoteProviderConfig,
  env: Record<string, string | undefined>,
): RemoteModel[] {
  switch (provider.type) {
    case 'openai-compatible':
      return provider.models.map((model) => ({
        model,
        adapter: new OpenAICompatibleAdapter({
          preset: provider.preset,
          model,
          baseUrl: provider.baseUrl,
          apiKey: provider.apiKeyEnv ? env[provider.apiKeyEnv] : undefined,
        }),
      }));
    case 'mock':
      return [
        {
          model: MOCK_MODEL,
          adapter: new MockAdapter({
            scenario:
              provider.delayMs > 0
                ? {
                    id: 'fixed-delay',
                    steps: [
                      { type: 'delay', ms: provider.delayMs },
                      { type: 'text', chunks: ['Mock answer.'] },
                      { type: 'finish', reason: 'stop' },
                    ],
                  }
                : (provider.scenario ?? 'text'),
          }),
        },
      ];
    default: {
      const unhandled: never = provider;
      throw new Error(`Unknown provider ${JSON.stringify(unhandled)}`);
    }
  }
}

export function createModelRegistry(
  config: AgentServerConfig,
  env: Record<string, string | undefined>,
): ModelRegistry {
  const local = config.providers.local;
  return new ModelRegistry({
    local: local ? createOllamaEngine(local.baseUrl) : undefined,
    configuredLocal: local?.models ?? [],
    remote: config.providers.remote.flatMap((provider) => remoteModels(provider, env)),
    defaultModel: config.defaultModel,
  });
}
