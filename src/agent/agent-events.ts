import type { EventEnvelope, ErrorCode } from '../contracts';
import type { MetonaErrorCode, MetonaFinishReason, MetonaRiskLevel } from '../ir';
import type { PreviewAction, ToolStatus } from './tool-registry';

/**
 * Agent run events (contract §6.1 and §6.3): the first-phase names plus the
 * model-call and permission events. Every run's events live in the EventLog
 * under `resource_id = run_id`; fields are snake_case like the contract's.
 */
export const AGENT_EVENT_NAMES = [
  'RunStarted',
  'TextDelta',
  'ThinkingDelta',
  'ModelCallStarted',
  'ModelCallCompleted',
  'ModelCallFailed',
  'ToolCall',
  'ToolResult',
  'PermissionRequired',
  'PermissionResolved',
  'ProviderSwitched',
  'AttemptDiscarded',
  'Usage',
  'Citation',
  'RunCompleted',
  'RunFailed',
  'RunCancelled',
] as const;
export type AgentEventName = (typeof AGENT_EVENT_NAMES)[number];

export type PermissionDecision = 'allow_once' | 'always_allow' | 'deny';

/** Why a run failed; `code` carries the contract error code a user sees. */
export type RunFailureReason =
  'max_iterations' | 'timeout' | 'token_budget' | 'context_length' | 'model_error' | 'internal';

export type ModelCallPurpose = 'step' | 'compression';

export interface TokenUsageData {
  input_tokens: number;
  output_tokens: number;
  total_tokens: number;
}

/** A large payload kept out of the event (§6.4) and stored beside it. */
export interface ArtifactRef {
  artifact_id: string;
  size_bytes: number;
  mime_type: string;
}

/** What a run was configured with (§6.4: reports must stay explainable). Never secrets. */
export interface AgentConfigSnapshot {
  provider_id: string;
  model: string;
  /** Where the router moves when the provider keeps failing; null without one. */
  fallback?: { provider_id: string; model: string } | null;
  agent_version: string;
  max_steps: number;
  token_budget: number | null;
  timeout_ms: number | null;
  allowed_tools: string[] | null;
  max_tool_calls: number | null;
  context_window: number;
  kept_rounds: number;
  tools: Array<{
    name: string;
    risk_level: MetonaRiskLevel;
    requires_permission: boolean;
    permission: string;
  }>;
  params: Record<string, unknown>;
  metadata: Record<string, unknown>;
}

export interface AgentEventData {
  RunStarted: { run_id: string; session_id: string; input: string; config_snapshot: AgentConfigSnapshot };
  TextDelta: { model_call_id: string; step: number; delta: string };
  ThinkingDelta: { model_call_id: string; step: number; delta: string };
  ModelCallStarted: {
    model_call_id: string;
    provider_id: string;
    model: string;
    step: number;
    /** `compression`: the call that summarized older rounds (§ context compression). */
    purpose: ModelCallPurpose;
  };
  ModelCallCompleted: {
    model_call_id: string;
    /** Who answered (after a failover, the fallback). */
    provider_id?: string;
    model?: string;
    duration_ms: number;
    finish_reason: MetonaFinishReason;
    input_tokens: number;
    output_tokens: number;
    tool_calls: number;
  };
  ModelCallFailed: {
    model_call_id: string;
    duration_ms: number;
    code: ErrorCode;
    message: string;
    metona_code: MetonaErrorCode;
    retryable: boolean;
  };
  ToolCall: {
    tool_call_id: string;
    name: string;
    step: number;
    parent_model_call_id: string;
    /** Redacted; replaced by a preview plus `arguments_artifact` when large. */
    arguments: unknown;
    arguments_artifact?: ArtifactRef;
    /** What the model sent when it was not a JSON object (`arguments` is then `{}`). */
    arguments_text?: string;
  };
  ToolResult: {
    tool_call_id: string;
    name: string;
    step: number;
    parent_model_call_id: string;
    status: ToolStatus;
    success: boolean;
    /** What the model read (truncated, redacted). */
    summary: string;
    /** The raw result, redacted; a preview plus `result_artifact` when large. */
    result?: unknown;
    result_artifact?: ArtifactRef;
    error?: string;
    /** The project's error code of a failed call, where one names the failure. */
    error_code?: ErrorCode;
    duration_ms: number;
  };
  PermissionRequired: {
    request_id: string;
    permission: string;
    tool: string;
    tool_call_id: string;
    risk_level: MetonaRiskLevel;
    arguments_summary: string;
    /** One line a person can read: what the call will do. */
    summary?: string;
    /** For note writes: the unified diff the call will apply. */
    diff?: string;
    /** `summary` as data, for a prompt in the user's language. */
    action?: PreviewAction;
  };
  PermissionResolved: {
    request_id: string;
    permission: string;
    tool: string;
    tool_call_id: string;
    decision: PermissionDecision;
    /**
     * `grant`: a stored "always allow" answered without a prompt (no PermissionRequired before it).
     * `withdrawn`: the tool went away while the prompt waited (its plugin was turned off or removed).
     */
    source: 'user' | 'grant' | 'unavailable' | 'cancelled' | 'withdrawn';
  };
  /** The router gave up on the primary and moved to the provider's fallback (chat's event of the same name). */
  ProviderSwitched: {
    model_call_id: string;
    from: { provider_id: string; model: string };
    to: { provider_id: string; model: string };
    error_code: ErrorCode;
  };
  /** What this model call streamed so far is void: a retry or the fallback streams it again. */
  AttemptDiscarded: {
    model_call_id: string;
    provider_id: string;
    model: string;
    attempt: number;
    error_code: ErrorCode;
  };
  Usage: TokenUsageData & {
    model_call_id: string;
    /** True when the provider reported no usage and the numbers are estimates. */
    estimated: boolean;
    run_total_tokens: number;
  };
  Citation: {
    tool_call_id: string;
    note_id: string;
    block_id?: string;
    title?: string;
    snippet?: string;
    score?: number;
    start_line?: number;
    end_line?: number;
  };
  RunCompleted: {
    output: string;
    steps: number;
    finish_reason: MetonaFinishReason;
    duration_ms: number;
    token_usage: TokenUsageData;
    tool_calls: number;
  };
  RunFailed: {
    code: ErrorCode;
    message: string;
    reason: RunFailureReason;
    metona_code?: MetonaErrorCode;
    steps: number;
    duration_ms: number;
    token_usage: TokenUsageData;
  };
  RunCancelled: { reason: 'user'; steps: number; duration_ms: number; token_usage: TokenUsageData };
}

export type AgentEvent = {
  [E in AgentEventName]: EventEnvelope<AgentEventData[E], E>;
}[AgentEventName];
export type AgentEventOf<E extends AgentEventName> = Extract<AgentEvent, { event: E }>;

export type AgentRunStatus = 'running' | 'completed' | 'failed' | 'cancelled';
