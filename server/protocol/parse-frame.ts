import type { z } from 'zod';
import { errorText, AgentErrorCode } from './error-codes';
import { ideCallbackAnswerSchema, type IdeCallbackAnswer } from './ide-callbacks';
import { frameEnvelope, requestIdFromSource, type RequestId } from './request-id';
import { commandSchemas, isCommandName, type AgentCommand } from './requests';
import { topLevelMembers } from './top-level-members';

/** What one text frame from a plugin turned out to be. */
export type ParsedFrame =
  | { kind: 'command'; command: AgentCommand }
  | { kind: 'callback_answer'; answer: IdeCallbackAnswer }
  /** `cmd`: the frame's top-level cmd when it is a string, so a refused task can still replace the last one. */
  | { kind: 'invalid'; requestId: RequestId | null; cmd?: string; error: string };

/**
 * Best effort for frames that cannot be parsed (broken or oversized JSON): the
 * protocol wants the request_id back whenever it can be read, wherever it is.
 */
export function salvageRequestId(text: string): RequestId | null {
  return frameEnvelope(text).requestId;
}

/** The parsed request_id, a number read again from the frame's text so no digit is lost. */
function readRequestId(value: unknown, text: string): RequestId | null {
  if (typeof value === 'string') return requestIdFromSource(JSON.stringify(value));
  if (typeof value !== 'number') return null;
  return requestIdFromSource(topLevelMembers(text, ['request_id']).get('request_id'));
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
    return { kind: 'invalid', ...frameEnvelope(text), error: AgentErrorCode.INVALID_JSON };
  }
  if (!isPlainObject(value)) {
    return {
      kind: 'invalid',
      requestId: null,
      error: errorText(AgentErrorCode.INVALID_REQUEST, 'a request is a JSON object'),
    };
  }
  const requestId = readRequestId(value.request_id, text);

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
  const cmd = value.cmd;
  if (typeof cmd !== 'string') {
    return {
      kind: 'invalid',
      requestId,
      error: errorText(AgentErrorCode.INVALID_REQUEST, 'cmd is required'),
    };
  }
  if (!isCommandName(cmd)) {
    return {
      kind: 'invalid',
      requestId,
      error: errorText(AgentErrorCode.UNKNOWN_CMD, cmd.slice(0, 64)),
    };
  }
  try {
    const parsed = commandSchemas[cmd].safeParse(value);
    // Valid, so request_id was read: the schema accepts what readRequestId does.
    if (parsed.success && requestId !== null) {
      return { kind: 'command', command: { ...parsed.data, request_id: requestId } as AgentCommand };
    }
    if (parsed.success) {
      return {
        kind: 'invalid',
        requestId,
        cmd,
        error: errorText(AgentErrorCode.INVALID_REQUEST, 'request_id: Invalid input'),
      };
    }
    return {
      kind: 'invalid',
      requestId,
      cmd,
      error: errorText(AgentErrorCode.INVALID_REQUEST, describeIssues(parsed.error)),
    };
  } catch {
    // A symbol tree nested deep enough overflows the recursive schema's stack.
    return {
      kind: 'invalid',
      requestId,
      cmd,
      error: errorText(AgentErrorCode.INVALID_REQUEST, 'nested too deeply'),
    };
  }
}
