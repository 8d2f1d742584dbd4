import type { z } from 'zod';
import type { ErrorCode } from './error-codes';
import type {
  agentTraceQuerySchema,
  resolvePermissionSchema,
  startAgentRunSchema,
} from './agent-runs-schemas';

/**
 * Agent run DTOs. Zod-free, so the page can import them; the request schemas
 * live in agent-runs-schemas.ts. The service maps its stored rows to these shapes
 * field by field, so a storage change cannot change the wire unnoticed.
 */

export const AGENT_RUN_STATUSES = ['queued', 'running', 'completed', 'failed', 'cancelled'] as const;
export type AgentRunStatus = (typeof AGENT_RUN_STATUSES)[number];

/** What the run list shows; the trace (events) is the full record. Never holds secrets. */
export interface AgentRunDto {
  run_id: string;
  job_id: string;
  status: AgentRunStatus;
  /** The first line of the (redacted) prompt. */
  title: string;
  provider_id: string;
  model: string;
  created_at: string;
  updated_at: string;
  completed_at: string | null;
  /** The final answer (redacted), once completed. */
  output: string | null;
  error: { code: ErrorCode; message: string } | null;
  steps: number;
  tool_calls: number;
  total_tokens: number;
}

export type StartAgentRunInput = z.input<typeof startAgentRunSchema>;
export type ResolvePermissionInput = z.input<typeof resolvePermissionSchema>;
export type TraceQuery = z.input<typeof agentTraceQuerySchema>;

/** What the Agent view lists: a tool every run is offered. */
export interface AgentToolInfoDto {
  name: string;
  description: string;
  risk_level: string;
  requires_permission: boolean;
  permission: string;
}

/**
 * What a note write would do, as data (a tool's preview and the `action` of
 * `PermissionRequired`): the approval prompt words it in the user's language.
 */
export type PreviewAction =
  | { kind: 'note_append' | 'note_replace'; title: string }
  /** `folder`: where the new note lands, when not at the top. */
  | { kind: 'note_create'; title: string; folder?: string }
  | { kind: 'tasks_add' | 'tasks_create'; title: string; count: number }
  | {
      kind: 'note_organise';
      title: string;
      /** The folder the note moves to ('' the top level); null when it stays. */
      folder: string | null;
      tags_added: string[];
      tags_removed: string[];
    };

/** An agent change to a note that the note view offers to undo. */
export interface AgentNoteChangeDto {
  version_id: string;
  note_id: string;
  run_id: string | null;
  tool: string | null;
  created_at: string;
  /** False once undone, or when the note changed after the agent's edit. */
  undoable: boolean;
}
