/**
 * Every error code a user can see, each with what the UI needs to know about it.
 * The contract's codes (the error-code tables of its §5.5, §6.5, §7.7, §8.4,
 * §9.8, §9.9, §10.5, §11.4, §12.4 and the envelope of §4.5; docs/architecture.md
 * maps the sections to the code) come first, verbatim; the project's own codes
 * follow for cases the contract leaves open (validation, state conflicts, jobs,
 * notes, storage).
 */
export interface ErrorCodeEntry {
  /**
   * The core's message names the particular thing that went wrong (which file,
   * field, tool, command or method): a toast shows it after the text chosen by
   * the code, so the reader gets both their language and the specifics. False
   * where the message says nothing the localized text does not.
   */
  readonly detailed: boolean;
}

export const CONTRACT_ERROR_CATALOG = {
  // §4.5 common
  RESOURCE_NOT_FOUND: { detailed: false },
  // §5.5 multimodal
  ATTACHMENT_NOT_FOUND: { detailed: true },
  UNSUPPORTED_AUDIO_FORMAT: { detailed: true },
  TRANSCRIPTION_PROFILE_NOT_FOUND: { detailed: true },
  TRANSCRIPTION_MODEL_UNAVAILABLE: { detailed: true },
  DIARIZATION_MODEL_UNAVAILABLE: { detailed: true },
  TRANSCRIPTION_FAILED: { detailed: true },
  TRANSCRIPTION_CANCELLED: { detailed: false },
  TRANSCRIPT_NOT_READY: { detailed: true },
  // §6.5 trace
  AGENT_RUN_NOT_FOUND: { detailed: true },
  TRACE_NOT_AVAILABLE: { detailed: true },
  TRACE_CURSOR_EXPIRED: { detailed: true },
  TRACE_CURSOR_INVALID: { detailed: true },
  // §7.7 plugins / MCP
  PLUGIN_HOST_UNAVAILABLE: { detailed: true },
  PLUGIN_HOST_START_FAILED: { detailed: true },
  PLUGIN_HOST_UNHEALTHY: { detailed: true },
  MCP_INITIALIZE_FAILED: { detailed: true },
  MCP_CAPABILITY_UNSUPPORTED: { detailed: true },
  MCP_TOOL_SCHEMA_INVALID: { detailed: true },
  MCP_TOOL_CALL_FAILED: { detailed: true },
  MCP_TOOL_RESULT_TOO_LARGE: { detailed: true },
  MCP_TRUST_APPROVAL_REQUIRED: { detailed: true },
  PLUGIN_COMMAND_NOT_FOUND: { detailed: true },
  PLUGIN_COMMAND_CONFLICT: { detailed: true },
  PLUGIN_COMMAND_INVALID: { detailed: true },
  PLUGIN_COMMAND_ARGUMENT_INVALID: { detailed: true },
  PLUGIN_COMMAND_CONTEXT_INVALID: { detailed: true },
  PLUGIN_COMMAND_TIMEOUT: { detailed: true },
  PLUGIN_COMMAND_EXECUTION_FAILED: { detailed: true },
  PLUGIN_COMMAND_RESULT_INVALID: { detailed: true },
  PLUGIN_COMMAND_RESULT_TOO_LARGE: { detailed: true },
  PLUGIN_COMMAND_TARGET_SCHEMA_MISMATCH: { detailed: true },
  PLUGIN_SETTINGS_SCHEMA_INVALID: { detailed: true },
  PLUGIN_SETTINGS_VERSION_CONFLICT: { detailed: true },
  PLUGIN_SETTINGS_FIELD_INVALID: { detailed: true },
  PLUGIN_SETTINGS_REQUIRED: { detailed: true },
  PLUGIN_SECRET_FIELD_NOT_FOUND: { detailed: true },
  PLUGIN_SECRET_ACCESS_DENIED: { detailed: true },
  PLUGIN_SECRET_REQUIRED: { detailed: true },
  PLUGIN_SECRET_VALUE_INVALID: { detailed: true },
  PLUGIN_SECRET_STORE_ERROR: { detailed: true },
  PLUGIN_STORAGE_ERROR: { detailed: true },
  CREDENTIAL_NAMESPACE_RESERVED: { detailed: false },
  // §8.4 providers
  PROVIDER_AUTH_FAILED: { detailed: false },
  PROVIDER_RATE_LIMITED: { detailed: false },
  PROVIDER_TIMEOUT: { detailed: false },
  PROVIDER_UNAVAILABLE: { detailed: false },
  PROVIDER_PROTOCOL_ERROR: { detailed: false },
  PROVIDER_STREAM_INTERRUPTED: { detailed: false },
  MODEL_NOT_FOUND: { detailed: false },
  MODEL_CAPABILITY_MISMATCH: { detailed: true },
  MODEL_CONTEXT_LENGTH_EXCEEDED: { detailed: true },
  // §9.8 / §9.9 benchmarks and retrieval
  BENCHMARK_DATASET_NOT_FOUND: { detailed: true },
  BENCHMARK_DATASET_INVALID: { detailed: true },
  BENCHMARK_CONFIG_INVALID: { detailed: true },
  BENCHMARK_INDEX_INCOMPATIBLE: { detailed: true },
  BENCHMARK_RUN_NOT_FOUND: { detailed: true },
  BENCHMARK_RUN_FAILED: { detailed: true },
  INDEX_MODEL_MISMATCH: { detailed: false },
  EMBEDDING_DIMENSION_MISMATCH: { detailed: false },
  EMBEDDING_MODEL_UNAVAILABLE: { detailed: false },
  VECTOR_INDEX_REBUILD_REQUIRED: { detailed: false },
  // §10.5 export
  EXPORT_SOURCE_NOT_FOUND: { detailed: false },
  EXPORT_FORMAT_UNSUPPORTED: { detailed: false },
  EXPORT_OPTIONS_INVALID: { detailed: false },
  EXPORT_RENDER_FAILED: { detailed: false },
  EXPORT_UNSUPPORTED_CONTENT: { detailed: false },
  EXPORT_JOB_NOT_FOUND: { detailed: false },
  EXPORT_FILE_EXPIRED: { detailed: false },
  // §11.4 themes
  THEME_PACKAGE_NOT_FOUND: { detailed: false },
  THEME_MANIFEST_INVALID: { detailed: false },
  THEME_PACKAGE_INCOMPATIBLE: { detailed: false },
  THEME_RESOURCE_OUTSIDE_PACKAGE: { detailed: false },
  THEME_CSS_UNSAFE: { detailed: false },
  THEME_ALREADY_INSTALLED: { detailed: false },
  THEME_NOT_FOUND: { detailed: false },
  THEME_BUILTIN_PROTECTED: { detailed: false },
  // §12.4 visualisation
  MERMAID_PARSE_FAILED: { detailed: false },
  MERMAID_RENDER_FAILED: { detailed: false },
  MERMAID_SVG_UNSAFE: { detailed: false },
  FUNCTION_PLOT_PARSE_FAILED: { detailed: false },
  FUNCTION_PLOT_EXPRESSION_UNSAFE: { detailed: false },
  FUNCTION_PLOT_RENDER_FAILED: { detailed: false },
} as const satisfies Record<string, ErrorCodeEntry>;

/** Codes the contract does not name but every service needs. */
export const PROJECT_ERROR_CATALOG = {
  VALIDATION_FAILED: { detailed: false },
  INVALID_REQUEST: { detailed: true },
  STATE_CONFLICT: { detailed: false },
  JOB_NOT_FOUND: { detailed: false },
  JOB_INTERRUPTED: { detailed: false },
  JOB_CANCELLED: { detailed: false },
  JOB_FAILED: { detailed: false },
  NOTE_NOT_FOUND: { detailed: false },
  NOTE_VERSION_CONFLICT: { detailed: false },
  FOLDER_NOT_FOUND: { detailed: false },
  IMPORT_ARCHIVE_INVALID: { detailed: false },
  IMPORT_FILE_INVALID: { detailed: false },
  PAYLOAD_TOO_LARGE: { detailed: false },
  STORAGE_QUOTA_EXCEEDED: { detailed: false },
  STORAGE_ERROR: { detailed: false },
  SECRET_NOT_FOUND: { detailed: true },
  SECRET_STORE_ERROR: { detailed: true },
  SETTING_INVALID: { detailed: false },
  // plugin packages (the contract's §7.7 has no package codes)
  PLUGIN_NOT_FOUND: { detailed: true },
  PLUGIN_PACKAGE_INVALID: { detailed: true },
  PLUGIN_MANIFEST_INVALID: { detailed: true },
  PLUGIN_ALREADY_INSTALLED: { detailed: true },
  WORKER_UNAVAILABLE: { detailed: false },
  NOT_IMPLEMENTED: { detailed: false },
  /** The provider refused to answer on content grounds (its filter), not a protocol fault. */
  PROVIDER_CONTENT_FILTERED: { detailed: false },
  INTERNAL_ERROR: { detailed: false },
} as const satisfies Record<string, ErrorCodeEntry>;

export type ContractErrorCode = keyof typeof CONTRACT_ERROR_CATALOG;
export type ProjectErrorCode = keyof typeof PROJECT_ERROR_CATALOG;
export type ErrorCode = ContractErrorCode | ProjectErrorCode;

export const CONTRACT_ERROR_CODES = Object.keys(CONTRACT_ERROR_CATALOG) as readonly ContractErrorCode[];
export const PROJECT_ERROR_CODES = Object.keys(PROJECT_ERROR_CATALOG) as readonly ProjectErrorCode[];
export const ERROR_CODES: readonly ErrorCode[] = [...CONTRACT_ERROR_CODES, ...PROJECT_ERROR_CODES];

const CATALOG: Readonly<Record<ErrorCode, ErrorCodeEntry>> = {
  ...CONTRACT_ERROR_CATALOG,
  ...PROJECT_ERROR_CATALOG,
};

export function errorCodeEntry(code: ErrorCode): ErrorCodeEntry {
  return CATALOG[code];
}

const knownCodes = new Set<string>(ERROR_CODES);
export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && knownCodes.has(value);
}

/**
 * HTTP status per code, following §14 (404 missing, 409 conflict, 413 too large,
 * 422 schema validation, 429 capacity, 501 reserved-but-unavailable, 502–504
 * upstream). In this browser app nothing speaks HTTP yet, but the status travels
 * with the error so the IDE agent service and any future HTTP host agree.
 */
const STATUS_OVERRIDES: Partial<Record<ErrorCode, number>> = {
  VALIDATION_FAILED: 422,
  INVALID_REQUEST: 400,
  UNSUPPORTED_AUDIO_FORMAT: 400,
  IMPORT_ARCHIVE_INVALID: 400,
  IMPORT_FILE_INVALID: 400,
  SETTING_INVALID: 422,
  TRACE_CURSOR_INVALID: 400,
  TRACE_CURSOR_EXPIRED: 409,
  STATE_CONFLICT: 409,
  NOTE_VERSION_CONFLICT: 409,
  TRANSCRIPT_NOT_READY: 409,
  INDEX_MODEL_MISMATCH: 409,
  EMBEDDING_DIMENSION_MISMATCH: 409,
  VECTOR_INDEX_REBUILD_REQUIRED: 409,
  BENCHMARK_INDEX_INCOMPATIBLE: 409,
  PLUGIN_COMMAND_CONFLICT: 409,
  PLUGIN_SETTINGS_VERSION_CONFLICT: 409,
  PLUGIN_SETTINGS_REQUIRED: 409,
  PLUGIN_SECRET_REQUIRED: 409,
  THEME_ALREADY_INSTALLED: 409,
  THEME_PACKAGE_INCOMPATIBLE: 409,
  THEME_BUILTIN_PROTECTED: 409,
  MODEL_CAPABILITY_MISMATCH: 409,
  EXPORT_FILE_EXPIRED: 410,
  PAYLOAD_TOO_LARGE: 413,
  MCP_TOOL_RESULT_TOO_LARGE: 413,
  PLUGIN_COMMAND_RESULT_TOO_LARGE: 413,
  STORAGE_QUOTA_EXCEEDED: 413,
  // The upstream provider rejected our key: a bad gateway to the caller, whose own session is fine (§14).
  PROVIDER_AUTH_FAILED: 502,
  // The provider's filter refused this content: nothing is wrong with the request's form.
  PROVIDER_CONTENT_FILTERED: 422,
  // User input (a diagram or plot the user wrote) that does not parse (§14: 400/422).
  MERMAID_PARSE_FAILED: 422,
  FUNCTION_PLOT_PARSE_FAILED: 422,
  PLUGIN_SECRET_ACCESS_DENIED: 403,
  CREDENTIAL_NAMESPACE_RESERVED: 403,
  MCP_TRUST_APPROVAL_REQUIRED: 403,
  PLUGIN_ALREADY_INSTALLED: 409,
  PROVIDER_RATE_LIMITED: 429,
  PROVIDER_TIMEOUT: 504,
  PLUGIN_COMMAND_TIMEOUT: 504,
  PROVIDER_UNAVAILABLE: 503,
  PLUGIN_HOST_UNAVAILABLE: 503,
  PLUGIN_HOST_UNHEALTHY: 503,
  TRANSCRIPTION_MODEL_UNAVAILABLE: 503,
  DIARIZATION_MODEL_UNAVAILABLE: 503,
  EMBEDDING_MODEL_UNAVAILABLE: 503,
  WORKER_UNAVAILABLE: 503,
  PROVIDER_PROTOCOL_ERROR: 502,
  PROVIDER_STREAM_INTERRUPTED: 502,
  MCP_INITIALIZE_FAILED: 502,
  MCP_TOOL_CALL_FAILED: 502,
  PLUGIN_HOST_START_FAILED: 502,
  MODEL_CONTEXT_LENGTH_EXCEEDED: 400,
  NOT_IMPLEMENTED: 501,
  MCP_CAPABILITY_UNSUPPORTED: 501,
  EXPORT_FORMAT_UNSUPPORTED: 400,
  EXPORT_UNSUPPORTED_CONTENT: 422,
  TRANSCRIPTION_CANCELLED: 409,
  JOB_CANCELLED: 409,
};

export function httpStatusFor(code: ErrorCode): number {
  const override = STATUS_OVERRIDES[code];
  if (override !== undefined) return override;
  if (code.endsWith('_NOT_FOUND')) return 404;
  if (code.endsWith('_INVALID') || code.endsWith('_UNSAFE') || code.endsWith('_OUTSIDE_PACKAGE')) return 422;
  return 500;
}
