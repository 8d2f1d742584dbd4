import { systemClock, type Clock } from '../../core/ids';
import {
  MetonaProviderError,
  type IMetonaProviderAdapter,
  type MetonaCallOptions,
  type MetonaModelInfo,
  type MetonaRequest,
  type MetonaResponse,
  type MetonaStreamEvent,
} from '../../ir';
import { capabilityMismatchError } from '../shared/errors';
import { abortableSleep, type Sleep } from '../shared/sleep';
import { runStream } from '../shared/stream-driver';
import { playScenario } from './play-scenario';
import { mockScenarioSchema, type MockScenario, type MockScenarioInput } from './scenario-schema';
import { mockScenarios } from './scenarios';

export const MOCK_PROVIDER_ID = 'mock';
export const MOCK_MODEL = 'mock-1';
const CONTEXT_WINDOW = 32_768;

export interface MockAdapterConfig {
  /** The scenario played when the request does not pick one; a built-in name or a scenario. */
  scenario?: string | MockScenarioInput;
  /** Extra scenarios by name, on top of the built-in ones. */
  scenarios?: Record<string, MockScenarioInput>;
  /** Picks a scenario from the request when no `/scenario` command does (undefined: the default). */
  pick?: (request: MetonaRequest) => MockScenarioInput | undefined;
  sleep?: Sleep;
  clock?: Clock;
}

/** `/scenario tool-call` as the last user message picks a scenario: handy in demos and e2e tests. */
const SCENARIO_COMMAND = /^\s*\/scenario\s+([\w-]+)/;

/**
 * The deterministic scripted provider (provider id `mock`, model `mock-1`, as
 * the contract's benchmark example names it). It plays scenario files through
 * the same stream driver as the real adapters, so tests, demos and benchmarks
 * see exactly the event rules users see.
 */
export class MockAdapter implements IMetonaProviderAdapter {
  readonly providerId = MOCK_PROVIDER_ID;
  readonly supportedModels = [MOCK_MODEL];
  readonly model = MOCK_MODEL;
  readonly #scenarios: Record<string, MockScenario>;
  readonly #default: MockScenario;
  readonly #sleep: Sleep;
  readonly #clock: Clock;
  readonly #pick: MockAdapterConfig['pick'];

  constructor(config: MockAdapterConfig = {}) {
    this.#scenarios = { ...mockScenarios };
    for (const [name, scenario] of Object.entries(config.scenarios ?? {})) {
      this.#scenarios[name] = mockScenarioSchema.parse(scenario);
    }
    const chosen = config.scenario ?? 'text';
    this.#default = typeof chosen === 'string' ? this.#named(chosen) : mockScenarioSchema.parse(chosen);
    this.#sleep = config.sleep ?? abortableSleep;
    this.#clock = config.clock ?? systemClock;
    this.#pick = config.pick;
  }

  getContextWindow(): number {
    return CONTEXT_WINDOW;
  }

  async healthCheck(): Promise<boolean> {
    return true;
  }

  async listModels(): Promise<MetonaModelInfo[]> {
    return [
      {
        id: MOCK_MODEL,
        providerId: MOCK_PROVIDER_ID,
        displayName: 'Mock (scripted, for tests and demos)',
        contextWindow: CONTEXT_WINDOW,
        maxOutput: 4096,
        supportsStreaming: true,
        supportsThinking: true,
        supportsImages: true,
        supportsToolCalling: true,
        supportsStructuredOutput: false,
      },
    ];
  }

  send(request: MetonaRequest, options?: MetonaCallOptions): Promise<MetonaResponse> {
    return this.sendStream(request, () => undefined, options);
  }

  sendStream(
    request: MetonaRequest,
    onEvent: (event: MetonaStreamEvent) => void,
    options: MetonaCallOptions = {},
  ): Promise<MetonaResponse> {
    const scenario = this.scenarioFor(request);
    return runStream({
      request,
      provider: MOCK_PROVIDER_ID,
      model: scenario.model,
      onEvent,
      signal: options.signal,
      clock: this.#clock,
      open: async (abort) => {
        // A script cannot be held to a format: saying so beats answering off-format.
        if (request.params.responseFormat) {
          throw new MetonaProviderError(
            capabilityMismatchError(
              MOCK_PROVIDER_ID,
              'The scripted mock model cannot answer in a fixed JSON format.',
            ),
          );
        }
        return playScenario(scenario, {
          requestId: request.meta.requestId,
          sleep: this.#sleep,
          signal: abort.signal,
          thinkingOff: request.params.thinkingEnabled === false,
        });
      },
    });
  }

  scenarioFor(request: MetonaRequest): MockScenario {
    const lastUser = request.messages.findLast((message) => message.role === 'user');
    const name = lastUser && SCENARIO_COMMAND.exec(lastUser.content)?.[1];
    if (name) return this.#named(name);
    const picked = this.#pick?.(request);
    return picked ? mockScenarioSchema.parse(picked) : this.#default;
  }

  #named(name: string): MockScenario {
    const scenario = this.#scenarios[name];
    if (!scenario) throw new Error(`Unknown mock scenario "${name}"`);
    return scenario;
  }
}

export function createMockAdapter(config?: MockAdapterConfig): MockAdapter {
  return new MockAdapter(config);
}
