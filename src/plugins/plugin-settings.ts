import { AppError } from '../contracts/errors';
import type { PluginSettingField, PluginSettingValue, PluginSettingsDto } from '../contracts/plugin-types';
import {
  putPluginSecretSchema,
  settingsSchemaFileSchema,
  type SettingsSchemaFile,
} from '../contracts/plugins-schemas';

export const EMPTY_SETTINGS_SCHEMA: SettingsSchemaFile = { schema_version: 1, fields: [] };

/** §7.5: the schema file, or PLUGIN_SETTINGS_SCHEMA_INVALID with the failing paths. */
export function parseSettingsSchema(raw: unknown, pluginId: string): SettingsSchemaFile {
  const parsed = settingsSchemaFileSchema.safeParse(raw);
  if (!parsed.success) {
    throw new AppError(
      'PLUGIN_SETTINGS_SCHEMA_INVALID',
      `The settings schema of "${pluginId}" is not valid.`,
      {
        plugin_id: pluginId,
        fields: parsed.error.issues.slice(0, 10).map((issue) => ({
          path: issue.path.map(String).join('.'),
          message: issue.message,
        })),
      },
    );
  }
  return parsed.data;
}

const encoder = new TextEncoder();

/** §7.6: `plugin.<sha256(plugin_id \0 key)>`, fixed length whatever the key. */
export async function secretReference(pluginId: string, key: string): Promise<string> {
  const digest = await globalThis.crypto.subtle.digest('SHA-256', encoder.encode(`${pluginId}\0${key}`));
  const hex = [...new Uint8Array(digest)].map((byte) => byte.toString(16).padStart(2, '0')).join('');
  return `plugin.${hex}`;
}

export interface StoredSettings {
  schema_version: number;
  values: Record<string, PluginSettingValue>;
  secret_refs: Record<string, string>;
}

/** What a plugin with no stored settings row reads: nothing set, no secrets. */
export function unsetSettings(pluginId: string): StoredSettings & { plugin_id: string } {
  return { plugin_id: pluginId, schema_version: 1, values: {}, secret_refs: {} };
}

/** Values with defaults filled in, for display and for handing to a command. */
export function effectiveValues(
  schema: SettingsSchemaFile,
  stored: StoredSettings,
): Record<string, PluginSettingValue> {
  const values: Record<string, PluginSettingValue> = {};
  for (const field of schema.fields) {
    if (field.type === 'secret') continue;
    const value = stored.values[field.key] ?? field.default;
    if (value !== undefined) values[field.key] = value;
  }
  return values;
}

export function settingsView(
  pluginId: string,
  schema: SettingsSchemaFile,
  stored: StoredSettings,
): PluginSettingsDto {
  const fields: PluginSettingField[] = schema.fields.map((field) => ({
    key: field.key,
    label: field.label,
    ...(field.description !== undefined && { description: field.description }),
    type: field.type,
    required: field.required,
    ...(field.default !== undefined && { default: field.default }),
    ...(field.minimum !== undefined && { minimum: field.minimum }),
    ...(field.maximum !== undefined && { maximum: field.maximum }),
    options: field.options,
  }));
  const secrets: Record<string, { configured: boolean }> = {};
  for (const field of schema.fields) {
    if (field.type === 'secret') secrets[field.key] = { configured: field.key in stored.secret_refs };
  }
  return {
    plugin_id: pluginId,
    schema_version: schema.schema_version,
    fields,
    values: effectiveValues(schema, stored),
    secrets,
  };
}

function fieldInvalid(pluginId: string, key: string, reason: string): AppError {
  return new AppError('PLUGIN_SETTINGS_FIELD_INVALID', `The setting "${key}" ${reason}.`, {
    plugin_id: pluginId,
    key,
    reason,
  });
}

/**
 * §7.6 `PUT settings`: the caller's schema version must be the current one,
 * each key must be a non-secret field of the schema, each value of its type
 * and within its bounds or options. Returns the new stored values.
 */
export function applySettingsUpdate(
  pluginId: string,
  schema: SettingsSchemaFile,
  stored: StoredSettings,
  update: { schema_version: number; values: Record<string, PluginSettingValue> },
): StoredSettings {
  if (update.schema_version !== schema.schema_version) {
    throw new AppError(
      'PLUGIN_SETTINGS_VERSION_CONFLICT',
      'The settings changed since they were read; reload them and try again.',
      { plugin_id: pluginId, current_version: schema.schema_version },
    );
  }
  const values = { ...stored.values };
  for (const [key, value] of Object.entries(update.values)) {
    const field = schema.fields.find((candidate) => candidate.key === key);
    if (!field) throw fieldInvalid(pluginId, key, 'is not part of the settings');
    if (field.type === 'secret') throw fieldInvalid(pluginId, key, 'is a secret and is set on its own');
    switch (field.type) {
      case 'string':
        if (typeof value !== 'string') throw fieldInvalid(pluginId, key, 'must be text');
        if (value.length > 4096) throw fieldInvalid(pluginId, key, 'is too long');
        if (field.required && value.trim() === '') throw fieldInvalid(pluginId, key, 'is required');
        break;
      case 'number':
        if (typeof value !== 'number' || !Number.isFinite(value))
          throw fieldInvalid(pluginId, key, 'must be a number');
        if (field.minimum !== undefined && value < field.minimum)
          throw fieldInvalid(pluginId, key, `must be at least ${field.minimum}`);
        if (field.maximum !== undefined && value > field.maximum)
          throw fieldInvalid(pluginId, key, `must be at most ${field.maximum}`);
        break;
      case 'boolean':
        if (typeof value !== 'boolean') throw fieldInvalid(pluginId, key, 'must be true or false');
        break;
      case 'select':
        if (typeof value !== 'string' || !field.options.some((option) => option.value === value)) {
          throw fieldInvalid(pluginId, key, 'must be one of its options');
        }
        break;
    }
    values[key] = value;
  }
  return { ...stored, values };
}

/** Required fields that have neither a value nor a default, and required secrets not configured. */
export function missingRequired(
  schema: SettingsSchemaFile,
  stored: StoredSettings,
): { settings: string[]; secrets: string[] } {
  const settings: string[] = [];
  const secrets: string[] = [];
  for (const field of schema.fields) {
    if (!field.required) continue;
    if (field.type === 'secret') {
      if (!(field.key in stored.secret_refs)) secrets.push(field.key);
    } else if (stored.values[field.key] === undefined && field.default === undefined) {
      settings.push(field.key);
    }
  }
  return { settings, secrets };
}

export function requireSettings(pluginId: string, schema: SettingsSchemaFile, stored: StoredSettings): void {
  const missing = missingRequired(schema, stored);
  if (missing.settings.length > 0) {
    throw new AppError(
      'PLUGIN_SETTINGS_REQUIRED',
      `Set the required settings of "${pluginId}" first: ${missing.settings.join(', ')}.`,
      {
        plugin_id: pluginId,
        keys: missing.settings,
      },
    );
  }
}

export function secretField(pluginId: string, schema: SettingsSchemaFile, key: string) {
  const field = schema.fields.find((candidate) => candidate.key === key);
  if (!field || field.type !== 'secret') {
    throw new AppError(
      'PLUGIN_SECRET_FIELD_NOT_FOUND',
      `"${key}" is not a secret setting of "${pluginId}".`,
      {
        plugin_id: pluginId,
        key,
      },
    );
  }
  return field;
}

/** Enable needs every required setting and every required secret. */
export function requireConfigured(
  pluginId: string,
  schema: SettingsSchemaFile,
  stored: StoredSettings,
): void {
  requireSettings(pluginId, schema, stored);
  const { secrets } = missingRequired(schema, stored);
  if (secrets.length > 0) {
    throw new AppError('PLUGIN_SECRET_REQUIRED', `Set the required secrets of "${pluginId}" first.`, {
      plugin_id: pluginId,
      keys: secrets,
    });
  }
}

/** §7.6: a secret is non-empty text of at most 16 KiB; blank text is refused as well. */
export function checkSecretValue(pluginId: string, key: string, secret: unknown): string {
  const parsed = putPluginSecretSchema.safeParse({ secret });
  if (!parsed.success || parsed.data.secret.trim() === '') {
    throw new AppError(
      'PLUGIN_SECRET_VALUE_INVALID',
      'The secret must be non-empty text of at most 16 KiB.',
      {
        plugin_id: pluginId,
        key,
      },
    );
  }
  return parsed.data.secret;
}

export function withSecret<T extends StoredSettings>(stored: T, key: string, reference: string): T {
  return { ...stored, secret_refs: { ...stored.secret_refs, [key]: reference } };
}

export function withoutSecret<T extends StoredSettings>(stored: T, key: string): T {
  const { [key]: _removed, ...secret_refs } = stored.secret_refs;
  return { ...stored, secret_refs };
}

/**
 * Every vault entry a plugin may own: the stored reference of each secret
 * field, or the one it would have, so an uninstall leaves nothing behind.
 */
export async function secretReferences(
  pluginId: string,
  schema: SettingsSchemaFile,
  stored: StoredSettings,
): Promise<string[]> {
  const references: string[] = [];
  for (const field of schema.fields) {
    if (field.type !== 'secret') continue;
    references.push(stored.secret_refs[field.key] ?? (await secretReference(pluginId, field.key)));
  }
  return references;
}
