import {
  MetonaProviderError,
  type IMetonaProviderAdapter,
  type MetonaCallOptions,
  type MetonaModelInfo,
  type MetonaRequest,
  type MetonaResponse,
  type MetonaStreamEvent,
} from '../../ir';
import { MOCK_MODEL, MOCK_PROVIDER_ID, MockAdapter, type MockScenarioInput } from '../../providers/mock';

export interface AgentScript {
  description?: string;
  /** One mock scenario per model call, in order. */
  turns: MockScenarioInput[];
}

/**
 * The mock provider, one scenario per call: an agent run makes several model
 * calls, and each plays the next turn of the script through `MockAdapter`
 * (same stream driver, same event rules as the real adapters). Records every
 * request so tests can look at what the loop sent.
 */
export class ScriptedAdapter implements IMetonaProviderAdapter {
  readonly providerId = MOCK_PROVIDER_ID;
  readonly supportedModels = [MOCK_MODEL];
  readonly requests: MetonaRequest[] = [];
  readonly #turns: MockScenarioInput[];
  readonly #contextWindow: number;

  constructor(script: AgentScript | MockScenarioInput[], options: { contextWindow?: number } = {}) {
    this.#turns = Array.isArray(script) ? script : script.turns;
    this.#contextWindow = options.contextWindow ?? 32_768;
  }

  getContextWindow(): number {
    return this.#contextWindow;
  }

  async healthCheck(): Promise<boolean> {
    return true;
  }

  async listModels(): Promise<MetonaModelInfo[]> {
    return new MockAdapter().listModels();
  }

  send(request: MetonaRequest, options?: MetonaCallOptions): Promise<MetonaResponse> {
    return this.sendStream(request, () => undefined, options);
  }

  async sendStream(
    request: MetonaRequest,
    onEvent: (event: MetonaStreamEvent) => void,
    options?: MetonaCallOptions,
  ): Promise<MetonaResponse> {
    this.requests.push(request);
    const turn = this.#turns[this.requests.length - 1];
    if (!turn) {
      throw new MetonaProviderError({
        code: 'invalid_response',
        message: `The script has no turn ${this.requests.length}.`,
        provider: MOCK_PROVIDER_ID,
        retryable: false,
      });
    }
    return new MockAdapter({ scenario: turn }).sendStream(request, onEvent, options);
  }
}

/** Deterministic ids (`note_1`, `block_2`, …) so scripts can name what a run creates. */
export function sequentialIds(): (prefix: string) => string {
  let next = 0;
  return (prefix) => `${prefix}_${++next}`;
}
