import { topLevelMembers } from './top-level-members';

// The protocol's request_id is "随机生成" and echoed "同request". Plugins on the
// JVM send Random.nextLong() values, which a JavaScript number rounds
// (1234567890123456789 → 1234567890123456800), so a number whose source text a
// number would change is kept as that text and written back as it came.

/** A JSON number kept as its source text (beyond 2^53, `1.50`, `1e3`, `-0`). */
export interface RawNumberId {
  readonly raw: string;
}
/** A number, a string (1–200 characters), or a number kept as sent. */
export type RequestId = number | string | RawNumberId;

const JSON_NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;
export const MAX_REQUEST_ID_LENGTH = 200;

export function isRawNumberId(value: unknown): value is RawNumberId {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { raw?: unknown }).raw === 'string' &&
    JSON_NUMBER.test((value as RawNumberId).raw)
  );
}

/** A number's source text as a request id: a plain number when that writes back the same text. */
export function requestIdFromNumberText(text: string): RequestId | null {
  if (text.length > MAX_REQUEST_ID_LENGTH || !JSON_NUMBER.test(text)) return null;
  const value = Number(text);
  return Number.isFinite(value) && JSON.stringify(value) === text ? value : { raw: text };
}

/** A member's source text (from topLevelMembers) as a request id, or null when it is not one. */
export function requestIdFromSource(source: string | undefined): RequestId | null {
  if (source === undefined) return null;
  if (!source.startsWith('"')) return requestIdFromNumberText(source);
  try {
    const value = JSON.parse(source) as string;
    return value.length >= 1 && value.length <= MAX_REQUEST_ID_LENGTH ? value : null;
  } catch {
    return null;
  }
}

/** Logs take primitives: a kept number is logged as its text. */
export function requestIdForLog(id: RequestId | null): string | number | null {
  return isRawNumberId(id) ? id.raw : id;
}

/** What a task's request id is called inside the Metona IR (a string). */
export function requestIdText(id: RequestId): string {
  return isRawNumberId(id) ? id.raw : String(id);
}

const ID_MEMBERS = new Set(['request_id', 'task_request_id']);

/**
 * JSON.stringify for frames to the plugin, except that a request id kept as
 * source text is written as that text (frames are flat at the top, where ids are).
 */
export function encodeFrame(frame: object): string {
  const members: string[] = [];
  for (const [name, value] of Object.entries(frame)) {
    const json: string | undefined =
      ID_MEMBERS.has(name) && isRawNumberId(value) ? value.raw : JSON.stringify(value);
    if (json !== undefined) members.push(`${JSON.stringify(name)}:${json}`);
  }
  return `{${members.join(',')}}`;
}

/** What a frame says about itself without being parsed: its request_id and cmd. */
export interface FrameEnvelope {
  requestId: RequestId | null;
  cmd?: string;
}

/** Linear in the frame and safe on broken or truncated JSON. */
export function frameEnvelope(text: string): FrameEnvelope {
  const members = topLevelMembers(text, ['request_id', 'cmd']);
  const cmdSource = members.get('cmd');
  let cmd: string | undefined;
  if (cmdSource?.startsWith('"')) {
    try {
      cmd = JSON.parse(cmdSource) as string;
    } catch {
      cmd = undefined;
    }
  }
  return { requestId: requestIdFromSource(members.get('request_id')), ...(cmd !== undefined && { cmd }) };
}
