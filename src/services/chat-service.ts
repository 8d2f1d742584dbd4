import {
  AppError,
  DEFAULT_PROVIDER_ID,
  conversationIdSchema,
  parseInput,
  toIsoUtc,
  turnIdSchema,
  type AttachChatImageInput,
  type AttachmentDto,
  type ChatCitationDto,
  type ChatContextNoticeDto,
  type ChatImageDto,
  type ChatMessageDto,
  type ChatSendInput,
  type ChatTurnDto,
  type ChatTurnEventData,
  type ChatTurnEventName,
  type ConversationDetailDto,
  type ConversationDto,
  type ErrorCode,
  type ListConversationsQuery,
  type NoteDto,
  type OffsetPage,
  type ResendMessageInput,
  type UpdateConversationInput,
} from '../contracts';
import {
  chatSendWithImagesSchema,
  listConversationsSchema,
  resendMessageSchema,
  updateConversationSchema,
} from '../contracts/chat-schemas';
import { splitBySourceUse } from '../core/citation-markers';
import { requestLanguage } from '../core/request-language';
import type { EventLog } from '../core/event-log';
import { newId, systemClock, type Clock } from '../core/ids';
import type { AttachmentRepository, ConversationRepository, MessageRow, ProviderRow } from '../db';
import type {
  MetonaGenerationParams,
  MetonaImageContent,
  MetonaLoadProgress,
  MetonaMessage,
  MetonaRequest,
  MetonaResponseFormat,
  MetonaStreamEvent,
} from '../ir';
import {
  ModelEventProjector,
  ProviderRouter,
  toContractErrorCode,
  type ModelEvent,
  type ModelEventData,
  type ProviderRouterConfig,
  type RouteTarget,
  type RouterNotification,
} from '../providers';
import { CAPABILITY_MISMATCH, toMetonaError } from '../providers/shared/errors';
import {
  fitHistory,
  memoryContextStore,
  type ChatContextState,
  type ChatContextStore,
  type HistoryRow,
} from './chat-context';
import { formatSources, type NotesContextProvider, type NotesContextSource } from './notes-context';
import { MEMORY_BUDGET_SHARE, estimateTextTokens } from '../agent';
import type { MemoryDigestCall } from './memory-service';
import { base64Of, storeImage, storedImage } from './image-store';
import type { NotesService } from './notes-service';
import type { ProviderService } from './provider-service';
import { chatLeaseName, type JobLease, type JobLeases } from '../core/job-leases';
import { webLockLeases } from './web-lock-leases';

// The page reads turn events through the zod-free contract types: they must
// stay the ModelEvent shapes the projector emits.
type ModelEventsMatchContract =
  ModelEventData extends Pick<ChatTurnEventData, keyof ModelEventData> ? true : never;
/** Compile-time check only. */
export const MODEL_EVENTS_MATCH_CONTRACT: ModelEventsMatchContract = true;

export type RouterTuning = Pick<
  ProviderRouterConfig,
  'sleep' | 'baseDelayMs' | 'maxDelayMs' | 'random' | 'maxRetries'
>;

export interface ChatServiceOptions {
  clock?: Clock;
  router?: RouterTuning;
  /** Answers `use_notes` turns with the top blocks for the message (the search service). */
  notes?: NotesContextProvider;
  /** Where each conversation's summary of older messages is kept. */
  context?: ChatContextStore;
  /** Where images sent with messages are stored (the attachment store). */
  attachments?: AttachmentRepository;
  /** Writes "save answer as note". */
  notesWriter?: Pick<NotesService, 'create'>;
  /** Records the facts a message states and recalls memories into the prompt. */
  memory?: ChatMemory;
  /** Which tab streams which answer (Web Locks by default), so another tab's start-up leaves it alone. */
  leases?: JobLeases;
}

/** What the chat needs of the memory service. */
export interface ChatMemory {
  observe(conversationId: string, text: string): Promise<unknown>;
  section(conversationId: string, query: string, budgetTokens: number): Promise<string | undefined>;
  forgetConversation(conversationId: string): Promise<void>;
  needsDigest(conversationId: string, throughPosition: number): Promise<boolean>;
  digestedThrough(conversationId: string): Promise<number>;
  digestConversation(
    input: { conversation_id: string; through_position: number; transcript: string },
    call: MemoryDigestCall,
    signal?: AbortSignal,
  ): Promise<unknown>;
}

/**
 * Finished chats digested when a new one starts, at most this many (the most
 * recent first), so that a long-unused notebook does not send a burst.
 */
const DIGEST_LIMIT = 3;
/** The share of the digesting model's window the transcript may take. */
const DIGEST_TRANSCRIPT_SHARE = 0.5;
const DIGEST_SYSTEM_PROMPT = {
  roleDefinition: 'You keep the memory of NotesAgent, a personal notebook.',
  outputConstraints: 'Reply with the JSON asked for and nothing else.',
  safetyGuidelines: 'Keep only what the user said about themselves; never invent facts.',
};

/** The newest messages of `rows` as "User: …" / "Assistant: …" lines within `budgetTokens`. */
export function digestTranscript(rows: readonly MessageRow[], budgetTokens: number): string {
  const lines: string[] = [];
  let used = 0;
  for (const row of [...rows].reverse()) {
    if (row.content.trim() === '' || (row.role === 'assistant' && row.status !== 'completed')) continue;
    const line = `${row.role === 'user' ? 'User' : 'Assistant'}: ${row.content.replace(/\s+/g, ' ').trim()}`;
    const cost = estimateTextTokens(line) + 1;
    if (used + cost > budgetTokens) break;
    used += cost;
    lines.push(line);
  }
  return lines.reverse().join('\n');
}

const SYSTEM_PROMPT = {
  roleDefinition: 'You are the assistant of NotesAgent, a personal notebook.',
  outputConstraints: 'Answer in Markdown. Be concise.',
  safetyGuidelines: 'Do not invent facts; say when you are unsure.',
};
const TITLE_LENGTH = 60;
const LOCAL_PROVIDER_ID = 'webllm';

/**
 * The answer and its sources as note Markdown: each source a wikilink to its note,
 * under its number in the answer. Only the sources the answer cites are listed
 * (all of them when it cites none); a bullet list keeps the numbers as cited,
 * where an ordered list would renumber `1, 3` as `1, 2`. The heading is in the
 * answer's language, like the answer.
 */
export function answerNoteBody(answer: string, citations: readonly ChatCitationDto[]): string {
  if (citations.length === 0) return answer;
  const sources = splitBySourceUse(answer, citations).cited.map((citation) => {
    const title = citation.title.replace(/[[\]|]/g, ' ').trim();
    const link = title ? `[[${title}]]` : citation.note_id;
    return `- [${citation.index}] ${link}${citation.snippet ? ` — ${citation.snippet}` : ''}`;
  });
  const heading = requestLanguage(answer) === 'zh' ? '来源' : 'Sources';
  return `${answer}\n\n## ${heading}\n\n${sources.join('\n')}\n`;
}

interface RunningTurn {
  conversationId: string;
  controller: AbortController;
  settled: Promise<ChatMessageDto>;
}

/** Numbered citations (from 1) of the sources put in the prompt; the full text stays out of storage. */
function citationsOf(sources: readonly NotesContextSource[]): ChatCitationDto[] {
  return sources.map(({ text: _text, ...citation }, index) => ({ index: index + 1, ...citation }));
}

type ThinkingOptions = Pick<MetonaGenerationParams, 'thinkingEnabled' | 'thinkingEffort'>;

/** The composer's toggle and effort as the IR's thinking options; an effort is only sent with thinking on. */
export function thinkingOf(input: Pick<ChatSendInput, 'thinking' | 'thinking_effort'>): ThinkingOptions {
  if (input.thinking === undefined) return {};
  return {
    thinkingEnabled: input.thinking,
    ...(input.thinking && input.thinking_effort && { thinkingEffort: input.thinking_effort }),
  };
}

function notFound(conversationId: string): AppError {
  return new AppError('RESOURCE_NOT_FOUND', 'No conversation has this id.', {
    conversation_id: conversationId,
  });
}

/**
 * Chat (contract §8 `POST /api/chat`). A turn is a resource whose id is the
 * assistant message id: its ModelEvents go through the router (retries,
 * fallback) and the §8.2 projection into the event log, persisted before they
 * are delivered; `ProviderSwitched` and `AttemptDiscarded` join them. The
 * message row is updated before `Done` is published, so whoever sees `Done`
 * reads the final message.
 */
export class ChatService {
  readonly #conversations: ConversationRepository;
  readonly #providers: ProviderService;
  readonly #log: EventLog;
  readonly #clock: Clock;
  readonly #router: RouterTuning;
  readonly #notes: NotesContextProvider | undefined;
  readonly #context: ChatContextStore;
  readonly #memory: ChatMemory | undefined;
  readonly #running = new Map<string, RunningTurn>();
  #digests: Promise<void> = Promise.resolve();
  readonly #leases: JobLeases;

  constructor(
    conversations: ConversationRepository,
    providers: ProviderService,
    log: EventLog,
    options: ChatServiceOptions = {},
  ) {
    this.#conversations = conversations;
    this.#providers = providers;
    this.#log = log;
    this.#clock = options.clock ?? systemClock;
    this.#router = options.router ?? {};
    this.#notes = options.notes;
    this.#context = options.context ?? memoryContextStore();
    this.#attachments = options.attachments;
    this.#notesWriter = options.notesWriter;
    this.#memory = options.memory;
    this.#leases = options.leases ?? webLockLeases();
  }

  readonly #attachments: AttachmentRepository | undefined;
  readonly #notesWriter: Pick<NotesService, 'create'> | undefined;

  /** Where older messages of this conversation were summarised away; null when none were. */
  async contextNotice(conversationId: string): Promise<ChatContextNoticeDto | null> {
    const id = parseInput(conversationIdSchema, conversationId);
    if (!(await this.#conversations.get(id))) throw notFound(id);
    const state = await this.#context.get(id);
    return state ? { through_position: state.through_position, mode: state.mode } : null;
  }

  /** Conversations, most recent first; `query` keeps those whose title or messages contain it. */
  async listConversations(query: ListConversationsQuery = {}): Promise<OffsetPage<ConversationDto>> {
    const { limit, offset, query: text } = parseInput(listConversationsSchema, query);
    const only = text ? await this.#conversations.matching(text) : undefined;
    const [items, total] = await Promise.all([
      this.#conversations.list(limit, offset, only),
      this.#conversations.count(only),
    ]);
    return { items, page: { total, limit, offset } };
  }

  async getConversation(conversationId: string): Promise<ConversationDetailDto> {
    const id = parseInput(conversationIdSchema, conversationId);
    const conversation = await this.#live(id);
    return { ...conversation, messages: await this.#conversations.messages(id) };
  }

  /** Renames a conversation or sets its system prompt (used from the next answer on). */
  async updateConversation(conversationId: string, input: UpdateConversationInput): Promise<ConversationDto> {
    const id = parseInput(conversationIdSchema, conversationId);
    const valid = parseInput(updateConversationSchema, input, 'This conversation cannot be changed.');
    const conversation = await this.#live(id);
    const { system_prompt: _old, ...rest } = conversation;
    const prompt = valid.system_prompt ?? conversation.system_prompt ?? '';
    const updated: ConversationDto = {
      ...rest,
      ...(valid.title !== undefined && { title: valid.title }),
      ...(prompt !== '' && { system_prompt: prompt }),
    };
    await this.#conversations.putConversation(updated);
    return updated;
  }

  /**
   * Moves a conversation to the trash: it leaves the list and can be restored
   * until the next start, which empties the trash (see `recover`).
   */
  async deleteConversation(conversationId: string): Promise<void> {
    const id = parseInput(conversationIdSchema, conversationId);
    const conversation = await this.#live(id);
    this.#conflictIfRunning(id);
    await this.#conversations.putConversation({ ...conversation, deleted_at: toIsoUtc(this.#clock()) });
  }

  /** Takes a conversation back out of the trash. */
  async restoreConversation(conversationId: string): Promise<ConversationDto> {
    const id = parseInput(conversationIdSchema, conversationId);
    const conversation = await this.#conversations.get(id);
    if (!conversation) throw notFound(id);
    if (conversation.deleted_at === undefined) {
      throw new AppError('STATE_CONFLICT', 'This conversation is not in the trash.', { conversation_id: id });
    }
    const { deleted_at: _deleted, ...restored } = conversation;
    await this.#conversations.putConversation(restored);
    return restored;
  }

  /**
   * Deletes trashed conversations for good, with their messages and summaries.
   * Their images stay: the attachment store keeps one copy of equal bytes,
   * which a note may share.
   */
  async emptyTrash(): Promise<number> {
    const trashed = await this.#conversations.trashed();
    for (const conversation of trashed) {
      await this.#conversations.delete(conversation.conversation_id);
      await this.#context.delete(conversation.conversation_id).catch(() => undefined);
      await this.#memory?.forgetConversation(conversation.conversation_id).catch(() => undefined);
    }
    return trashed.length;
  }

  /**
   * Stores an image for the next message. The bytes decide the type (PNG,
   * JPEG, GIF or WebP); the same bytes stored twice are one attachment.
   */
  async attachImage(input: AttachChatImageInput): Promise<AttachmentDto> {
    return storeImage(this.#imageStore(), input);
  }

  /** The stored image of a message, for its thumbnail. */
  async imageBlob(attachmentId: string): Promise<Blob> {
    return storedImage(this.#imageStore(), attachmentId);
  }

  /**
   * Edit-and-resend: the user message gets the new text (its images stay),
   * the answers and questions after it are dropped, and a new answer starts.
   */
  async resend(input: ResendMessageInput): Promise<ChatTurnDto> {
    const valid = parseInput(resendMessageSchema, input, 'This message cannot be sent.');
    const conversation = await this.#live(valid.conversation_id);
    this.#conflictIfRunning(conversation.conversation_id);
    const edited = await this.#conversations.getMessage(valid.message_id);
    if (!edited || edited.conversation_id !== conversation.conversation_id || edited.role !== 'user') {
      throw new AppError('RESOURCE_NOT_FOUND', 'This conversation has no such question.', {
        conversation_id: conversation.conversation_id,
        message_id: valid.message_id,
      });
    }
    const provider = await this.#usableProvider(conversation.provider_id);
    const history = (await this.#conversations.messages(conversation.conversation_id)).filter(
      (row) => row.position < edited.position,
    );
    const images = edited.images ?? [];
    const vision = await this.#visionCheck(provider, conversation.model, history, images);
    const now = toIsoUtc(this.#clock());
    const user = this.#message(conversation.conversation_id, 'user', edited.position, now, {
      content: valid.content,
      status: 'completed',
      completed_at: now,
      ...(images.length > 0 && { images }),
    });
    const assistant = this.#message(conversation.conversation_id, 'assistant', edited.position + 1, now, {
      provider_id: provider.provider_id,
      model: conversation.model,
    });
    const touched = { ...conversation, updated_at: now };
    const lease = await this.#writeAnswer(assistant.message_id, () =>
      this.#conversations.replaceFrom(touched, edited.position, [user, assistant]),
    );
    // A summary that covered the dropped messages no longer describes the thread.
    const state = await this.#context.get(conversation.conversation_id);
    if (state && state.through_position >= edited.position)
      await this.#context.delete(conversation.conversation_id);
    this.#start(provider, touched, [...history, user], assistant, {}, undefined, vision, lease);
    return {
      conversation_id: conversation.conversation_id,
      turn_id: assistant.message_id,
      user_message: user,
      assistant_message: assistant,
    };
  }

  /** Saves a finished answer as a new note: its text, then its sources as links to their notes. */
  async saveAnswerAsNote(turnId: string): Promise<NoteDto> {
    const id = parseInput(turnIdSchema, turnId);
    const message = await this.#conversations.getMessage(id);
    if (!message || message.role !== 'assistant') {
      throw new AppError('RESOURCE_NOT_FOUND', 'No chat turn has this id.', { turn_id: id });
    }
    if (message.status !== 'completed' || message.content.trim() === '') {
      throw new AppError('STATE_CONFLICT', 'Only a finished answer can be saved as a note.', {
        turn_id: id,
        status: message.status,
      });
    }
    if (!this.#notesWriter) {
      throw new AppError('STATE_CONFLICT', 'Saving answers as notes is not available here.', {});
    }
    const history = await this.#conversations.messages(message.conversation_id);
    const question = history.findLast((row) => row.role === 'user' && row.position < message.position);
    const title = (question?.content.split('\n')[0] ?? '').trim().slice(0, 120) || 'Chat answer';
    return this.#notesWriter.create({
      title,
      body: answerNoteBody(message.content, message.citations ?? []),
    });
  }

  /**
   * Starts a turn and returns at once; the answer streams as events of
   * `turn_id`. One turn at a time per conversation.
   */
  async send(input: ChatSendInput): Promise<ChatTurnDto> {
    const valid = parseInput(chatSendWithImagesSchema, input, 'This message cannot be sent.');
    const now = toIsoUtc(this.#clock());
    let conversation = valid.conversation_id ? await this.#live(valid.conversation_id) : undefined;
    if (conversation) this.#conflictIfRunning(conversation.conversation_id);
    const providerId = valid.provider_id ?? conversation?.provider_id ?? DEFAULT_PROVIDER_ID;
    const provider = await this.#usableProvider(providerId);
    const model =
      valid.model ?? (valid.provider_id ? undefined : conversation?.model) ?? provider.default_model;

    const images = await this.#images(valid.image_ids ?? []);
    const history = conversation ? await this.#conversations.messages(conversation.conversation_id) : [];
    const vision = await this.#visionCheck(provider, model, history, images);
    conversation = {
      ...conversation,
      conversation_id: conversation?.conversation_id ?? newId('conv'),
      title: conversation?.title ?? valid.content.slice(0, TITLE_LENGTH),
      created_at: conversation?.created_at ?? now,
      updated_at: now,
      provider_id: provider.provider_id,
      model,
    };
    const sources = valid.use_notes ? await this.#sources(valid.content) : undefined;
    const user = this.#message(conversation.conversation_id, 'user', history.length, now, {
      content: valid.content,
      status: 'completed',
      completed_at: now,
      ...(images.length > 0 && { images }),
    });
    const assistant = this.#message(conversation.conversation_id, 'assistant', history.length + 1, now, {
      provider_id: provider.provider_id,
      model,
      ...(sources && { citations: citationsOf(sources) }),
    });
    const lease = await this.#writeAnswer(assistant.message_id, () =>
      this.#conversations.append(conversation, [user, assistant]),
    );
    // Before the turn starts: a fact stated here is recalled by the next conversation at once.
    await this.#memory?.observe(conversation.conversation_id, valid.content).catch((error: unknown) => {
      console.error('memory could not be recorded', error);
    });
    const notesSection = sources && sources.length > 0 ? formatSources(sources) : undefined;
    this.#start(
      provider,
      conversation,
      [...history, user],
      assistant,
      thinkingOf(valid),
      notesSection,
      vision,
      lease,
    );
    return {
      conversation_id: conversation.conversation_id,
      turn_id: assistant.message_id,
      user_message: user,
      assistant_message: assistant,
    };
  }

  /** The non-streaming form: resolves with the finished assistant message. */
  async complete(input: ChatSendInput): Promise<ChatMessageDto> {
    const turn = await this.send(input);
    return this.settled(turn.turn_id);
  }

  /** Answers the last user message again, replacing a failed or stopped answer. */
  async retry(conversationId: string): Promise<ChatTurnDto> {
    return this.#answerAgain(conversationId, false);
  }

  /** Answers the last user message again, replacing the last answer whatever its state. */
  async regenerate(conversationId: string): Promise<ChatTurnDto> {
    return this.#answerAgain(conversationId, true);
  }

  async #answerAgain(conversationId: string, replaceCompleted: boolean): Promise<ChatTurnDto> {
    const id = parseInput(conversationIdSchema, conversationId);
    const conversation = await this.#live(id);
    this.#conflictIfRunning(id);
    let history = await this.#conversations.messages(id);
    const last = history.at(-1);
    // An answer that asked the notes (it has a citations list, maybe empty) asks them again on retry.
    const usedNotes = last?.role === 'assistant' && last.citations !== undefined;
    if (last?.role === 'assistant') {
      if (last.status === 'completed' && !replaceCompleted) {
        throw new AppError('STATE_CONFLICT', 'The last answer completed; send a new message instead.', {
          conversation_id: id,
        });
      }
      await this.#conversations.deleteMessage(last.message_id);
      history = history.slice(0, -1);
    }
    if (history.at(-1)?.role !== 'user') {
      throw new AppError('STATE_CONFLICT', 'There is no message to answer.', { conversation_id: id });
    }
    const provider = await this.#usableProvider(conversation.provider_id);
    const question = history.at(-1)!;
    const vision = await this.#visionCheck(provider, conversation.model, history, []);
    const sources = usedNotes ? await this.#sources(question.content) : undefined;
    const now = toIsoUtc(this.#clock());
    const assistant = this.#message(id, 'assistant', history.length, now, {
      provider_id: provider.provider_id,
      model: conversation.model,
      ...(sources && { citations: citationsOf(sources) }),
    });
    const touched = { ...conversation, updated_at: now };
    const lease = await this.#writeAnswer(assistant.message_id, () =>
      this.#conversations.append(touched, [assistant]),
    );
    const notesSection = sources && sources.length > 0 ? formatSources(sources) : undefined;
    this.#start(provider, touched, history, assistant, {}, notesSection, vision, lease);
    return {
      conversation_id: id,
      turn_id: assistant.message_id,
      user_message: null,
      assistant_message: assistant,
    };
  }

  /** Aborts the upstream request; the turn ends with `Done` status `cancelled`. */
  async cancel(turnId: string): Promise<void> {
    const id = parseInput(turnIdSchema, turnId);
    const running = this.#running.get(id);
    if (running) {
      running.controller.abort();
      return;
    }
    const message = await this.#conversations.getMessage(id);
    if (!message || message.role !== 'assistant') {
      throw new AppError('RESOURCE_NOT_FOUND', 'No chat turn has this id.', { turn_id: id });
    }
  }

  /** Resolves with the assistant message once its turn has ended. */
  async settled(turnId: string): Promise<ChatMessageDto> {
    const id = parseInput(turnIdSchema, turnId);
    const running = this.#running.get(id);
    if (running) return running.settled;
    const message = await this.#conversations.getMessage(id);
    if (!message) throw new AppError('RESOURCE_NOT_FOUND', 'No chat turn has this id.', { turn_id: id });
    return message;
  }

  /**
   * Turns a closed tab left streaming (nobody holds their lease) end as failed,
   * with their terminal events; another live tab's answers are left to it. Empties the trash.
   */
  async recover(): Promise<number> {
    await this.emptyTrash();
    const candidates = (await this.#conversations.streaming()).filter(
      (row) => !this.#running.has(row.message_id),
    );
    let failed = 0;
    for (const listed of candidates) {
      const lease = await this.#leases.tryHold(chatLeaseName(listed.message_id));
      if (!lease) continue;
      try {
        // Read again under the lease: the answer may have ended, or been failed by another tab, meanwhile.
        const row = await this.#conversations.getMessage(listed.message_id);
        if (row?.status !== 'streaming') continue;
        const error = {
          code: 'JOB_INTERRUPTED' as const,
          message: 'The answer was interrupted when the page closed.',
        };
        await this.#conversations.putMessage({
          ...row,
          status: 'failed',
          error,
          completed_at: toIsoUtc(this.#clock()),
        });
        if (!(await this.#log.isTerminated(row.message_id))) {
          await this.#log.publish(row.message_id, 'Error', { ...error, retryable: true });
          await this.#log.publish(row.message_id, 'Done', { status: 'failed', error_code: error.code });
        }
        failed++;
      } finally {
        lease.release();
      }
    }
    return failed;
  }

  /** Resolves when no turn is running and no digest of earlier chats is under way (tests, shutdown). */
  async idle(): Promise<void> {
    for (;;) {
      const digests = this.#digests;
      await Promise.allSettled([...[...this.#running.values()].map((turn) => turn.settled), digests]);
      // A turn that ended meanwhile may have queued a digest.
      if (this.#running.size === 0 && this.#digests === digests) return;
    }
  }

  #conflictIfRunning(conversationId: string): void {
    for (const [turnId, turn] of this.#running) {
      if (turn.conversationId === conversationId) {
        throw new AppError('STATE_CONFLICT', 'An answer is still streaming in this conversation.', {
          conversation_id: conversationId,
          turn_id: turnId,
        });
      }
    }
  }

  /** A conversation that exists and is not in the trash. */
  async #live(conversationId: string) {
    const conversation = await this.#conversations.get(conversationId);
    if (!conversation || conversation.deleted_at !== undefined) throw notFound(conversationId);
    return conversation;
  }

  #imageStore(): AttachmentRepository {
    if (!this.#attachments) {
      throw new AppError('STATE_CONFLICT', 'Images in chat are not available here.', {});
    }
    return this.#attachments;
  }

  async #images(ids: readonly string[]): Promise<ChatImageDto[]> {
    if (ids.length === 0) return [];
    const store = this.#imageStore();
    return Promise.all(
      ids.map(async (id) => {
        const info = await store.info(id);
        if (!info || !info.mime_type.startsWith('image/')) {
          throw new AppError('ATTACHMENT_NOT_FOUND', 'This image does not exist.', { attachment_id: id });
        }
        return { attachment_id: id, name: info.name, mime_type: info.mime_type };
      }),
    );
  }

  /**
   * Whether images go to the model. A message with images to a model without
   * the `vision` capability is refused before anything is sent; images earlier
   * in the thread are left out for such a model instead.
   */
  async #visionCheck(
    provider: ProviderRow,
    model: string,
    history: readonly MessageRow[],
    images: readonly ChatImageDto[],
  ): Promise<boolean> {
    if (images.length === 0 && !history.some((row) => row.images?.length)) return false;
    const vision = await this.#hasVision(provider, model);
    if (!vision && images.length > 0) {
      throw new AppError('MODEL_CAPABILITY_MISMATCH', `The model ${model} cannot read images.`, {
        provider_id: provider.provider_id,
        model,
        capability: 'vision',
      });
    }
    return vision;
  }

  /** What the provider's model list says; a list that cannot be read vouches for nothing. */
  async #hasVision(provider: ProviderRow, model: string): Promise<boolean> {
    if (provider.provider_id === LOCAL_PROVIDER_ID) return false;
    try {
      const { items } = await this.#providers.models(provider.provider_id);
      return items.find((item) => item.model === model)?.capabilities.includes('vision') ?? false;
    } catch {
      return false;
    }
  }

  /** The message's images as IR image parts (data URIs: a worker's blob: URL means nothing upstream). */
  async #imageParts(images: readonly ChatImageDto[]): Promise<MetonaImageContent[]> {
    const store = this.#attachments;
    if (!store) return [];
    const parts: MetonaImageContent[] = [];
    for (const image of images) {
      const row = await store.get(image.attachment_id);
      // An image deleted since it was sent is simply not sent again.
      if (!row) continue;
      const bytes = new Uint8Array(await row.blob.arrayBuffer());
      parts.push({ url: `data:${row.mime_type};base64,${base64Of(bytes)}` });
    }
    return parts;
  }

  async #sources(query: string) {
    if (!this.#notes) {
      throw new AppError('STATE_CONFLICT', 'Asking the notes is not available here.', {});
    }
    return this.#notes.contextSources(query);
  }

  async #usableProvider(providerId: string): Promise<ProviderRow> {
    const provider = await this.#providers.config(providerId);
    if (!provider.enabled) {
      throw new AppError('STATE_CONFLICT', 'This provider is disabled.', { provider_id: providerId });
    }
    return provider;
  }

  #message(
    conversationId: string,
    role: 'user' | 'assistant',
    position: number,
    now: string,
    fields: Partial<MessageRow>,
  ): MessageRow {
    return {
      message_id: newId(role === 'user' ? 'msg' : 'turn'),
      conversation_id: conversationId,
      role,
      position,
      content: '',
      reasoning_content: null,
      reasoning_duration_ms: null,
      tool_calls: [],
      status: 'streaming',
      provider_id: null,
      model: null,
      finish_reason: null,
      usage: null,
      latency_ms: null,
      tokens_per_second: null,
      error: null,
      created_at: now,
      completed_at: null,
      ...fields,
    };
  }

  /**
   * Takes the answer's lease, then writes its rows: held while the answer streams, so another
   * tab's start-up (which fails only answers whose tab is gone) never finds it streaming unheld.
   * Without Web Locks (or refused them) the answer streams unleased, as before leases existed.
   */
  async #writeAnswer(messageId: string, write: () => Promise<unknown>): Promise<JobLease | null> {
    const lease = await this.#leases.tryHold(chatLeaseName(messageId)).catch(() => null);
    try {
      await write();
    } catch (error) {
      lease?.release();
      throw error;
    }
    return lease;
  }

  #start(
    provider: ProviderRow,
    conversation: ConversationDto,
    history: MessageRow[],
    assistant: MessageRow,
    thinking: ThinkingOptions,
    notesSection: string | undefined,
    vision: boolean,
    lease: JobLease | null,
  ): void {
    const controller = new AbortController();
    const opensConversation = history.length === 1;
    const settled = this.#run(
      provider,
      conversation.model,
      history,
      assistant,
      { ...thinking, systemPrompt: conversation.system_prompt, vision },
      notesSection,
      controller.signal,
    ).finally(() => {
      this.#running.delete(assistant.message_id);
      lease?.release();
    });
    this.#running.set(assistant.message_id, {
      conversationId: assistant.conversation_id,
      controller,
      settled,
    });
    // A new conversation's first answer never waits on memory: with a slow provider the digest
    // of earlier chats took as long again. They are digested once it has ended (not beside it:
    // a local model answers one request at a time, and a remote one may count requests), so
    // what they hold is recalled from the next answer on. A stopped answer leaves them for the
    // next new conversation, as before.
    if (opensConversation && this.#memory) {
      void settled.then(
        (message) => {
          if (message.status !== 'cancelled') this.#queueDigest(assistant.conversation_id);
        },
        () => undefined,
      );
    }
  }

  /**
   * Digests run one after another, so that two new conversations started in a row never
   * send the same earlier chat twice.
   */
  #queueDigest(currentId: string): void {
    this.#digests = this.#digests
      .then(() => this.#digestFinished(currentId))
      .catch((error: unknown) => console.error('earlier chats could not be kept in memory', error));
  }

  async #run(
    provider: ProviderRow,
    model: string,
    history: MessageRow[],
    placeholder: MessageRow,
    { systemPrompt, vision, ...thinking }: ThinkingOptions & { systemPrompt?: string; vision: boolean },
    notesOnly: string | undefined,
    signal: AbortSignal,
  ): Promise<ChatMessageDto> {
    const system = systemPrompt
      ? { ...SYSTEM_PROMPT, roleDefinition: `${SYSTEM_PROMPT.roleDefinition}\n\n${systemPrompt}` }
      : SYSTEM_PROMPT;
    let notesSection = notesOnly;
    const turnId = placeholder.message_id;
    const started = this.#clock();
    const message: MessageRow = { ...placeholder };
    let firstOutputAt: number | undefined;
    let thinkingStartedAt: number | undefined;
    let tail: Promise<unknown> = Promise.resolve();
    const publish = <E extends ChatTurnEventName>(event: E, data: ChatTurnEventData[E]) => {
      tail = this.#log.publish(turnId, event, data).catch((error: unknown) => {
        console.error('chat event could not be stored', error);
      });
    };
    const endThinking = (at: number) => {
      if (thinkingStartedAt !== undefined && message.reasoning_duration_ms === null)
        message.reasoning_duration_ms = at - thinkingStartedAt;
    };
    const apply = (event: ModelEvent) => {
      const now = this.#clock();
      switch (event.event) {
        case 'ThinkingDelta':
          thinkingStartedAt ??= now;
          message.reasoning_content = (message.reasoning_content ?? '') + event.data.delta;
          break;
        case 'TextDelta':
          firstOutputAt ??= now;
          endThinking(now);
          message.content += event.data.delta;
          break;
        case 'ToolCallEnd':
          firstOutputAt ??= now;
          endThinking(now);
          message.tool_calls = [
            ...message.tool_calls,
            { tool_call_id: event.data.tool_call_id, name: event.data.name, arguments: event.data.arguments },
          ];
          break;
        case 'Usage':
          message.usage = event.data;
          break;
        case 'Error':
          event.data.message = redact(event.data.message);
          message.error = {
            code: event.data.code,
            message: event.data.message,
            ...(event.data.metona_code !== undefined && { metona_code: event.data.metona_code }),
          };
          break;
        case 'Done':
          message.status = event.data.status === 'completed' ? 'completed' : event.data.status;
          if (event.data.finish_reason) message.finish_reason = event.data.finish_reason;
          if (event.data.provider) message.provider_id = event.data.provider;
          if (event.data.model) message.model = event.data.model;
          break;
        case 'ToolCallStart':
        case 'ToolCallDelta':
          break;
        default: {
          const unhandled: never = event;
          throw new Error(`Unknown model event ${JSON.stringify(unhandled)}`);
        }
      }
    };
    const deliver = (events: ModelEvent[]) => {
      for (const event of events) {
        apply(event);
        publish(event.event, event.data as never);
      }
    };
    const onNotification = (notification: RouterNotification) => {
      const errorCode = (midStream: boolean): ErrorCode =>
        toContractErrorCode(notification.error.code, {
          midStream,
          providerCode: notification.error.providerCode,
        });
      if (notification.type === 'provider_switched') {
        message.provider_id = notification.to.provider;
        message.model = notification.to.model;
        publish('ProviderSwitched', {
          from: { provider_id: notification.from.provider, model: notification.from.model },
          to: { provider_id: notification.to.provider, model: notification.to.model },
          error_code: errorCode(false),
        });
      } else if (notification.type === 'attempt_discarded') {
        message.content = '';
        message.reasoning_content = null;
        message.reasoning_duration_ms = null;
        message.tool_calls = [];
        message.usage = null;
        thinkingStartedAt = undefined;
        firstOutputAt = undefined;
        publish('AttemptDiscarded', {
          provider_id: notification.provider,
          model: notification.model,
          attempt: notification.attempt,
          error_code: errorCode(true),
        });
      }
    };

    // web-llm reports every shard and shader: one event per whole percent is
    // what the progress line can show, and keeps the stored log small.
    let loadingPercent: number | undefined;
    const onLoadProgress = (progress: MetonaLoadProgress) => {
      if (firstOutputAt !== undefined || thinkingStartedAt !== undefined || signal.aborted) return;
      const percent = Math.floor(progress.progress * 100);
      if (percent === loadingPercent) return;
      loadingPercent = percent;
      publish('ModelLoading', {
        provider: message.provider_id ?? provider.provider_id,
        model: message.model ?? model,
        progress: progress.progress,
        text: progress.text,
      });
    };

    // The sources first, in order: the page can list them before the answer cites them.
    for (const citation of placeholder.citations ?? [])
      publish('Citation', citation satisfies ChatCitationDto);

    const projector = new ModelEventProjector({ resourceId: turnId, clock: this.#clock });
    const redact = await this.#providers
      .redactorFor([provider.provider_id, ...(provider.fallback ? [provider.fallback.provider_id] : [])])
      .catch(() => (text: string) => text);
    let finalEvents: ModelEvent[];
    let perfTokensPerSecond: number | undefined;
    try {
      const primary = await this.#target(provider, model);
      const fallback = await this.#fallback(provider);
      const router = new ProviderRouter({ ...this.#router, primary, ...fallback });
      const contextWindow = Math.min(
        await this.#providers.contextWindowFor(provider, model, primary.adapter),
        ...(fallback.fallback && provider.fallback
          ? [fallback.fallback.adapter.getContextWindow(provider.fallback.model)]
          : []),
      );
      const memorySection = await this.#memory
        ?.section(
          placeholder.conversation_id,
          history.at(-1)?.content ?? '',
          Math.floor(contextWindow * MEMORY_BUDGET_SHARE),
        )
        .catch(() => undefined);
      if (memorySection) notesSection = notesSection ? `${memorySection}\n\n${notesSection}` : memorySection;
      const build = async (force: boolean) =>
        this.#request(
          turnId,
          placeholder.conversation_id,
          await this.#fit(placeholder.conversation_id, provider.provider_id, history, {
            contextWindow,
            notesSection,
            system,
            vision,
            force,
            summarize: async (summaryRequest) =>
              (await router.route(summaryRequest, () => undefined, { signal })).response.content,
          }),
          thinking,
          notesSection,
          system,
        );
      // The first attempt's error event waits: a context-length error is retried, not shown.
      let heldError: MetonaStreamEvent | undefined;
      const send = (request: MetonaRequest, final: boolean) =>
        router.route(
          request,
          (event) => {
            if (event.type === 'error' && !final) heldError = event;
            else deliver(projector.push(event));
          },
          { signal, onNotification, onLoadProgress },
        );
      let result;
      try {
        result = await send(await build(false), false);
      } catch (error) {
        // The provider counts differently than the estimate: compress once and try again.
        const retry =
          !signal.aborted && toMetonaError(error, provider.provider_id).code === 'context_length_exceeded';
        if (!retry) {
          if (heldError) deliver(projector.push(heldError));
          throw error;
        }
        result = await send(await build(true), true);
      }
      perfTokensPerSecond = result.response.meta.perfStats?.tokensPerSecond;
      finalEvents = projector.finish({
        response: {
          ...result.response,
          meta: { ...result.response.meta, provider: result.provider, model: result.model },
        },
      });
    } catch (error) {
      finalEvents = projector.finish({
        error: signal.aborted ? new DOMException('Stopped', 'AbortError') : error,
      });
    }

    // The row first, then Error/Done: whoever sees Done reads the final message.
    const ended = this.#clock();
    for (const event of finalEvents) apply(event);
    endThinking(firstOutputAt ?? ended);
    message.latency_ms = ended - started;
    const outputTokens = message.usage?.output_tokens;
    const generationMs = ended - (firstOutputAt ?? thinkingStartedAt ?? started);
    message.tokens_per_second =
      perfTokensPerSecond ??
      (outputTokens && generationMs > 0 ? Math.round((outputTokens / generationMs) * 10_000) / 10 : null);
    message.completed_at = toIsoUtc(ended);
    if (message.status === 'streaming') message.status = 'failed';
    await this.#conversations.putMessage(message);
    for (const event of finalEvents) publish(event.event, event.data as never);
    await tail;
    return message;
  }

  /**
   * Earlier conversations with messages not yet in memory, digested one model
   * call each (summary and facts together) with the model they were held
   * with. A failure is logged and leaves that chat for the next time; so does
   * a digest stopped by its chat's memory switch or deletion (JOB_CANCELLED).
   * A chat with an answer streaming is left alone: its last message is not
   * written yet.
   */
  async #digestFinished(currentId: string): Promise<void> {
    const memory = this.#memory;
    if (!memory) return;
    let asked = 0;
    for (const conversation of await this.#conversations.list(DIGEST_LIMIT * 4, 0)) {
      if (asked >= DIGEST_LIMIT) return;
      const id = conversation.conversation_id;
      if (id === currentId || this.#isRunning(id)) continue;
      const messages = await this.#conversations.messages(id);
      const through = messages.at(-1)?.position;
      if (through === undefined || !(await memory.needsDigest(id, through))) continue;
      const provider = await this.#providers.config(conversation.provider_id).catch(() => undefined);
      if (!provider?.enabled) continue;
      try {
        const target = await this.#target(provider, conversation.model);
        const window = await this.#providers.contextWindowFor(provider, conversation.model, target.adapter);
        const since = await memory.digestedThrough(id);
        const transcript = digestTranscript(
          messages.filter((row) => row.position > since),
          Math.floor(window * DIGEST_TRANSCRIPT_SHARE),
        );
        if (transcript === '') continue;
        asked += 1;
        await memory.digestConversation(
          { conversation_id: id, through_position: through, transcript },
          this.#digestCall(id, target),
        );
      } catch (error) {
        if (error instanceof AppError && error.code === 'JOB_CANCELLED') continue;
        console.error('the chat could not be kept in memory', error);
      }
    }
  }

  #isRunning(conversationId: string): boolean {
    for (const turn of this.#running.values()) if (turn.conversationId === conversationId) return true;
    return false;
  }

  /** The digest's model call: in the asked format, or as plain text where the model has none. */
  #digestCall(conversationId: string, target: RouteTarget): MemoryDigestCall {
    const router = new ProviderRouter({ ...this.#router, primary: target });
    const request = (prompt: string, responseFormat?: MetonaResponseFormat): MetonaRequest => {
      const now = this.#clock();
      return {
        meta: {
          sessionId: conversationId,
          iteration: 1,
          requestId: newId('digest'),
          timestamp: now,
          agentVersion: '1.0.0',
        },
        systemPrompt: DIGEST_SYSTEM_PROMPT,
        messages: [{ role: 'user', content: prompt, timestamp: now }],
        params: { stream: true, temperature: 0, ...(responseFormat && { responseFormat }) },
      };
    };
    return async (prompt, responseFormat, signal) => {
      try {
        return (await router.route(request(prompt, responseFormat), () => undefined, { signal })).response;
      } catch (error) {
        // The adapter refused the format before sending: the prompt asks for JSON anyway.
        if (toMetonaError(error, target.adapter.providerId).providerCode !== CAPABILITY_MISMATCH) throw error;
        return (await router.route(request(prompt), () => undefined, { signal })).response;
      }
    };
  }

  async #target(provider: ProviderRow, model: string): Promise<RouteTarget> {
    return { adapter: await this.#providers.adapterFor(provider, model), model };
  }

  /** The configured fallback, when it still exists and is enabled. */
  async #fallback(provider: ProviderRow): Promise<{ fallback?: RouteTarget }> {
    if (!provider.fallback) return {};
    const fallback = await this.#providers.config(provider.fallback.provider_id).catch(() => undefined);
    if (!fallback?.enabled) return {};
    return { fallback: await this.#target(fallback, provider.fallback.model) };
  }

  /** The history as IR messages, older ones summarised when the window asks for it. */
  async #fit(
    conversationId: string,
    providerId: string,
    history: MessageRow[],
    options: {
      contextWindow: number;
      notesSection: string | undefined;
      system: typeof SYSTEM_PROMPT;
      vision: boolean;
      force: boolean;
      summarize: (request: MetonaRequest) => Promise<string>;
    },
  ): Promise<MetonaMessage[]> {
    const now = this.#clock();
    const kept = history.filter(
      (row) => row.role === 'user' || (row.status !== 'failed' && row.content !== ''),
    );
    const images = new Map<string, MetonaImageContent[]>();
    if (options.vision)
      for (const row of kept)
        if (row.images?.length) images.set(row.message_id, await this.#imageParts(row.images));
    const rows: HistoryRow[] = kept.map((row) => {
      const parts = images.get(row.message_id);
      return {
        position: row.position,
        message: {
          role: row.role,
          content: row.content,
          ...(parts && parts.length > 0 && { images: parts }),
          timestamp: Date.parse(row.created_at) || now,
          // Provider-owned state goes back only to the provider that produced it.
          ...(row.role === 'assistant' &&
            row.reasoning_content !== null &&
            row.provider_id === providerId && { reasoningContent: row.reasoning_content }),
        },
      };
    });
    const state: ChatContextState | undefined = await this.#context.get(conversationId);
    const fitted = await fitHistory({
      conversationId,
      rows,
      state,
      contextWindow: options.contextWindow,
      systemPrompt: options.system,
      reminders: options.notesSection ? [options.notesSection] : [],
      force: options.force,
      summarize: options.summarize,
      now: this.#clock,
      toIso: toIsoUtc,
    });
    if (fitted.compressed) await this.#context.put(conversationId, fitted.compressed);
    return fitted.messages;
  }

  #request(
    turnId: string,
    conversationId: string,
    messages: MetonaMessage[],
    thinking: ThinkingOptions,
    notesSection: string | undefined,
    system: typeof SYSTEM_PROMPT,
  ): MetonaRequest {
    const now = this.#clock();
    return {
      meta: {
        sessionId: conversationId,
        iteration: 1,
        requestId: turnId,
        timestamp: now,
        agentVersion: '1.0.0',
      },
      systemPrompt: notesSection ? { ...system, dynamicReminders: notesSection } : system,
      messages,
      params: { stream: true, ...thinking },
    };
  }
}
