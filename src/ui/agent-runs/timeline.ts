import type { PreviewAction } from '../../contracts/agent-runs';
import type { EventEnvelope } from '../../contracts/events';

/**
 * The run view's timeline, folded from the run's events in sequence order: a
 * model call collects its streamed text, thinking and usage; a tool call its
 * result. The same events always give the same timeline, so a stored run
 * replays exactly as it was shown live.
 */

export interface ModelCallItem {
  kind: 'model_call';
  event: 'ModelCallStarted';
  key: string;
  sequence: number;
  model_call_id: string;
  step: number;
  provider_id: string;
  model: string;
  purpose: string;
  text: string;
  thinking: string;
  status: 'running' | 'completed' | 'failed';
  duration_ms: number | null;
  total_tokens: number | null;
  finish_reason: string | null;
  /** The core's message of a failed call, and its code: the UI words it by code. */
  error: string | null;
  error_code: string | null;
}

export interface ToolCallItem {
  kind: 'tool_call';
  event: 'ToolCall';
  key: string;
  sequence: number;
  tool_call_id: string;
  name: string;
  step: number;
  arguments: unknown;
  /** What the model sent when it was not a JSON object; `arguments` is then `{}`. */
  arguments_text: string | null;
  status: string | null;
  success: boolean | null;
  summary: string | null;
  result: unknown;
  error: string | null;
  /** The project's error code of a failed call (MCP_TOOL_CALL_FAILED…), when the core named one. */
  error_code: string | null;
  duration_ms: number | null;
  /** Asked for a permission not answered yet: waiting on the user, not running. */
  awaiting_approval: boolean;
}

export interface EventItem {
  kind: 'event';
  event: string;
  key: string;
  sequence: number;
  data: Record<string, unknown>;
}

export type TimelineItem = ModelCallItem | ToolCallItem | EventItem;

export interface PendingPermission {
  request_id: string;
  permission: string;
  tool: string;
  arguments_summary: string;
  /** One readable line; empty for tools without a preview. */
  summary: string;
  /** The unified diff a note write would apply; empty when none. */
  diff: string;
  /** `summary` as data, to word it in the UI's language; null for tools without one. */
  action: PreviewAction | null;
}

const NOTE_KINDS: ReadonlySet<string> = new Set(['note_create', 'note_append', 'note_replace']);
const TASK_KINDS: ReadonlySet<string> = new Set(['tasks_add', 'tasks_create']);

const strings = (value: unknown): string[] =>
  Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];

function actionOf(value: unknown): PreviewAction | null {
  if (typeof value !== 'object' || value === null) return null;
  const { kind, title, count, folder, tags_added, tags_removed } = value as Record<string, unknown>;
  if (typeof title !== 'string') return null;
  if (kind === 'note_organise') {
    return {
      kind,
      title,
      folder: typeof folder === 'string' ? folder : null,
      tags_added: strings(tags_added),
      tags_removed: strings(tags_removed),
    };
  }
  if (typeof kind !== 'string') return null;
  if (kind === 'note_create')
    return { kind, title, ...(typeof folder === 'string' && folder !== '' && { folder }) };
  if (NOTE_KINDS.has(kind)) return { kind: kind as 'note_append' | 'note_replace', title };
  if (!TASK_KINDS.has(kind)) return null;
  return {
    kind: kind as 'tasks_add' | 'tasks_create',
    title,
    count: typeof count === 'number' ? count : 0,
  };
}

/**
 * What a live run is doing now, so a run that waits says on what: the user's
 * answer, the model, or a tool. Null once it has ended (or before its first event).
 */
export type RunPhase =
  | { kind: 'approval'; tool: string }
  | { kind: 'model'; provider_id: string; model: string }
  | { kind: 'tool'; tool: string }
  | { kind: 'working' };

const TERMINAL = new Set(['RunCompleted', 'RunFailed', 'RunCancelled']);

function dataOf(envelope: EventEnvelope): Record<string, unknown> {
  return typeof envelope.data === 'object' && envelope.data !== null
    ? (envelope.data as Record<string, unknown>)
    : {};
}

const text = (value: unknown): string => (typeof value === 'string' ? value : '');
const num = (value: unknown): number | null => (typeof value === 'number' ? value : null);

export function buildTimeline(events: readonly EventEnvelope[]): TimelineItem[] {
  const items: TimelineItem[] = [];
  const modelCalls = new Map<string, ModelCallItem>();
  const toolCalls = new Map<string, ToolCallItem>();
  const ordered = [...events].sort((a, b) => a.sequence - b.sequence);
  for (const envelope of ordered) {
    const data = dataOf(envelope);
    const key = `${envelope.resource_id}:${envelope.sequence}`;
    const call = modelCalls.get(text(data.model_call_id));
    switch (envelope.event) {
      case 'ModelCallStarted': {
        const item: ModelCallItem = {
          kind: 'model_call',
          event: 'ModelCallStarted',
          key,
          sequence: envelope.sequence,
          model_call_id: text(data.model_call_id),
          step: num(data.step) ?? 0,
          provider_id: text(data.provider_id),
          model: text(data.model),
          purpose: text(data.purpose),
          text: '',
          thinking: '',
          status: 'running',
          duration_ms: null,
          total_tokens: null,
          finish_reason: null,
          error: null,
          error_code: null,
        };
        modelCalls.set(item.model_call_id, item);
        items.push(item);
        break;
      }
      case 'TextDelta':
        if (call) call.text += text(data.delta);
        break;
      case 'AttemptDiscarded':
        // The router retries or fails over: what this call streamed so far is void.
        if (call) {
          call.text = '';
          call.thinking = '';
        }
        items.push({ kind: 'event', event: envelope.event, key, sequence: envelope.sequence, data });
        break;
      case 'ThinkingDelta':
        if (call) call.thinking += text(data.delta);
        break;
      case 'ModelCallCompleted':
        if (call) {
          call.status = 'completed';
          // After a failover, the fallback answered.
          if (text(data.provider_id)) call.provider_id = text(data.provider_id);
          if (text(data.model)) call.model = text(data.model);
          call.duration_ms = num(data.duration_ms);
          call.finish_reason = text(data.finish_reason) || null;
        }
        break;
      case 'ModelCallFailed':
        if (call) {
          call.status = 'failed';
          call.duration_ms = num(data.duration_ms);
          call.error = text(data.message) || text(data.code);
          call.error_code = text(data.code) || null;
        }
        break;
      case 'Usage':
        if (call) call.total_tokens = num(data.total_tokens);
        break;
      case 'ToolCall': {
        const item: ToolCallItem = {
          kind: 'tool_call',
          event: 'ToolCall',
          key,
          sequence: envelope.sequence,
          tool_call_id: text(data.tool_call_id),
          name: text(data.name),
          step: num(data.step) ?? 0,
          arguments: data.arguments,
          arguments_text: text(data.arguments_text) || null,
          status: null,
          success: null,
          summary: null,
          result: undefined,
          error: null,
          error_code: null,
          duration_ms: null,
          awaiting_approval: false,
        };
        toolCalls.set(item.tool_call_id, item);
        items.push(item);
        break;
      }
      case 'ToolResult': {
        const tool = toolCalls.get(text(data.tool_call_id));
        if (!tool) break;
        tool.status = text(data.status) || null;
        tool.success = typeof data.success === 'boolean' ? data.success : null;
        tool.summary = text(data.summary) || null;
        tool.result = data.result;
        tool.error = text(data.error) || null;
        tool.error_code = text(data.error_code) || null;
        tool.duration_ms = num(data.duration_ms);
        tool.awaiting_approval = false;
        break;
      }
      case 'PermissionRequired':
      case 'PermissionResolved': {
        // Stored after the ToolCall (the model asked first), but the call runs only after the
        // answer: shown before the tool, whose row carries its result, so the steps read in order.
        const item: EventItem = {
          kind: 'event',
          event: envelope.event,
          key,
          sequence: envelope.sequence,
          data,
        };
        const tool = toolCalls.get(text(data.tool_call_id));
        if (tool && tool.status === null) tool.awaiting_approval = envelope.event === 'PermissionRequired';
        const at = tool && tool.status === null ? items.indexOf(tool) : -1;
        if (at >= 0) items.splice(at, 0, item);
        else items.push(item);
        break;
      }
      default:
        items.push({ kind: 'event', event: envelope.event, key, sequence: envelope.sequence, data });
    }
  }
  return items;
}

/** The permission prompt to show: asked, not answered, and the run has not ended. */
export function pendingPermission(events: readonly EventEnvelope[]): PendingPermission | null {
  const answered = new Set<string>();
  let pending: PendingPermission | null = null;
  for (const envelope of events) {
    const data = dataOf(envelope);
    if (TERMINAL.has(envelope.event)) return null;
    if (envelope.event === 'PermissionResolved') answered.add(text(data.request_id));
    if (envelope.event === 'PermissionRequired') {
      pending = {
        request_id: text(data.request_id),
        permission: text(data.permission),
        tool: text(data.tool),
        arguments_summary: text(data.arguments_summary),
        summary: text(data.summary),
        diff: text(data.diff),
        action: actionOf(data.action),
      };
    }
  }
  return pending && !answered.has(pending.request_id) ? pending : null;
}

export function runPhase(
  events: readonly EventEnvelope[],
  timeline: readonly TimelineItem[],
): RunPhase | null {
  if (events.length === 0 || events.some((envelope) => TERMINAL.has(envelope.event))) return null;
  const permission = pendingPermission(events);
  if (permission) return { kind: 'approval', tool: permission.tool };
  const last = timeline.at(-1);
  if (last?.kind === 'model_call' && last.status === 'running')
    return { kind: 'model', provider_id: last.provider_id, model: last.model };
  if (last?.kind === 'tool_call' && last.status === null) return { kind: 'tool', tool: last.name };
  return { kind: 'working' };
}

export function isTerminalRunEvent(name: string): boolean {
  return TERMINAL.has(name);
}

/** Arguments and results as readable JSON for the timeline. */
export function formatPayload(value: unknown, max = 2_000): string {
  if (value === undefined) return '';
  const json = typeof value === 'string' ? value : (JSON.stringify(value, null, 2) ?? '');
  return json.length > max ? `${json.slice(0, max)}…` : json;
}

/** A unified diff as lines marked added, removed, header or context (for colouring). */
export function diffLines(
  diff: string,
): Array<{ kind: 'add' | 'remove' | 'header' | 'context'; text: string }> {
  return diff
    .split('\n')
    .filter((line, index, all) => !(line === '' && index === all.length - 1))
    .map((line) => {
      if (line.startsWith('+++') || line.startsWith('---') || line.startsWith('@@'))
        return { kind: 'header' as const, text: line };
      if (line.startsWith('+')) return { kind: 'add' as const, text: line };
      if (line.startsWith('-')) return { kind: 'remove' as const, text: line };
      return { kind: 'context' as const, text: line };
    });
}

/**
 * A tool call's arguments on one line, as a person reads them beside the tool's
 * name (`expression: 17 * 23`): strings unquoted, other values as compact JSON,
 * cut at `max` characters. The full arguments stay in `formatPayload`.
 */
export function argumentsLine(value: unknown, max = 120): string {
  if (value === undefined || value === null) return '';
  const compact = (item: unknown): string =>
    typeof item === 'string' ? item.replace(/\s+/g, ' ') : (JSON.stringify(item) ?? '');
  const line =
    typeof value === 'object' && !Array.isArray(value)
      ? Object.entries(value as Record<string, unknown>)
          .map(([name, item]) => `${name}: ${compact(item)}`)
          .join(', ')
      : compact(value);
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}
