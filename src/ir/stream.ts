import { z } from 'zod';
import { countSchema, idSchema, iterationSchema, timestampSchema } from './common';
import { metonaErrorSchema } from './errors';
import { metonaTokenUsageSchema } from './response';
import { metonaToolCallSchema } from './tool';

export const MetonaStreamEventType = {
  TEXT_DELTA: 'text_delta',
  REASONING_DELTA: 'reasoning_delta',
  TOOL_CALL_DELTA: 'tool_call_delta',
  TOOL_CALL_COMPLETE: 'tool_call_complete',
  THINKING_START: 'thinking_start',
  THINKING_END: 'thinking_end',
  ERROR: 'error',
  DONE: 'done',
  USAGE: 'usage',
} as const;
export type MetonaStreamEventType = (typeof MetonaStreamEventType)[keyof typeof MetonaStreamEventType];
export const metonaStreamEventTypeSchema = z.enum(MetonaStreamEventType);

/** Named for reuse; the standard declares it inline as `MetonaStreamEvent.toolCallDelta`. */
export const metonaToolCallDeltaSchema = z.object({
  index: countSchema,
  name: z.string().optional(),
  argsDelta: z.string().optional(),
});
export type MetonaToolCallDelta = z.infer<typeof metonaToolCallDeltaSchema>;

const envelope = {
  requestId: idSchema,
  sessionId: idSchema,
  iteration: iterationSchema,
  seq: countSchema,
  timestamp: timestampSchema,
};

/** The standard's flat interface: every payload optional, meaning chosen by `type`. */
export const metonaStreamEventShapeSchema = z.object({
  type: metonaStreamEventTypeSchema,
  ...envelope,
  delta: z.string().optional(),
  toolCallDelta: metonaToolCallDeltaSchema.optional(),
  toolCall: metonaToolCallSchema.optional(),
  usage: metonaTokenUsageSchema.optional(),
  error: metonaErrorSchema.optional(),
});
export type MetonaStreamEvent = z.infer<typeof metonaStreamEventShapeSchema>;

const event = <K extends MetonaStreamEventType, P extends z.ZodRawShape>(type: K, payload: P) =>
  z.object({ type: z.literal(type), ...envelope, ...payload });
const T = MetonaStreamEventType;

/**
 * Validates the same flat JSONL lines, but requires the payload each `type`
 * carries; payload fields foreign to the type are stripped. Parsing yields
 * `MetonaTypedStreamEvent`, which narrows on `type` and is assignable to
 * `MetonaStreamEvent`.
 */
export const metonaStreamEventSchema = z.discriminatedUnion('type', [
  event(T.TEXT_DELTA, { delta: z.string() }),
  event(T.REASONING_DELTA, { delta: z.string() }),
  event(T.TOOL_CALL_DELTA, { toolCallDelta: metonaToolCallDeltaSchema }),
  event(T.TOOL_CALL_COMPLETE, { toolCall: metonaToolCallSchema }),
  event(T.THINKING_START, {}),
  event(T.THINKING_END, {}),
  event(T.USAGE, { usage: metonaTokenUsageSchema }),
  event(T.ERROR, { error: metonaErrorSchema }),
  event(T.DONE, {}),
]);
export type MetonaTypedStreamEvent = z.infer<typeof metonaStreamEventSchema>;
export type MetonaStreamEventOf<K extends MetonaStreamEventType> = Extract<
  MetonaTypedStreamEvent,
  { type: K }
>;
