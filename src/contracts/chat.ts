import type { ErrorCode } from './error-codes';

/**
 * Chat DTOs (contract §8 `POST /api/chat`). A turn is a resource: its id is the
 * assistant message's id, and its events (the §8.2 ModelEvents plus
 * `ProviderSwitched` and `AttemptDiscarded`) are persisted and replayed with
 * `after_sequence` like any other resource. `Done` ends it.
 */
export const CHAT_MESSAGE_STATUSES = ['streaming', 'completed', 'failed', 'cancelled'] as const;
export type ChatMessageStatus = (typeof CHAT_MESSAGE_STATUSES)[number];
export type ChatFinishReason = 'stop' | 'length' | 'tool_calls' | 'content_filter' | 'error';

export interface ChatToolCallDto {
  tool_call_id: string;
  name: string;
  arguments: Record<string, unknown>;
}

export interface ChatUsageDto {
  input_tokens: number;
  output_tokens: number;
  total_tokens: number;
  reasoning_tokens?: number;
  cache_hit_tokens?: number;
  cache_miss_tokens?: number;
}

/**
 * A note block an "Ask your notes" answer was given as source `[index]`
 * (1-based, the order it had in the prompt). `start_line` lets the page scroll
 * the note's preview to the block.
 */
export interface ChatCitationDto {
  index: number;
  note_id: string;
  block_id: string;
  title: string;
  snippet: string;
  start_line: number;
}

export interface ChatMessageDto {
  message_id: string;
  conversation_id: string;
  role: 'user' | 'assistant';
  position: number;
  content: string;
  reasoning_content: string | null;
  reasoning_duration_ms: number | null;
  tool_calls: ChatToolCallDto[];
  status: ChatMessageStatus;
  /** Who actually answered (after a fallback, the fallback). */
  provider_id: string | null;
  model: string | null;
  finish_reason: ChatFinishReason | null;
  usage: ChatUsageDto | null;
  latency_ms: number | null;
  tokens_per_second: number | null;
  /**
   * `metona_code` is the IR's `MetonaErrorCode` behind `code` (absent on older rows): PROVIDER_UNAVAILABLE
   * is both "the request never arrived" (network_error) and "the server answered 5xx"
   * (model_overloaded), and the two need different next steps.
   */
  error: { code: ErrorCode; message: string; metona_code?: string } | null;
  created_at: string;
  completed_at: string | null;
  /** The sources given to an answer with `use_notes`; absent or empty otherwise (and on older rows). */
  citations?: ChatCitationDto[];
  /** Images sent with a user message (stored attachments); absent on text-only messages and older rows. */
  images?: ChatImageDto[];
}

/** An image attached to a user message: the bytes live in the attachment store. */
export interface ChatImageDto {
  attachment_id: string;
  name: string;
  mime_type: string;
}

export interface ConversationDto {
  conversation_id: string;
  title: string;
  provider_id: string;
  model: string;
  created_at: string;
  updated_at: string;
  /** The user's own instructions for every answer in this conversation; absent or empty: none. */
  system_prompt?: string;
  /** Set while the conversation is in the trash (deleted, still restorable); absent otherwise. */
  deleted_at?: string;
}

/** Rename a conversation or set its system prompt; an absent field stays as it is. */
export interface UpdateConversationInput {
  title?: string;
  /** An empty string removes the prompt. */
  system_prompt?: string;
}

export interface ListConversationsQuery {
  limit?: number;
  offset?: number;
  /** Case-insensitive text found in the title or in any message. */
  query?: string;
}

/** Edit-and-resend: the user message gets new text, and everything after it is dropped. */
export interface ResendMessageInput {
  conversation_id: string;
  message_id: string;
  content: string;
}

/** An image for the next message, stored as an attachment before it is sent. */
export interface AttachChatImageInput {
  name: string;
  mime_type?: string;
  data: Blob | Uint8Array;
}

/** The image formats every vision provider accepts. */
export const CHAT_IMAGE_MIME_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'] as const;
/** The largest image a provider takes inline (OpenAI's limit; Anthropic's is lower, it refuses itself). */
export const MAX_CHAT_IMAGE_BYTES = 20 * 1024 * 1024;
export const MAX_CHAT_IMAGES = 4;

export interface ConversationDetailDto extends ConversationDto {
  messages: ChatMessageDto[];
}

export const THINKING_EFFORTS = ['low', 'medium', 'high', 'max'] as const;
export type ThinkingEffort = (typeof THINKING_EFFORTS)[number];

export interface ChatSendInput {
  /** Absent: a new conversation. */
  conversation_id?: string;
  content: string;
  /** Absent: the conversation's provider, else the default (mock). */
  provider_id?: string;
  model?: string;
  thinking?: boolean;
  /** How hard a reasoning model thinks (the IR's `thinkingEffort`); ignored where the provider has no such setting. */
  thinking_effort?: ThinkingEffort;
  /** Ask your notes: the top blocks for the message go into the prompt as numbered sources. */
  use_notes?: boolean;
  /** Images stored with `attachImage`, sent as IR image parts; only to a model with the `vision` capability. */
  image_ids?: string[];
}

export interface ChatTurnDto {
  conversation_id: string;
  /** The event resource; equals the assistant message id. */
  turn_id: string;
  user_message: ChatMessageDto | null;
  assistant_message: ChatMessageDto;
}

/** Event names of a chat turn: §8.2's ModelEvents and the router's notices. */
export const CHAT_TURN_EVENT_NAMES = [
  'TextDelta',
  'ThinkingDelta',
  'ToolCallStart',
  'ToolCallDelta',
  'ToolCallEnd',
  'Usage',
  'Error',
  'Done',
  'ProviderSwitched',
  'AttemptDiscarded',
  'Citation',
  'ModelLoading',
  'MemoryDigest',
] as const;
export type ChatTurnEventName = (typeof CHAT_TURN_EVENT_NAMES)[number];

export interface ChatTurnEventData {
  TextDelta: { delta: string };
  ThinkingDelta: { delta: string };
  ToolCallStart: { tool_call_id: string; name: string; index: number };
  ToolCallDelta: { tool_call_id: string; arguments_delta: string };
  ToolCallEnd: { tool_call_id: string; name: string; arguments: Record<string, unknown> };
  Usage: ChatUsageDto;
  Error: {
    code: ErrorCode;
    message: string;
    retryable: boolean;
    provider?: string;
    metona_code?: string;
  };
  Done: {
    status: 'completed' | 'failed' | 'cancelled';
    finish_reason?: ChatFinishReason;
    provider?: string;
    model?: string;
    error_code?: ErrorCode;
  };
  ProviderSwitched: {
    from: { provider_id: string; model: string };
    to: { provider_id: string; model: string };
    error_code: ErrorCode;
  };
  /** What streamed before is void: the next attempt streams from scratch. */
  AttemptDiscarded: { provider_id: string; model: string; attempt: number; error_code: ErrorCode };
  /** One per source, published before the answer streams, in source order. */
  Citation: ChatCitationDto;
  /**
   * The model is being loaded before it can answer (a local model into the
   * GPU): zero or more, before any output. Named like the contract's
   * transcription event for the same wait (§5.3 `ModelLoading`), so one name
   * means one thing across resources. `progress` is 0..1; `text` is the
   * engine's own words, for detail.
   */
  ModelLoading: { provider: string; model: string; progress: number; text: string };
  /**
   * Earlier chats summarised into memory before an answer (one request each):
   * `running` before the first, `finished` after the last. Turns stored
   * before the summaries moved behind the first answer (in the background,
   * where no turn waits) carry it; new turns do not, and the name stays so
   * that those replay as they were.
   */
  MemoryDigest: { status: 'running' | 'finished' };
}

/** Where older messages of a conversation left the model's context (the thread shows a notice there). */
export interface ChatContextNoticeDto {
  /** Messages up to this position are summarised (or dropped) in requests. */
  through_position: number;
  mode: 'summary' | 'dropped';
}
