/**
 * Plugin and MCP wire DTOs (contract §7): field names as the contract writes
 * them. zod-free so the page can import the types and constants.
 */

/** The MCP protocol version the host asks for, then the older ones it accepts (§7.1). */
export const MCP_PROTOCOL_VERSION = '2025-11-25';
export const MCP_ACCEPTED_PROTOCOL_VERSIONS = [
  '2025-11-25',
  '2025-06-18',
  '2025-03-26',
  '2024-11-05',
] as const;

/** §7.2: one protocol message at most 2 MiB, one tool result at most 256 KiB. */
export const MCP_MAX_MESSAGE_BYTES = 2 * 1024 * 1024;
export const MCP_MAX_RESULT_BYTES = 256 * 1024;

export const PLUGIN_HOST_STATUSES = ['stopped', 'starting', 'ready', 'unhealthy', 'error'] as const;
export type PluginHostStatusValue = (typeof PLUGIN_HOST_STATUSES)[number];

export const PLUGIN_STATES = ['installed', 'permission_required', 'enabled', 'disabled', 'error'] as const;
export type PluginState = (typeof PLUGIN_STATES)[number];

/** Where a plugin's MCP server runs: a worker in this app, the companion (stdio) or a remote URL. */
export const PLUGIN_TRANSPORTS = ['worker', 'stdio', 'streamable_http'] as const;
export type PluginTransport = (typeof PLUGIN_TRANSPORTS)[number];

/**
 * Project permissions a plugin may declare and a tool may name in its
 * `_meta["notesagent/permission"]`. `secrets.use` lets commands receive the
 * secrets they declare.
 */
export const PLUGIN_PERMISSIONS = [
  'notes.read',
  'notes.write',
  'memory.write',
  'network',
  'secrets.use',
] as const;
export type PluginPermission = (typeof PLUGIN_PERMISSIONS)[number];

/** `GET /api/plugins/{plugin_id}/host` (§7.2). */
export interface PluginHostStatusDto {
  plugin_id: string;
  backend_type: 'mcp';
  transport: PluginTransport;
  status: PluginHostStatusValue;
  tools_count: number;
  started_at: string | null;
  last_seen_at: string | null;
  protocol_version: string | null;
  server_name: string | null;
  server_version: string | null;
  error: { code: string; message: string } | null;
}

/** A tool a plugin published, as the project sees it (`<plugin_id>.<tool>`). */
export interface PluginToolDto {
  name: string;
  plugin_id: string;
  tool_name: string;
  /** The name a person reads (MCP `title`, or `annotations.title` from older servers), when given. */
  title?: string;
  description: string;
  permission: string | null;
  input_schema: Record<string, unknown>;
}

/** Why a plugin is in its error state; `details` as its AppError had them (tool, problem, field). */
export interface PluginErrorDto {
  code: string;
  message: string;
  details?: Record<string, unknown>;
}

export interface PluginDto {
  plugin_id: string;
  name: string;
  version: string;
  description: string;
  state: PluginState;
  permissions: string[];
  granted_permissions: string[];
  transport: PluginTransport;
  tools: string[];
  commands: string[];
  installed_at: string;
  updated_at: string;
  error: PluginErrorDto | null;
}

export const SETTING_FIELD_TYPES = ['string', 'number', 'boolean', 'select', 'secret'] as const;
export type SettingFieldType = (typeof SETTING_FIELD_TYPES)[number];

export interface PluginSettingOption {
  value: string;
  label: string;
}

export interface PluginSettingField {
  key: string;
  label: string;
  description?: string;
  type: SettingFieldType;
  required: boolean;
  default?: string | number | boolean;
  minimum?: number;
  maximum?: number;
  options: PluginSettingOption[];
}

export type PluginSettingValue = string | number | boolean;

/** `GET /api/plugins/{plugin_id}/settings` (§7.5). */
export interface PluginSettingsDto {
  plugin_id: string;
  schema_version: number;
  fields: PluginSettingField[];
  values: Record<string, PluginSettingValue>;
  secrets: Record<string, { configured: boolean }>;
}

/** `PUT /api/plugins/{plugin_id}/settings/{key}/secret` answer (§7.6): never the value. */
export interface PluginSecretStatusDto {
  plugin_id: string;
  key: string;
  configured: boolean;
}

export const COMMAND_LOCATIONS = ['command_palette', 'context_menu'] as const;
export type CommandLocation = (typeof COMMAND_LOCATIONS)[number];

/** Host-defined `when` tokens (§7.3); plugins pick from these, they never ship expressions. */
export const WHEN_TOKENS = ['workspace.has_vault', 'editor.has_note', 'editor.has_selection'] as const;
export type WhenToken = (typeof WHEN_TOKENS)[number];

/** `GET /api/plugin-contributions/commands` item (§7.3). */
export interface PluginCommandDto {
  command_id: string;
  plugin_id: string;
  title: string;
  description: string;
  icon: string | null;
  locations: CommandLocation[];
  when: WhenToken[];
  parameters: Record<string, unknown>;
  enabled: boolean;
}

export const EFFECT_TYPES = ['none', 'notification', 'navigate', 'refresh', 'job'] as const;
export const NOTIFICATION_LEVELS = ['info', 'success', 'warning', 'error'] as const;
export const REFRESH_SCOPES = ['workspace', 'commands', 'settings', 'plugins'] as const;
/** Host route names a command may navigate to. */
export const NAVIGATE_ROUTES = ['notes', 'search', 'chat', 'agent', 'settings', 'plugins'] as const;

/** §7.4 effects: a closed union, handled exhaustively, never run as code. */
export type CommandEffect =
  | { type: 'none'; payload: Record<string, never> }
  | { type: 'notification'; payload: { level: (typeof NOTIFICATION_LEVELS)[number]; message: string } }
  | { type: 'navigate'; payload: { route: (typeof NAVIGATE_ROUTES)[number] } }
  | { type: 'refresh'; payload: { scope: (typeof REFRESH_SCOPES)[number] } }
  | { type: 'job'; payload: { job_id: string } };

export interface CommandContext {
  note_id?: string;
  selection?: string;
}

/** `POST /api/plugin-contributions/commands/{command_id}/execute` answer (§7.4). */
export interface CommandExecutionDto {
  command_id: string;
  status: 'completed';
  effect: CommandEffect;
}

/** One audit row: never arguments, context, effect or secrets (§7.4). */
export interface CommandAuditEntry {
  command_id: string;
  plugin_id: string;
  status: 'completed' | 'failed';
  duration_ms: number;
  error_code: string | null;
  timestamp: string;
}
