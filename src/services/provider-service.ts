import {
  AppError,
  DEFAULT_MOCK_MODEL,
  DEFAULT_PROVIDER_ID,
  LOCAL_PROVIDER_ID,
  RESERVED_CREDENTIAL_PREFIX,
  createProviderSchema,
  parseInput,
  patchProviderSchema,
  providerIdSchema,
  providerSecretName,
  testProviderSchema,
  toIsoUtc,
  type CreateProviderInput,
  type ModelInfoDto,
  type OffsetPage,
  type PatchProviderInput,
  type ProviderDto,
  type ProviderFallbackDto,
  type ProviderPresetDto,
  type ProviderTestResultDto,
  type ProviderType,
  type TestProviderInput,
} from '../contracts';
import { z } from 'zod';
import { systemClock, type Clock } from '../core/ids';
import { listedTwin } from '../core/model-alias';
import type { ProviderRepository, ProviderRow, SecretsVault, SettingsRepository } from '../db';
import type { IMetonaProviderAdapter } from '../ir';
import { WEBLLM_CATALOG } from '../models';
import { PROVIDER_PRESETS, presetById, presetType, toAppError } from '../providers';
import { createOllamaAdapter } from '../providers/ollama/adapter';
import { toMetonaError } from '../providers/shared/errors';
import { buildAdapter, toModelInfo, unknownModelInfo, type AdapterDependencies } from './provider-adapters';

const SEEDED_KEY = 'providers.seeded';

/** The built-in in-browser provider (never stored). */
export const LOCAL_PROVIDER_ROW: ProviderRow = {
  provider_id: LOCAL_PROVIDER_ID,
  type: 'webllm',
  preset: 'webllm',
  display_name: 'In-browser (WebLLM)',
  base_url: 'webllm://local',
  default_model: WEBLLM_CATALOG[0]!.id,
  enabled: true,
  fallback: null,
  created_at: '1970-01-01T00:00:00Z',
  updated_at: '1970-01-01T00:00:00Z',
};
const TEST_TIMEOUT_MS = 15_000;

/** Secret names a provider may never write: the plugin host owns `plugin.*` (§7.6). */
export function assertCredentialNamespace(name: string): void {
  if (name.toLowerCase().startsWith(RESERVED_CREDENTIAL_PREFIX)) {
    throw new AppError('CREDENTIAL_NAMESPACE_RESERVED', 'Secrets under plugin.* belong to plugins.', {
      namespace: 'plugin',
    });
  }
}

function notFound(providerId: string): AppError {
  return new AppError('RESOURCE_NOT_FOUND', 'No provider has this id.', { provider_id: providerId });
}

const WINDOW_KEY = 'provider.context_windows.';
const contextWindowSchema = z.object({
  provider_id: providerIdSchema,
  model: z.string().trim().min(1, 'model is required').max(200),
  context_window: z.number().int().min(256, 'At least 256 tokens.').max(10_000_000).nullable(),
});

export interface ProviderServiceOptions extends AdapterDependencies {
  clock?: Clock;
}

/**
 * Provider configurations (contract §8's `/api/providers/*`). The API key goes
 * in through `api_key` fields into the vault (`provider.<id>.api_key`) and never
 * comes out of this service: reads say `has_api_key`, errors and events carry
 * the provider's error code, not its request.
 */
export class ProviderService {
  readonly #repository: ProviderRepository;
  readonly #vault: SecretsVault;
  readonly #settings: SettingsRepository;
  readonly #deps: AdapterDependencies;
  readonly #clock: Clock;
  #seeded: Promise<void> | undefined;
  /** Windows the providers reported in their model lists (`provider|model`). */
  readonly #windows = new Map<string, number>();
  /** Ollama's `/api/show` answers, asked once per model (undefined: it did not say). */
  readonly #shown = new Map<string, Promise<number | undefined>>();

  constructor(
    repository: ProviderRepository,
    vault: SecretsVault,
    settings: SettingsRepository,
    options: ProviderServiceOptions = {},
  ) {
    this.#repository = repository;
    this.#vault = vault;
    this.#settings = settings;
    const { clock, ...deps } = options;
    this.#deps = deps;
    this.#clock = clock ?? systemClock;
  }

  async list(): Promise<OffsetPage<ProviderDto>> {
    await this.#seed();
    const rows = await this.#repository.list();
    const items = await Promise.all(rows.map((row) => this.#toDto(row)));
    return { items, page: { total: items.length, limit: items.length, offset: 0 } };
  }

  async presets(): Promise<ProviderPresetDto[]> {
    return PROVIDER_PRESETS.map((preset) => ({ ...preset }));
  }

  async get(providerId: string): Promise<ProviderDto> {
    const id = parseInput(providerIdSchema, providerId);
    if (id === LOCAL_PROVIDER_ID) return { ...LOCAL_PROVIDER_ROW, has_api_key: false };
    return this.#toDto(await this.#row(id));
  }

  async create(input: CreateProviderInput): Promise<ProviderDto> {
    const valid = parseInput(createProviderSchema, input, 'This provider configuration is not valid.');
    if (valid.preset === 'webllm' || valid.provider_id === LOCAL_PROVIDER_ID) {
      throw new AppError(
        'VALIDATION_FAILED',
        'Local models are built in; download them in Settings → Local models.',
        {
          fields: [{ path: 'preset', message: 'the local provider is built in' }],
        },
      );
    }
    await this.#seed();
    const preset = presetById(valid.preset);
    const defaultModel = valid.default_model ?? preset.default_model;
    if (!defaultModel) {
      throw new AppError('VALIDATION_FAILED', 'This provider needs a model name.', {
        fields: [{ path: 'default_model', message: 'required for this preset' }],
      });
    }
    const providerId = valid.provider_id ?? (await this.#freeId(valid.preset));
    if (valid.fallback) await this.#checkFallback(providerId, valid.fallback);
    const now = toIsoUtc(this.#clock());
    const row: ProviderRow = {
      provider_id: providerId,
      type: preset.type,
      preset: valid.preset,
      display_name: valid.display_name ?? preset.display_name,
      base_url: valid.base_url ?? preset.base_url,
      default_model: defaultModel,
      enabled: valid.enabled,
      fallback: valid.fallback,
      created_at: now,
      updated_at: now,
    };
    if (!(await this.#repository.add(row))) {
      throw new AppError('STATE_CONFLICT', 'A provider with this id already exists.', {
        provider_id: providerId,
      });
    }
    if (valid.api_key !== undefined) await this.#putKey(providerId, valid.api_key);
    return this.#toDto(row);
  }

  async patch(providerId: string, input: PatchProviderInput): Promise<ProviderDto> {
    const id = parseInput(providerIdSchema, providerId);
    this.#refuseLocal(id, 'changed');
    const valid = parseInput(patchProviderSchema, input, 'These provider changes are not valid.');
    const current = await this.#row(id);
    if (valid.fallback) await this.#checkFallback(id, valid.fallback);
    const { api_key: apiKey, ...fields } = valid;
    const next: ProviderRow = {
      ...current,
      ...Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined)),
      updated_at: toIsoUtc(this.#clock()),
    };
    await this.#repository.put(next);
    if (typeof apiKey === 'string') await this.#putKey(id, apiKey);
    else if (apiKey === null) await this.#vault.delete(providerSecretName(id));
    return this.#toDto(next);
  }

  /** Refused while another provider names this one as its fallback. */
  async delete(providerId: string): Promise<void> {
    const id = parseInput(providerIdSchema, providerId);
    this.#refuseLocal(id, 'deleted');
    await this.#row(id);
    const dependents = (await this.#repository.list()).filter(
      (row) => row.provider_id !== id && row.fallback?.provider_id === id,
    );
    if (dependents.length > 0) {
      throw new AppError('STATE_CONFLICT', 'Another provider uses this one as its fallback.', {
        provider_id: id,
        used_by: dependents.map((row) => row.provider_id),
      });
    }
    await this.#repository.delete(id);
    await this.#vault.delete(providerSecretName(id));
  }

  /** §8.1 model list; models the adapter cannot describe get the conservative capabilities. */
  async models(providerId: string): Promise<OffsetPage<ModelInfoDto>> {
    const row = await this.config(parseInput(providerIdSchema, providerId));
    const adapter = await this.adapterFor(row, row.default_model);
    let items: ModelInfoDto[];
    try {
      items = (await adapter.listModels()).map(toModelInfo);
    } catch (error) {
      throw toAppError(toMetonaError(error, row.provider_id));
    }
    // The default keeps the spelling it was saved with (what the adapter sends and
    // conversations hold); a listed twin it is an alias of lends it its info instead
    // of being offered beside it as a second model.
    const twin = listedTwin(
      row.type,
      row.default_model,
      items.map((item) => item.model),
    );
    if (twin === undefined) items.unshift(unknownModelInfo(row.default_model));
    else if (twin !== row.default_model)
      items = items.map((item) => (item.model === twin ? renamedTwin(item, row.default_model) : item));
    for (const item of items)
      if (item.context_window) this.#windows.set(`${row.provider_id}|${item.model}`, item.context_window);
    return { items, page: { total: items.length, limit: items.length, offset: 0 } };
  }

  /**
   * Checks a saved provider or an unsaved config by listing its models, and says
   * whether the list offers the model it would use: a typo there otherwise shows
   * only when a chat fails. A key given here is used for this call only and never stored.
   */
  async test(input: TestProviderInput): Promise<ProviderTestResultDto> {
    const valid = parseInput(testProviderSchema, input, 'This provider configuration is not valid.');
    let adapter: IMetonaProviderAdapter;
    let type: ProviderType;
    let model: string | null;
    if (valid.provider_id !== undefined) {
      const row = await this.#row(valid.provider_id);
      type = row.type;
      model = valid.model ?? row.default_model;
      adapter = valid.api_key
        ? this.#build({ ...row, base_url: valid.base_url ?? row.base_url }, model, valid.api_key)
        : await this.adapterFor({ ...row, base_url: valid.base_url ?? row.base_url }, model);
    } else {
      const preset = presetById(valid.preset!);
      type = preset.type;
      model = valid.model ?? preset.default_model;
      adapter = buildAdapter(
        {
          provider_id: valid.preset!,
          preset: valid.preset!,
          base_url: valid.base_url ?? preset.base_url,
          model: model ?? 'unknown',
          ...(valid.api_key && { api_key: valid.api_key }),
        },
        this.#deps,
      );
    }
    const started = this.#clock();
    try {
      const models = await withTimeout(adapter.listModels(), TEST_TIMEOUT_MS);
      const ids = models.map((entry) => entry.id);
      return {
        ok: true,
        latency_ms: this.#clock() - started,
        model_count: models.length,
        model,
        model_listed: model === null || ids.length === 0 ? null : modelListed(type, model, ids),
        listed_models: ids,
        error: null,
      };
    } catch (error) {
      const metona = error instanceof AppError ? null : toMetonaError(error, adapter.providerId);
      const appError = metona ? toAppError(metona) : (error as AppError);
      const redact = redactor(valid.api_key ? [valid.api_key] : []);
      return {
        ok: false,
        latency_ms: this.#clock() - started,
        model_count: null,
        model,
        model_listed: null,
        listed_models: null,
        error: {
          code: appError.code,
          message: redact(appError.message),
          ...(metona && { metona_code: metona.code }),
        },
      };
    }
  }

  /** Masks these providers' keys in text that came from upstream (an error body may echo one). */
  async redactorFor(providerIds: string[]): Promise<(text: string) => string> {
    const keys = await Promise.all(providerIds.map((id) => this.#vault.reveal(providerSecretName(id))));
    return redactor(keys.filter((key): key is string => key !== undefined));
  }

  /** For the chat service: the stored config, enabled or not. */
  async config(providerId: string): Promise<ProviderRow> {
    if (providerId === LOCAL_PROVIDER_ID) return LOCAL_PROVIDER_ROW;
    await this.#seed();
    return this.#row(providerId);
  }

  /**
   * The model's context window in tokens: what the provider reported in its
   * model list, else what the adapter's catalog knows (4,096 for a model
   * nothing is known about).
   */
  contextWindow(row: ProviderRow, model: string, adapter: IMetonaProviderAdapter): number {
    return this.#windows.get(`${row.provider_id}|${model}`) ?? adapter.getContextWindow(model);
  }

  /**
   * The window the budget uses: what the user set for this model in the
   * provider's settings, else what the provider reported, else the catalog's
   * (4,096 for a model nothing is known about).
   */
  async contextWindowFor(row: ProviderRow, model: string, adapter: IMetonaProviderAdapter): Promise<number> {
    return (await this.#override(row.provider_id, model)) ?? this.contextWindow(row, model, adapter);
  }

  /** Per-model windows set by the user, by model name. */
  async contextWindows(providerId: string): Promise<Record<string, number>> {
    const id = parseInput(providerIdSchema, providerId);
    await this.config(id);
    return (await this.#settings.get<Record<string, number>>(`${WINDOW_KEY}${id}`)) ?? {};
  }

  /** Sets (or with `context_window: null`, clears) the window of one model of a provider. */
  async setContextWindow(input: {
    provider_id: string;
    model: string;
    context_window: number | null;
  }): Promise<Record<string, number>> {
    const valid = parseInput(contextWindowSchema, input, 'This context window cannot be saved.');
    const windows = { ...(await this.contextWindows(valid.provider_id)) };
    if (valid.context_window === null) delete windows[valid.model];
    else windows[valid.model] = valid.context_window;
    await this.#settings.put(`${WINDOW_KEY}${valid.provider_id}`, windows);
    return windows;
  }

  async #override(providerId: string, model: string): Promise<number | undefined> {
    return (await this.#settings.get<Record<string, number>>(`${WINDOW_KEY}${providerId}`))?.[model];
  }

  /** The window to run an Ollama model with: the user's, else what `/api/show` reports. */
  async #ollamaWindow(
    row: ProviderRow,
    model: string,
    apiKey: string | undefined,
  ): Promise<number | undefined> {
    const override = await this.#override(row.provider_id, model);
    if (override !== undefined) return override;
    const key = `${row.provider_id}|${model}`;
    let shown = this.#shown.get(key);
    if (!shown) {
      shown = createOllamaAdapter({
        model,
        baseUrl: row.base_url,
        ...(apiKey && { apiKey }),
        ...(this.#deps.fetch && { fetch: this.#deps.fetch }),
      }).reportedContextWindow();
      this.#shown.set(key, shown);
    }
    return shown;
  }

  /** The adapter for a stored provider, with its key from the vault. */
  async adapterFor(row: ProviderRow, model: string): Promise<IMetonaProviderAdapter> {
    if (row.provider_id === LOCAL_PROVIDER_ID) {
      if (!this.#deps.localAdapter) {
        throw new AppError('PROVIDER_UNAVAILABLE', 'Local models are not available in this environment.');
      }
      return this.#deps.localAdapter(model);
    }
    const apiKey = await this.#vault.reveal(providerSecretName(row.provider_id));
    const window = row.preset === 'ollama' ? await this.#ollamaWindow(row, model, apiKey) : undefined;
    return this.#build(row, model, apiKey, window);
  }

  #build(
    row: ProviderRow,
    model: string,
    apiKey: string | undefined,
    contextWindow?: number,
  ): IMetonaProviderAdapter {
    return buildAdapter(
      {
        provider_id: row.provider_id,
        preset: row.preset,
        base_url: row.base_url,
        model,
        ...(apiKey && { api_key: apiKey }),
        ...(contextWindow && { context_window: contextWindow }),
      },
      this.#deps,
    );
  }

  #refuseLocal(providerId: string, action: string): void {
    if (providerId === LOCAL_PROVIDER_ID) {
      throw new AppError('STATE_CONFLICT', `The built-in local provider cannot be ${action}.`, {
        provider_id: providerId,
      });
    }
  }

  async #row(providerId: string): Promise<ProviderRow> {
    await this.#seed();
    const row = await this.#repository.get(providerId);
    if (!row) throw notFound(providerId);
    return row;
  }

  async #toDto(row: ProviderRow): Promise<ProviderDto> {
    const status = await this.#vault.status(providerSecretName(row.provider_id));
    return { ...row, has_api_key: status.configured };
  }

  async #putKey(providerId: string, apiKey: string): Promise<void> {
    const name = providerSecretName(providerId);
    assertCredentialNamespace(name);
    await this.#vault.put(name, apiKey);
  }

  async #checkFallback(providerId: string, fallback: ProviderFallbackDto): Promise<void> {
    if (fallback.provider_id === providerId) {
      throw new AppError('VALIDATION_FAILED', 'A provider cannot be its own fallback.', {
        fields: [{ path: 'fallback.provider_id', message: 'must be another provider' }],
      });
    }
    if (fallback.provider_id !== LOCAL_PROVIDER_ID && !(await this.#repository.get(fallback.provider_id))) {
      throw new AppError('STATE_CONFLICT', 'The fallback provider does not exist.', {
        provider_id: fallback.provider_id,
      });
    }
  }

  async #freeId(preset: string): Promise<string> {
    for (let index = 1; ; index++) {
      const candidate = index === 1 ? preset : `${preset}-${index}`;
      if (!(await this.#repository.get(candidate))) return candidate;
    }
  }

  /** A fresh install has the mock provider; once seeded, a deleted one stays deleted. */
  #seed(): Promise<void> {
    this.#seeded ??= (async () => {
      if (await this.#settings.get<boolean>(SEEDED_KEY)) return;
      const now = toIsoUtc(this.#clock());
      await this.#repository.add({
        provider_id: DEFAULT_PROVIDER_ID,
        type: presetType('mock'),
        preset: 'mock',
        display_name: presetById('mock').display_name,
        base_url: presetById('mock').base_url,
        default_model: DEFAULT_MOCK_MODEL,
        enabled: true,
        fallback: null,
        created_at: now,
        updated_at: now,
      });
      await this.#settings.put(SEEDED_KEY, true);
    })().catch((error: unknown) => {
      this.#seeded = undefined;
      throw error;
    });
    return this.#seeded;
  }
}

export function redactor(secrets: string[]): (text: string) => string {
  const usable = secrets.filter((secret) => secret.length >= 4);
  return (text) => usable.reduce((result, secret) => result.split(secret).join('[redacted]'), text);
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new AppError('PROVIDER_TIMEOUT', 'The provider did not answer in time.')),
      ms,
    );
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}

/** The listed twin under the default's name; a display name spelling out the twin's id (Ollama's) says the default's. */
function renamedTwin(item: ModelInfoDto, model: string): ModelInfoDto {
  const display = item.display_name.startsWith(item.model)
    ? `${model}${item.display_name.slice(item.model.length)}`
    : item.display_name;
  return { ...item, model, display_name: display };
}

/** Whether a provider's list offers `model` as the adapter would send it (see listedTwin). */
export function modelListed(type: ProviderType, model: string, ids: readonly string[]): boolean {
  return listedTwin(type, model, ids) !== undefined;
}
