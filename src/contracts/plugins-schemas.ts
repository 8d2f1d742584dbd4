import { z } from 'zod';
import {
  COMMAND_LOCATIONS,
  NAVIGATE_ROUTES,
  NOTIFICATION_LEVELS,
  PLUGIN_PERMISSIONS,
  REFRESH_SCOPES,
  SETTING_FIELD_TYPES,
  WHEN_TOKENS,
  type CommandEffect,
} from './plugin-types';

/** Lower-case, dash-separated; no dots, so `<plugin_id>.<tool>` splits one way. */
export const pluginIdSchema = z
  .string()
  .min(2)
  .max(48)
  .regex(/^[a-z][a-z0-9-]*[a-z0-9]$/, 'lower-case letters, digits and dashes');

/** An MCP tool's own name inside its plugin. */
export const toolNameSchema = z
  .string()
  .min(1)
  .max(48)
  .regex(/^[A-Za-z][\w-]*$/, 'letters, digits, dash or underscore');

const argumentSchema = z
  .string()
  .max(4096)
  .refine((value) => !value.includes('\0'), 'no NUL bytes');

/** §7.1 backend: argument arrays only; a command is a bare name or a package-relative path. */
export const pluginBackendSchema = z.discriminatedUnion('transport', [
  z
    .object({
      type: z.literal('mcp'),
      transport: z.literal('worker'),
      /** The package file holding the MCP server module. */
      entry: z.string().min(1).max(200),
      startup_timeout_seconds: z.number().positive().max(600).default(30),
      tool_timeout_seconds: z.number().positive().max(600).default(30),
    })
    .strict(),
  z
    .object({
      type: z.literal('mcp'),
      transport: z.literal('stdio'),
      command: z
        .string()
        .min(1)
        .max(200)
        .refine((value) => !/[\s;&|`$<>(){}'"\\*?]/.test(value), 'one executable, never a shell string'),
      args: z.array(argumentSchema).max(64).default([]),
      env: z
        .array(z.string().regex(/^[A-Z_][A-Z0-9_]*$/))
        .max(32)
        .default([]),
      startup_timeout_seconds: z.number().positive().max(600).default(60),
      tool_timeout_seconds: z.number().positive().max(600).default(30),
    })
    .strict(),
  z
    .object({
      type: z.literal('mcp'),
      transport: z.literal('streamable_http'),
      url: z.url({ protocol: /^https?$/ }),
      startup_timeout_seconds: z.number().positive().max(600).default(30),
      tool_timeout_seconds: z.number().positive().max(600).default(30),
    })
    .strict(),
]);
export type PluginBackend = z.output<typeof pluginBackendSchema>;

export const pluginManifestSchema = z
  .object({
    id: pluginIdSchema,
    name: z.string().trim().min(1).max(80),
    version: z.string().regex(/^\d+\.\d+\.\d+(?:[-+][\w.-]+)?$/, 'a semantic version'),
    description: z.string().max(500).default(''),
    permissions: z.array(z.enum(PLUGIN_PERMISSIONS)).max(PLUGIN_PERMISSIONS.length).default([]),
    backend: pluginBackendSchema,
    contributes: z
      .object({
        /** Namespaced tool ids the server must list, exactly (§7.1). */
        tools: z.array(z.string().max(100)).max(64).default([]),
        /** Package files holding the command list and the settings schema. */
        commands: z.string().max(200).optional(),
        settings: z.string().max(200).optional(),
      })
      .strict()
      .default({ tools: [] }),
  })
  .strict();
export type PluginManifest = z.output<typeof pluginManifestSchema>;

const settingKeySchema = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[a-z][a-z0-9_]*$/, 'lower-case letters, digits and underscores');

const finite = z.number().refine(Number.isFinite, 'a finite number');

/** §7.5: five field types; number bounds finite; defaults of the field's type. */
export const settingFieldSchema = z
  .object({
    key: settingKeySchema,
    label: z.string().trim().min(1).max(80),
    description: z.string().max(300).optional(),
    type: z.enum(SETTING_FIELD_TYPES),
    required: z.boolean().default(false),
    default: z.union([z.string().max(4096), finite, z.boolean()]).optional(),
    minimum: finite.optional(),
    maximum: finite.optional(),
    options: z
      .array(z.object({ value: z.string().min(1).max(100), label: z.string().min(1).max(80) }).strict())
      .max(100)
      .default([]),
  })
  .strict()
  .superRefine((field, context) => {
    const issue = (message: string) => context.addIssue({ code: 'custom', message, path: [field.key] });
    if (field.minimum !== undefined && field.maximum !== undefined && field.minimum > field.maximum) {
      issue('minimum is above maximum');
    }
    if ((field.minimum !== undefined || field.maximum !== undefined) && field.type !== 'number') {
      issue('only number fields have bounds');
    }
    if (field.type === 'select' && field.options.length === 0) issue('a select field needs options');
    if (field.type !== 'select' && field.options.length > 0) issue('only select fields have options');
    if (field.type === 'secret' && field.default !== undefined) issue('a secret has no default');
    if (field.default !== undefined && field.type !== 'secret') {
      const expected = field.type === 'select' ? 'string' : field.type;
      if (typeof field.default !== expected) issue('the default does not match the field type');
    }
  });

export const settingsSchemaFileSchema = z
  .object({
    schema_version: z.number().int().min(1).max(1_000_000),
    fields: z.array(settingFieldSchema).max(64),
  })
  .strict()
  .superRefine((schema, context) => {
    const keys = schema.fields.map((field) => field.key);
    if (new Set(keys).size !== keys.length) context.addIssue({ code: 'custom', message: 'duplicate keys' });
  });
export type SettingsSchemaFile = z.output<typeof settingsSchemaFileSchema>;

export const updatePluginSettingsSchema = z
  .object({
    schema_version: z.number().int().min(1),
    values: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])),
  })
  .strict();

export const putPluginSecretSchema = z
  .object({
    secret: z
      .string()
      .min(1)
      .max(16 * 1024),
  })
  .strict();

/** One entry of `commands.yaml` (§7.3–7.4). `secrets` stays inside the host. */
export const commandContributionSchema = z
  .object({
    id: z
      .string()
      .min(1)
      .max(64)
      .regex(/^[a-z][a-z0-9-]*$/),
    title: z.string().trim().min(1).max(80),
    description: z.string().max(300).default(''),
    icon: z
      .string()
      .regex(/^[a-z][a-z0-9-]*$/)
      .max(40)
      .optional(),
    locations: z.array(z.enum(COMMAND_LOCATIONS)).min(1).default(['command_palette']),
    when: z.array(z.enum(WHEN_TOKENS)).max(WHEN_TOKENS.length).default([]),
    parameters: z.record(z.string(), z.unknown()).default({ type: 'object', properties: {} }),
    /** Context keys the command receives; everything else is trimmed away. */
    context: z.array(z.enum(['note_id', 'selection'])).default([]),
    secrets: z.array(settingKeySchema).max(16).default([]),
    target: z.discriminatedUnion('type', [
      z.object({ type: z.literal('handler'), handler: z.string().min(1).max(64) }).strict(),
      z.object({ type: z.literal('mcp_tool'), tool: z.string().min(1).max(100) }).strict(),
    ]),
  })
  .strict();
export const commandsFileSchema = z.object({ commands: z.array(commandContributionSchema).max(64) }).strict();
export type CommandContribution = z.output<typeof commandContributionSchema>;

export const commandContextSchema = z
  .object({
    note_id: z.string().min(1).max(200).optional(),
    selection: z.string().max(100_000).optional(),
  })
  .strict();

export const executeCommandSchema = z
  .object({
    arguments: z.record(z.string(), z.unknown()).default({}),
    context: commandContextSchema.default({}),
  })
  .strict();

/** §7.4: each effect's payload exactly; unknown fields are refused. */
export const commandEffectSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('none'), payload: z.object({}).strict().default({}) }).strict(),
  z
    .object({
      type: z.literal('notification'),
      payload: z
        .object({ level: z.enum(NOTIFICATION_LEVELS), message: z.string().trim().min(1).max(1000) })
        .strict(),
    })
    .strict(),
  z
    .object({ type: z.literal('navigate'), payload: z.object({ route: z.enum(NAVIGATE_ROUTES) }).strict() })
    .strict(),
  z
    .object({ type: z.literal('refresh'), payload: z.object({ scope: z.enum(REFRESH_SCOPES) }).strict() })
    .strict(),
  z
    .object({
      type: z.literal('job'),
      payload: z
        .object({
          job_id: z
            .string()
            .regex(/^[A-Za-z0-9_-]{1,100}$/)
            .max(100),
        })
        .strict(),
    })
    .strict(),
]) satisfies z.ZodType<CommandEffect, unknown>;
