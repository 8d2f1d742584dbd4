import { errorInfo } from '../error-message';
import { i18n, type MessageKey, type MessageParams } from '../i18n';

/** Why an install was refused, as the core said it: the contract code and its structured details. */
export interface PluginRefusal {
  code: string;
  /** The core's English wording: kept for the console, never shown. */
  message: string;
  details: Readonly<Record<string, unknown>>;
}

/** The install's error as a refusal to show beside the install button; null for an abort. */
export function pluginRefusal(error: unknown): PluginRefusal | null {
  const info = errorInfo(error);
  if (info === null) return null;
  const details = (error as { details?: unknown }).details;
  return {
    code: info.code,
    message: info.message,
    details: typeof details === 'object' && details !== null ? (details as Record<string, unknown>) : {},
  };
}

/**
 * `details.reason` values of `src/plugins/plugin-package.ts` and their words. Only a
 * reason listed here is trusted: other codes put free English text in `reason`
 * (PLUGIN_COMMAND_INVALID does), which must not reach a Chinese screen.
 */
const REASON_KEYS = {
  not_zip: 'plugins.refusal.not_zip',
  entry_unreadable: 'plugins.refusal.entry_unreadable',
  path_outside_package: 'plugins.refusal.path_outside_package',
  symlink: 'plugins.refusal.symlink',
  path_too_deep: 'plugins.refusal.path_too_deep',
  name_too_long: 'plugins.refusal.name_too_long',
  duplicate_path: 'plugins.refusal.duplicate_path',
  too_many_entries: 'plugins.refusal.too_many_entries',
  entry_too_large: 'plugins.refusal.entry_too_large',
  total_too_large: 'plugins.refusal.total_too_large',
  ratio_too_high: 'plugins.refusal.ratio_too_high',
  manifest_missing: 'plugins.refusal.manifest_missing',
  manifest_yaml: 'plugins.refusal.manifest_yaml',
  manifest_too_large: 'plugins.refusal.manifest_too_large',
  manifest_encoding: 'plugins.refusal.manifest_encoding',
  manifest_not_mapping: 'plugins.refusal.manifest_not_mapping',
  manifest_invalid: 'plugins.refusal.manifest_invalid',
  reserved_id: 'plugins.refusal.reserved_id',
  tool_namespace: 'plugins.refusal.tool_namespace',
  network_permission: 'plugins.refusal.network_permission',
  server_missing: 'plugins.refusal.server_missing',
  executable_outside: 'plugins.refusal.executable_outside',
} as const satisfies Record<string, MessageKey>;

const FIELD_KEYS = {
  required: 'plugins.refusal.field.required',
  unknown: 'plugins.refusal.field.unknown',
  one_of: 'plugins.refusal.field.one_of',
  invalid: 'plugins.refusal.field.invalid',
} as const satisfies Record<string, MessageKey>;

/** The translation calls the text needs; the app's `i18n` unless a test brings its own. */
export interface RefusalTranslator {
  t(key: MessageKey, params?: MessageParams): string;
  errorText(code: string, fallbackMessage: string): string;
}

/** The refusal in the reader's language, built only from the tables and the details' names and numbers. */
export function refusalText(refusal: PluginRefusal, translator: RefusalTranslator = i18n): string {
  const { details } = refusal;
  const key = refusalKey(refusal);
  if (key !== null) {
    const text = translator.t(key, reasonParams(details, translator));
    // A placeholder left unfilled means the details lacked a value: the code's text is better.
    if (!/\{\w+\}/.test(text)) return text;
  }
  const text = translator.errorText(refusal.code, '');
  const fields = fieldList(details, translator);
  return fields === null ? text : `${text} ${translator.t('plugins.refusal.fields', { fields })}`;
}

function reasonParams(
  details: Readonly<Record<string, unknown>>,
  translator: RefusalTranslator,
): MessageParams {
  const params: Record<string, string | number> = {};
  for (const name of ['entry', 'file', 'path', 'tool', 'plugin_id', 'command']) {
    const value = details[name];
    if (typeof value === 'string') params[name] = value;
  }
  for (const name of ['limit', 'line', 'column']) {
    const value = details[name];
    if (typeof value === 'number' && Number.isFinite(value)) params[name] = value;
  }
  if (typeof params.limit === 'number') params.size = byteSize(params.limit);
  const fields = fieldList(details, translator);
  if (fields !== null) params.fields = fields;
  return params;
}

/** The message for a known reason; a syntax error without a position (a refused alias) has its own. */
function refusalKey(refusal: PluginRefusal): MessageKey | null {
  const reason = refusal.details.reason;
  if (typeof reason !== 'string' || !Object.hasOwn(REASON_KEYS, reason)) return null;
  if (reason === 'manifest_yaml' && typeof refusal.details.line !== 'number') {
    return 'plugins.refusal.manifest_yaml_unplaced';
  }
  return REASON_KEYS[reason as keyof typeof REASON_KEYS];
}

/** "version: required; backend: required", or null when the details name no fields. */
function fieldList(details: Readonly<Record<string, unknown>>, translator: RefusalTranslator): string | null {
  if (!Array.isArray(details.fields) || details.fields.length === 0) return null;
  const items: string[] = [];
  for (const field of details.fields as unknown[]) {
    if (typeof field !== 'object' || field === null) continue;
    const { path, problem, allowed } = field as { path?: unknown; problem?: unknown; allowed?: unknown };
    if (typeof path !== 'string') continue;
    const values = Array.isArray(allowed) ? allowed.filter((value) => typeof value === 'string') : [];
    // A field problem this build does not know, or a closed list without its values, reads "not valid".
    const kind =
      typeof problem === 'string' &&
      Object.hasOwn(FIELD_KEYS, problem) &&
      (problem !== 'one_of' || values.length > 0)
        ? (problem as keyof typeof FIELD_KEYS)
        : 'invalid';
    items.push(
      translator.t(FIELD_KEYS[kind], {
        path: path || '—',
        allowed: values.join(translator.t('plugins.listSeparator')),
      }),
    );
  }
  return items.length === 0 ? null : items.join(translator.t('plugins.refusal.fieldSeparator'));
}

/** Limits come in bytes; units are the same in every language the app speaks. */
function byteSize(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${Math.round(bytes / (1024 * 1024))} MiB`;
  if (bytes >= 1024) return `${Math.round(bytes / 1024)} KiB`;
  return `${bytes} B`;
}

const PERMISSION_KEYS = {
  'notes.read': 'plugins.permission.notes.read',
  'notes.write': 'plugins.permission.notes.write',
  'memory.write': 'plugins.permission.memory.write',
  network: 'plugins.permission.network',
  'secrets.use': 'plugins.permission.secrets.use',
} as const satisfies Record<string, MessageKey>;

/** A permission's name in the reader's language; an id this build does not know stays as it is. */
export function permissionLabel(permission: string, translator: Pick<RefusalTranslator, 't'> = i18n): string {
  return Object.hasOwn(PERMISSION_KEYS, permission)
    ? translator.t(PERMISSION_KEYS[permission as keyof typeof PERMISSION_KEYS])
    : permission;
}

/**
 * What the user can do about a plugin's error, where the code alone does not say it. A
 * refused tool list cannot be fixed in settings: granting or restarting lists the same tools.
 */
const NEXT_STEP_KEYS: Readonly<Record<string, MessageKey>> = {
  MCP_TOOL_SCHEMA_INVALID: 'errors.mcp.toolSchemaInvalid.next',
};

export function pluginErrorNextStep(
  code: string,
  translator: Pick<RefusalTranslator, 't'> = i18n,
): string | null {
  return Object.hasOwn(NEXT_STEP_KEYS, code) ? translator.t(NEXT_STEP_KEYS[code]!) : null;
}

/** `details.problem` of MCP_TOOL_SCHEMA_INVALID (`src/plugins/tool-definitions.ts`) and its words. */
const TOOL_PROBLEM_KEYS = {
  too_many_tools: 'plugins.toolProblem.too_many_tools',
  name_invalid: 'plugins.toolProblem.name_invalid',
  name_too_long: 'plugins.toolProblem.name_too_long',
  name_duplicate: 'plugins.toolProblem.name_duplicate',
  description_too_long: 'plugins.toolProblem.description_too_long',
  schema_not_object: 'plugins.toolProblem.schema_not_object',
  schema_invalid: 'plugins.toolProblem.schema_invalid',
  permission_unknown: 'plugins.toolProblem.permission_unknown',
  permission_undeclared: 'plugins.toolProblem.permission_undeclared',
  manifest_mismatch: 'plugins.toolProblem.manifest_mismatch',
} as const satisfies Record<string, MessageKey>;

/**
 * Which tool a refused tool list stumbled on, and how, in the reader's language;
 * null when the details do not say (an older core, or another code).
 */
export function toolProblemText(
  code: string,
  details: Readonly<Record<string, unknown>>,
  translator: Pick<RefusalTranslator, 't'> = i18n,
): string | null {
  if (code !== 'MCP_TOOL_SCHEMA_INVALID') return null;
  const { problem, tool } = details;
  if (typeof problem !== 'string' || !Object.hasOwn(TOOL_PROBLEM_KEYS, problem)) return null;
  const text = translator.t(TOOL_PROBLEM_KEYS[problem as keyof typeof TOOL_PROBLEM_KEYS], {
    tool: typeof tool === 'string' ? tool : '',
  });
  return text.includes('“”') ? null : text;
}

/**
 * What to do about a refused package, where the code alone leaves the user stuck:
 * a second install of an installed plugin names the one in the way.
 */
export function refusalNextStep(
  refusal: PluginRefusal,
  plugins: readonly { plugin_id: string; name: string; version: string }[],
  translator: Pick<RefusalTranslator, 't'> = i18n,
): string | null {
  if (refusal.code !== 'PLUGIN_ALREADY_INSTALLED') return null;
  const installed = plugins.find((plugin) => plugin.plugin_id === refusal.details.plugin_id);
  return installed
    ? translator.t('plugins.alreadyInstalled.next', { name: installed.name, version: installed.version })
    : null;
}
