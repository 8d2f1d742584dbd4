import {
  CHAT_TURN_EVENT_NAMES,
  type ChatMessageDto,
  type ChatTurnEventData,
  type ChatTurnEventName,
} from '../../contracts/chat';
import type { EventEnvelope } from '../../contracts/events';

/** An assistant message as the page shows it while it streams. */
export interface LiveMessage extends ChatMessageDto {
  /** Timestamp (ms) of the first thinking delta, to time the thinking while it runs. */
  thinking_started_at: number | null;
  /** The model is still loading (ModelLoading): what the pending answer shows until output starts. */
  loading: { model: string; progress: number } | null;
  /** Earlier chats are being summarised into memory before this answer (MemoryDigest). */
  digesting: boolean;
  /**
   * The answer broke off while this page saw the device offline: the stream's failure is then
   * the lost connection, not the provider's. Known only to the page that watched it break.
   */
  failed_offline: boolean;
}

export function toLiveMessage(message: ChatMessageDto): LiveMessage {
  return { ...message, thinking_started_at: null, loading: null, digesting: false, failed_offline: false };
}

type TurnEvent = {
  [E in ChatTurnEventName]: EventEnvelope<ChatTurnEventData[E], E>;
}[ChatTurnEventName];

const KNOWN = new Set<string>(CHAT_TURN_EVENT_NAMES);

/**
 * One turn event applied to the message (pure: returns a new object). Unknown
 * event names are ignored, as §4.1 asks of new enum values.
 */
export function applyTurnEvent(message: LiveMessage, envelope: EventEnvelope): LiveMessage {
  if (!KNOWN.has(envelope.event)) return message;
  const event = envelope as TurnEvent;
  const at = Date.parse(event.timestamp);
  const endThinking = (next: LiveMessage): LiveMessage =>
    next.thinking_started_at !== null && next.reasoning_duration_ms === null
      ? { ...next, reasoning_duration_ms: Math.max(0, at - next.thinking_started_at) }
      : next;
  // Any output, an end or a switch means the load is over.
  if (message.loading !== null && event.event !== 'ModelLoading' && event.event !== 'Citation')
    message = { ...message, loading: null };
  // Likewise for the summary of earlier chats, should its `finished` be missed.
  if (message.digesting && event.event !== 'MemoryDigest' && event.event !== 'Citation')
    message = { ...message, digesting: false };
  switch (event.event) {
    case 'MemoryDigest':
      return {
        ...message,
        digesting:
          event.data.status === 'running' && message.status === 'streaming' && message.content === '',
      };
    case 'ModelLoading':
      // Late reports (replayed after the text began) never bring the line back.
      if (message.status !== 'streaming' || message.content !== '' || message.reasoning_content !== null)
        return message;
      return { ...message, loading: { model: event.data.model, progress: event.data.progress } };
    case 'ThinkingDelta':
      return {
        ...message,
        thinking_started_at: message.thinking_started_at ?? at,
        reasoning_content: (message.reasoning_content ?? '') + event.data.delta,
      };
    case 'TextDelta':
      return endThinking({ ...message, content: message.content + event.data.delta });
    case 'ToolCallEnd':
      return endThinking({
        ...message,
        tool_calls: [
          ...message.tool_calls,
          { tool_call_id: event.data.tool_call_id, name: event.data.name, arguments: event.data.arguments },
        ],
      });
    case 'Usage':
      return { ...message, usage: event.data };
    case 'Error':
      return { ...message, error: { code: event.data.code, message: event.data.message } };
    case 'Done':
      return endThinking({
        ...message,
        status: event.data.status,
        finish_reason: event.data.finish_reason ?? message.finish_reason,
        provider_id: event.data.provider ?? message.provider_id,
        model: event.data.model ?? message.model,
      });
    case 'ProviderSwitched':
      return { ...message, provider_id: event.data.to.provider_id, model: event.data.to.model };
    case 'AttemptDiscarded':
      return {
        ...message,
        content: '',
        reasoning_content: null,
        reasoning_duration_ms: null,
        thinking_started_at: null,
        tool_calls: [],
        usage: null,
      };
    case 'Citation': {
      const citations = message.citations ?? [];
      if (citations.some((citation) => citation.index === event.data.index)) return message;
      return {
        ...message,
        citations: [...citations, event.data].sort((a, b) => a.index - b.index),
      };
    }
    case 'ToolCallStart':
    case 'ToolCallDelta':
      return message;
    default: {
      const unhandled: never = event;
      return unhandled;
    }
  }
}
