import type {
  MetonaError,
  MetonaFinishReason,
  MetonaPerfStats,
  MetonaTokenUsage,
  MetonaToolCallDelta,
} from '../../ir';
import type { AssembledToolCall } from './tool-call-assembler';

/**
 * What a provider's stream conversion yields: IR stream events without their
 * envelope (request id, seq, timestamp), which the stream driver stamps on.
 * `finish` is not an IR event: it carries what only the end of the wire stream
 * knows (finish reason, the model that answered, perf stats) and becomes `done`.
 */
export type StreamPart =
  | { type: 'text_delta'; delta: string }
  | { type: 'reasoning_delta'; delta: string }
  | { type: 'thinking_start' }
  | { type: 'thinking_end' }
  | { type: 'tool_call_delta'; toolCallDelta: MetonaToolCallDelta }
  | { type: 'tool_call_complete'; toolCall: AssembledToolCall }
  | { type: 'usage'; usage: MetonaTokenUsage }
  | { type: 'error'; error: MetonaError }
  | { type: 'finish'; finishReason: MetonaFinishReason; model?: string; perfStats?: MetonaPerfStats };
