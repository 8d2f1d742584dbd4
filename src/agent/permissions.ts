import { toIsoUtc } from '../contracts';
import { newId, systemClock, type Clock } from '../core/ids';
import type { MetonaRiskLevel } from '../ir';
import type { AgentEventData, PermissionDecision } from './agent-events';
import { SecretRedactor } from './redaction';
import {
  truncateText,
  type AuthorizationOutcome,
  type PreviewAction,
  type RegisteredTool,
} from './tool-registry';

export type { PermissionDecision } from './agent-events';

/** What the user is asked (the UI renders it; `PermissionRequired` carries the same). */
export interface PermissionRequest {
  request_id: string;
  run_id: string;
  permission: string;
  tool: string;
  tool_call_id: string;
  risk_level: MetonaRiskLevel;
  /** Redacted, shortened arguments: enough to decide, never a full note body. */
  arguments_summary: string;
  /** One line a person can read (the tool's preview). */
  summary?: string;
  /** For note writes: the unified diff the call would apply. */
  diff?: string;
  /** `summary` as data (the page words it in the user's language). */
  action?: PreviewAction;
}

/**
 * What a prompt rejects with when the request's tool went away while it waited (its plugin
 * was turned off or uninstalled): nobody can allow a tool that no longer exists.
 */
export class PermissionWithdrawnError extends Error {
  constructor(readonly tool: string) {
    super(`The tool "${tool}" is no longer available.`);
    this.name = 'PermissionWithdrawnError';
  }
}

/** Asks the user; the app's implementation shows allow once / always allow / deny. */
export interface PermissionPrompt {
  /**
   * Rejects or ignores the decision once `signal` aborts (the run was cancelled); rejects with
   * `PermissionWithdrawnError` when the tool is gone before the user answered.
   */
  ask(request: PermissionRequest, signal: AbortSignal): Promise<PermissionDecision>;
}

export interface PermissionGrant {
  permission: string;
  granted_at: string;
  /** The tool whose prompt created the grant. */
  tool: string;
}

/** Persisted "always allow" grants, revocable from settings. */
export interface GrantStore {
  get(permission: string): Promise<PermissionGrant | undefined>;
  put(grant: PermissionGrant): Promise<void>;
  delete(permission: string): Promise<boolean>;
  list(): Promise<PermissionGrant[]>;
}

export class MemoryGrantStore implements GrantStore {
  readonly #grants = new Map<string, PermissionGrant>();

  async get(permission: string): Promise<PermissionGrant | undefined> {
    return this.#grants.get(permission);
  }

  async put(grant: PermissionGrant): Promise<void> {
    this.#grants.set(grant.permission, grant);
  }

  async delete(permission: string): Promise<boolean> {
    return this.#grants.delete(permission);
  }

  async list(): Promise<PermissionGrant[]> {
    return [...this.#grants.values()];
  }
}

export type PermissionEventSink = <E extends 'PermissionRequired' | 'PermissionResolved'>(
  event: E,
  data: AgentEventData[E],
) => Promise<unknown>;

export interface AuthorizeInput {
  runId: string;
  tool: RegisteredTool;
  toolCallId: string;
  args: Record<string, unknown>;
  signal: AbortSignal;
  emit: PermissionEventSink;
}

export interface PermissionGateOptions {
  /** Absent: nobody can be asked, so every tool that needs permission is denied. */
  prompt?: PermissionPrompt;
  grants?: GrantStore;
  redactor?: SecretRedactor;
  clock?: Clock;
  newId?: (prefix: string) => string;
}

const ARGUMENT_SUMMARY_CHARS = 600;
const VALUE_CHARS = 160;
const SUMMARY_CHARS = 200;
const DIFF_CHARS = 8_000;

/** `{"note_id":"n1","text":"…"}` with long strings cut, for a prompt the user can read. */
export function summarizeArguments(args: Record<string, unknown>, redactor?: SecretRedactor): string {
  const shorten = (value: unknown): unknown => {
    if (typeof value === 'string') return truncateText(value, VALUE_CHARS);
    if (Array.isArray(value)) return value.slice(0, 20).map(shorten);
    if (typeof value === 'object' && value !== null) {
      return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, shorten(inner)]));
    }
    return value;
  };
  const safe = (redactor ?? new SecretRedactor()).redact(args);
  return truncateText(JSON.stringify(shorten(safe)) ?? '{}', ARGUMENT_SUMMARY_CHARS);
}

/**
 * The gate in front of tools that write. A stored grant for the permission
 * answers at once; otherwise the user is asked (`PermissionRequired`), and the
 * answer is recorded (`PermissionResolved`). `always_allow` is stored in the
 * GrantStore until revoked.
 */
export class PermissionGate {
  readonly #prompt: PermissionPrompt | undefined;
  readonly #grants: GrantStore;
  readonly #redactor: SecretRedactor | undefined;
  readonly #clock: Clock;
  readonly #newId: (prefix: string) => string;

  constructor(options: PermissionGateOptions = {}) {
    this.#prompt = options.prompt;
    this.#grants = options.grants ?? new MemoryGrantStore();
    this.#redactor = options.redactor;
    this.#clock = options.clock ?? systemClock;
    this.#newId = options.newId ?? newId;
  }

  listGrants(): Promise<PermissionGrant[]> {
    return this.#grants.list();
  }

  revoke(permission: string): Promise<boolean> {
    return this.#grants.delete(permission);
  }

  async authorize(input: AuthorizeInput): Promise<AuthorizationOutcome> {
    const { tool, emit } = input;
    if (!tool.definition.requiresPermission) return { allowed: true };
    const requestId = this.#newId('permission');
    const base = {
      request_id: requestId,
      permission: tool.permission,
      tool: tool.definition.name,
      tool_call_id: input.toolCallId,
    };
    if (await this.#grants.get(tool.permission)) {
      await emit('PermissionResolved', { ...base, decision: 'always_allow', source: 'grant' });
      return { allowed: true };
    }
    if (!this.#prompt) {
      await emit('PermissionResolved', { ...base, decision: 'deny', source: 'unavailable' });
      return {
        allowed: false,
        reason: `Permission "${tool.permission}" is needed for ${tool.definition.name}, and nobody can be asked for it here. The call was not executed.`,
      };
    }

    const preview = await this.#preview(input);
    const request: PermissionRequest = {
      ...base,
      run_id: input.runId,
      risk_level: tool.definition.riskLevel,
      arguments_summary: summarizeArguments(input.args, this.#redactor),
      ...preview,
    };
    await emit('PermissionRequired', {
      request_id: request.request_id,
      permission: request.permission,
      tool: request.tool,
      tool_call_id: request.tool_call_id,
      risk_level: request.risk_level,
      arguments_summary: request.arguments_summary,
      ...preview,
    });

    let decision: PermissionDecision | undefined;
    try {
      decision = await this.#ask(request, input.signal);
    } catch (error) {
      if (error instanceof PermissionWithdrawnError && !input.signal.aborted) {
        await emit('PermissionResolved', { ...base, decision: 'deny', source: 'withdrawn' });
        return {
          allowed: false,
          withdrawn: true,
          reason: `The tool ${tool.definition.name} was removed while it waited for permission (its plugin was turned off or uninstalled). The call was not executed; continue without it.`,
        };
      }
      if (!input.signal.aborted) {
        // The prompt itself failed: no consent was given.
        await emit('PermissionResolved', { ...base, decision: 'deny', source: 'unavailable' });
        return {
          allowed: false,
          reason: `Permission "${tool.permission}" could not be asked for. The call was not executed.`,
        };
      }
    }
    if (decision === undefined || input.signal.aborted) {
      await emit('PermissionResolved', { ...base, decision: 'deny', source: 'cancelled' });
      return {
        allowed: false,
        reason: 'The run was cancelled before permission was given.',
        cancelled: true,
      };
    }
    if (decision === 'always_allow') {
      await this.#grants.put({
        permission: tool.permission,
        tool: tool.definition.name,
        granted_at: toIsoUtc(this.#clock()),
      });
    }
    await emit('PermissionResolved', { ...base, decision, source: 'user' });
    if (decision === 'deny') {
      return {
        allowed: false,
        reason: `The user denied permission "${tool.permission}" for ${tool.definition.name}. The call was not executed; do not retry it, continue without it or ask the user.`,
      };
    }
    return { allowed: true };
  }

  /**
   * The tool's own account of the call. A preview that fails (the note is
   * gone) leaves the prompt with the arguments; the call itself reports why.
   */
  async #preview(
    input: AuthorizeInput,
  ): Promise<{ summary?: string; diff?: string; action?: PreviewAction }> {
    const preview = input.tool.spec.preview;
    if (!preview) return {};
    try {
      const result = await preview(input.args as never, { signal: input.signal });
      const redact = (text: string) => (this.#redactor ? this.#redactor.redactText(text) : text);
      return {
        summary: truncateText(redact(result.summary.replace(/\s+/g, ' ').trim()), SUMMARY_CHARS),
        ...(result.diff !== undefined && { diff: truncateText(redact(result.diff), DIFF_CHARS) }),
        ...(result.action && {
          action: {
            ...result.action,
            title: truncateText(redact(result.action.title.replace(/\s+/g, ' ').trim()), SUMMARY_CHARS),
          },
        }),
      };
    } catch {
      return {};
    }
  }

  /** The prompt's answer, or undefined as soon as the run is cancelled. */
  #ask(request: PermissionRequest, signal: AbortSignal): Promise<PermissionDecision | undefined> {
    const prompt = this.#prompt;
    if (!prompt || signal.aborted) return Promise.resolve(undefined);
    return new Promise((resolve, reject) => {
      const onAbort = () => resolve(undefined);
      signal.addEventListener('abort', onAbort, { once: true });
      prompt.ask(request, signal).then(
        (decision) => {
          signal.removeEventListener('abort', onAbort);
          resolve(decision);
        },
        (error: unknown) => {
          signal.removeEventListener('abort', onAbort);
          reject(error);
        },
      );
    });
  }
}
