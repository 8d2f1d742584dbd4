import type { z } from 'zod';
import { errorText, AgentErrorCode } from './error-codes';
import { ideCallbackAnswerSchema, type IdeCallbackAnswer } from './ide-callbacks';
import {
  commandSchemas,
  isCommandName,
  requestIdSchema,
  type AgentCommand,
  type RequestId,
} from './requests';

/** What one text frame from a plugin turned out to be. */
export type ParsedFrame =
  | { kind: 'command'; command: AgentCommand }
  | { kind: 'callback_answer'; answer: IdeCallbackAnswer }
  | { kind: 'invalid'; requestId: RequestId | null; error: string };

const REQUEST_ID_PATTERN = /"request_id"\s*:\s*("(?:[^"\\]|\\.){1,200}"|-?\d{1,16}(?:\.\d+)?)/;
const SALVAGE_WINDOW = 4096;

/**
 * Best effort for frames that cannot be parsed (broken or oversized JSON): the
 * protocol wants the request_id back whenever it can be read.
 */
export function salvageRequestId(text: string): RequestId | null {
  const match = REQUEST_ID_PATTERN.exec(text.slice(0, SALVAGE_WINDOW));
  if (!match?.[1]) return null;
  try {
    const parsed = requestIdSchema.safeParse(JSON.parse(match[1]));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

function describeIssues(error: z.ZodError): string {
  return error.issues
    .slice(0, 3)
    .map((issue) => (issue.path.length ? `${issue.path.join('.')}: ${issue.message}` : issue.message))
    .join('; ');
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Never throws: every malformed input becomes an `invalid` result with the reply's error text. */
export function parseFrame(text: string): ParsedFrame {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { kind: 'invalid', requestId: salvageRequestId(text), error: AgentErrorCode.INVALID_JSON };
  }
  if (!isPlainObject(value)) {
    return {
      kind: 'invalid',
      requestId: null,
      error: errorText(AgentErrorCode.INVALID_REQUEST, 'a request is a JSON object'),
    };
  }
  const id = requestIdSchema.safeParse(value.request_id);
  const requestId = id.success ? id.data : null;

  if (value.cmd === undefined && value.callback_id !== undefined) {
    const answer = ideCallbackAnswerSchema.safeParse(value);
    return answer.success
      ? { kind: 'callback_answer', answer: answer.data }
      : {
          kind: 'invalid',
          requestId,
          error: errorText(AgentErrorCode.INVALID_REQUEST, describeIssues(answer.error)),
        };
  }
  if (typeof value.cmd !== 'string') {
    return {
      kind: 'invalid',
      requestId,
      error: errorText(AgentErrorCode.INVALID_REQUEST, 'cmd is required'),
    };
  }
  if (!isCommandName(value.cmd)) {
    return {
      kind: 'invalid',
      requestId,
      error: errorText(AgentErrorCode.UNKNOWN_CMD, value.cmd.slice(0, 64)),
    };
  }
  try {
    const parsed = commandSchemas[value.cmd].safeParse(value);
    if (parsed.success) return { kind: 'command', command: parsed.data };
    return {
      kind: 'invalid',
      requestId,
      error: errorText(AgentErrorCode.INVALID_REQUEST, describeIssues(parsed.error)),
    };
  } catch {
    // A symbol tree nested deep enough overflows the recursive schema's stack.
    return {
      kind: 'invalid',
      requestId,
      error: errorText(AgentErrorCode.INVALID_REQUEST, 'nested too deeply'),
    };
  }
}
