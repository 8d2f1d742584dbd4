import { AppError } from '../contracts';
import type { ProviderRow } from '../db';
import type {
  IMetonaProviderAdapter,
  MetonaModelInfo,
  MetonaRequest,
  MetonaResponse,
  MetonaStreamEvent,
} from '../ir';
import {
  ProviderRouter,
  deviceCheckError,
  toWebLlmAppError,
  type ProviderRouterConfig,
  type RouteOptions,
  type RouteTarget,
  type RouterNotification,
} from '../providers';
import type { LocalModelsDto } from '../contracts/local-models';
import { WEBLLM_PROVIDER_ID } from '../models/model-catalog';
import { MOCK_MODEL, MOCK_PROVIDER_ID } from '../providers/mock';
import { DemoAgentAdapter, type DemoAgentOptions } from './agent-demo-provider';
import type { AgentAdapterFactory } from './agent-service';
import type { ProviderService } from './provider-service';

export type AgentRouterTuning = Pick<
  ProviderRouterConfig,
  'sleep' | 'baseDelayMs' | 'maxDelayMs' | 'random' | 'maxRetries'
>;

export interface ProviderAgentAdaptersOptions {
  providers: ProviderService;
  /** The in-browser models as this device sees them (LocalModelsService). */
  localModels?: { list(): Promise<LocalModelsDto> };
  router?: AgentRouterTuning;
  demo?: DemoAgentOptions;
}

/**
 * One run's provider: the router (retries honouring Retry-After, then the
 * provider's fallback). Once the fallback has answered, the rest of the run
 * stays on it: a provider that just failed four times would only cost every
 * later step the same retries. `providerId`/`activeModel` name who answers now,
 * so the trace's model calls say which provider they went to.
 */
export class RunProviderRouter implements IMetonaProviderAdapter {
  readonly supportedModels: string[];
  readonly #tuning: Omit<ProviderRouterConfig, 'primary' | 'fallback'>;
  #current: RouteTarget;
  #fallback: RouteTarget | undefined;

  constructor(config: ProviderRouterConfig) {
    const { primary: _primary, fallback: _fallback, ...tuning } = config;
    this.#tuning = tuning;
    this.#current = config.primary;
    this.#fallback = config.fallback;
    this.supportedModels = config.primary.adapter.supportedModels;
  }

  get providerId(): string {
    return this.#current.adapter.providerId;
  }

  get activeModel(): string {
    return this.#current.model;
  }

  /** The fallback the run may switch to, for the config snapshot. */
  get fallbackRef(): { provider_id: string; model: string } | null {
    return this.#fallback
      ? { provider_id: this.#fallback.adapter.providerId, model: this.#fallback.model }
      : null;
  }

  getContextWindow(model: string): number {
    const primary = this.#current.adapter.getContextWindow(model);
    // The run's context is built once: it must fit whichever provider ends up answering.
    const fallback = this.#fallback?.adapter.getContextWindow(this.#fallback.model);
    return fallback === undefined ? primary : Math.min(primary, fallback);
  }

  healthCheck(): Promise<boolean> {
    return this.#current.adapter.healthCheck();
  }

  listModels(): Promise<MetonaModelInfo[]> {
    return this.#current.adapter.listModels();
  }

  send(request: MetonaRequest, options?: RouteOptions): Promise<MetonaResponse> {
    return this.sendStream(request, () => undefined, options);
  }

  async sendStream(
    request: MetonaRequest,
    onEvent: (event: MetonaStreamEvent) => void,
    options: RouteOptions = {},
  ): Promise<MetonaResponse> {
    const router = new ProviderRouter({
      ...this.#tuning,
      primary: this.#current,
      ...(this.#fallback && { fallback: this.#fallback }),
    });
    const fallback = this.#fallback;
    const onNotification = (notification: RouterNotification) => {
      if (notification.type === 'provider_switched' && fallback) {
        this.#current = fallback;
        this.#fallback = undefined;
      }
      options.onNotification?.(notification);
    };
    const result = await router.route(request, onEvent, { ...options, onNotification });
    return {
      ...result.response,
      meta: { ...result.response.meta, provider: result.provider, model: result.model },
    };
  }
}

function unavailable(provider: string, message: string): AppError {
  return new AppError('PROVIDER_UNAVAILABLE', message, { provider });
}

/**
 * An in-browser model this device cannot run is refused with the device check's reason
 * (MODEL_CAPABILITY_MISMATCH for a GPU without shader-f16, ...). Left to the model call,
 * the worker would first find it not downloaded and say MODEL_NOT_FOUND, advising a
 * download that cannot help.
 */
async function refuseUnrunnable(
  localModels: { list(): Promise<LocalModelsDto> },
  model: string,
): Promise<void> {
  // Without the list (no local-model worker) the model call reports what is wrong.
  const listed = await localModels.list().catch(() => null);
  const item = listed?.items.find((entry) => entry.model === model);
  if (!item || item.runnable || !item.unavailable_reason) return;
  const error = toWebLlmAppError(deviceCheckError(item.unavailable_reason, item.unavailable_message ?? ''));
  throw new AppError(error.code, error.message, { ...error.details, model });
}

/**
 * The agent's models: the built-in demo for `mock` (and when nothing is
 * chosen), otherwise any configured provider (remote or in-browser) through
 * the router with that provider's fallback.
 */
export function providerAgentAdapters(options: ProviderAgentAdaptersOptions): AgentAdapterFactory {
  const { providers } = options;
  const target = async (row: ProviderRow, model: string): Promise<RouteTarget> => ({
    adapter: await providers.adapterFor(row, model),
    model,
  });
  return async ({ provider, model }) => {
    if (provider === undefined || provider === MOCK_PROVIDER_ID) {
      return { adapter: new DemoAgentAdapter(options.demo), model: model ?? MOCK_MODEL };
    }
    let row: ProviderRow;
    try {
      row = await providers.config(provider);
    } catch {
      throw unavailable(provider, `The provider "${provider}" is not configured.`);
    }
    if (!row.enabled) throw unavailable(provider, `The provider "${row.display_name}" is disabled.`);
    const chosen = model ?? row.default_model;
    if (row.provider_id === WEBLLM_PROVIDER_ID && options.localModels)
      await refuseUnrunnable(options.localModels, chosen);
    let fallback: RouteTarget | undefined;
    if (row.fallback) {
      const fallbackRow = await providers.config(row.fallback.provider_id).catch(() => undefined);
      if (fallbackRow?.enabled)
        fallback = await target(fallbackRow, row.fallback.model).catch(() => undefined);
    }
    const adapter = new RunProviderRouter({
      ...options.router,
      primary: await target(row, chosen),
      ...(fallback && { fallback }),
    });
    return { adapter, model: chosen };
  };
}
