import {
  AppError,
  DEFAULT_SETTINGS,
  parseInput,
  putSecretSchema,
  secretNameSchema,
  settingsSchema,
  updateSettingsSchema,
  type SecretStatusDto,
  type SettingsDto,
  type UpdateSettingsInput,
} from '../contracts';
import type { SecretsVault, SettingsRepository } from '../db';
import { assertCredentialNamespace } from './provider-service';

const SETTINGS_KEY = 'preferences';

export class SettingsService {
  readonly #settings: SettingsRepository;
  readonly #vault: SecretsVault;

  constructor(settings: SettingsRepository, vault: SecretsVault) {
    this.#settings = settings;
    this.#vault = vault;
  }

  async get(): Promise<SettingsDto> {
    const stored = (await this.#settings.get<Partial<SettingsDto>>(SETTINGS_KEY)) ?? {};
    // A value written by a newer or older version that no longer validates falls back to its default.
    const merged = { ...DEFAULT_SETTINGS };
    for (const key of Object.keys(DEFAULT_SETTINGS) as (keyof SettingsDto)[]) {
      const candidate = { ...merged, [key]: stored[key] };
      if (stored[key] !== undefined && settingsSchema.safeParse(candidate).success)
        Object.assign(merged, candidate);
    }
    return merged;
  }

  async update(patch: UpdateSettingsInput): Promise<SettingsDto> {
    const valid = parseInput(updateSettingsSchema, patch, 'These settings are not valid.');
    const next = { ...(await this.get()), ...valid };
    await this.#settings.put(SETTINGS_KEY, next);
    return next;
  }

  listSecrets(): Promise<SecretStatusDto[]> {
    return this.#vault.list();
  }

  /** The value goes in and never comes out through this service. */
  async putSecret(input: { name: string; value: string }): Promise<SecretStatusDto> {
    const { name, value } = parseInput(putSecretSchema, input, 'This secret cannot be stored.');
    assertCredentialNamespace(name);
    return this.#vault.put(name, value);
  }

  async deleteSecret(name: string): Promise<void> {
    const valid = parseInput(secretNameSchema, name);
    assertCredentialNamespace(valid);
    if (!(await this.#vault.delete(valid))) {
      throw new AppError('SECRET_NOT_FOUND', 'No secret is stored under this name.', { name: valid });
    }
  }
}
