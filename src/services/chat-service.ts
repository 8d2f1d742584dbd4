import {
  AppError,
  DEFAULT_PROVIDER_ID,
  chatSendSchema,
  conversationIdSchema,
  pageQuerySchema,
  parseInput,
  toIsoUtc,
  turnIdSchema,
  type ChatCitationDto,
  type ChatContextNoticeDto,
  type ChatMessageDto,
  type ChatSendInput,
  type ChatTurnDto,
  type ChatTurnEventData,
  type ChatTurnEventName,
  type ConversationDetailDto,
  type ConversationDto,
  type ErrorCode,
  type OffsetPage,
} from '../contracts';
import type { EventLog } from '../core/event-log';
import { newId, systemClock, type Clock } from '../core/ids';
import type { ConversationRepository, MessageRow, ProviderRow } from '../db';
import type {
  MetonaGenerationParams,
  MetonaLoadProgress,
  MetonaMessage,
  MetonaRequest,
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
import { toMetonaError } from '../providers/shared/errors';
import {
  fitHistory,
  memoryContextStore,
  type ChatContextState,
  type ChatContextStore,
  type HistoryRow,
} from './chat-context';
import { formatSources, type NotesContextProvider, type NotesContextSource } from './notes-context';
import type { ProviderService } from './provider-service';

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
  /** Records the facts a message states and recalls memories into the prompt. */
  memory?: ChatMemory;
}

/** What the chat needs of the memory service. */
export interface ChatMemory {
  observe(conversationId: string, text: string): Promise<unknown>;
  section(conversationId: string, query: string, budgetTokens: number): Promise<string | undefined>;
  forgetConversation(conversationId: string): Promise<void>;
}

/** The share of the context window recalled memories may take. */
const MEMORY_BUDGET_SHARE = 0.1;

const SYSTEM_PROMPT = {
  roleDefinition: 'You are the assistant of NotesAgent, a personal notebook.',
  outputConstraints: 'Answer in Markdown. Be concise.',
  safetyGuidelines: 'Do not invent facts; say when you are unsure.',
};
const TITLE_LENGTH = 60;

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
    this.#memory = options.memory;
  }

  /** Where older messages of this conversation were summarised away; null when none were. */
  async contextNotice(conversationId: string): Promise<ChatContextNoticeDto | null> {
    const id = parseInput(conversationIdSchema, conversationId);
    if (!(await this.#conversations.get(id))) throw notFound(id);
    const state = await this.#context.get(id);
    return state ? { through_position: state.through_position, mode: state.mode } : null;
  }

  async listConversations(
    query: { limit?: number; offset?: number } = {},
  ): Promise<OffsetPage<ConversationDto>> {
    const { limit, offset } = parseInput(pageQuerySchema, query);
    const [items, total] = await Promise.all([
      this.#conversations.list(limit, offset),
      this.#conversations.count(),
    ]);
    return { items, page: { total, limit, offset } };
  }

  async getConversation(conversationId: string): Promise<ConversationDetailDto> {
    const id = parseInput(conversationIdSchema, conversationId);
    const conversation = await this.#conversations.get(id);
    if (!conversation) throw notFound(id);
    return { ...conversation, messages: await this.#conversations.messages(id) };
  }

  async deleteConversation(conversationId: string): Promise<void> {
    const id = parseInput(conversationIdSchema, conversationId);
    if (!(await this.#conversations.get(id))) throw notFound(id);
    this.#conflictIfRunning(id);
    await this.#conversations.delete(id);
    await this.#context.delete(id).catch(() => undefined);
    await this.#memory?.forgetConversation(id).catch(() => undefined);
  }

  /**
   * Starts a turn and returns at once; the answer streams as events of
   * `turn_id`. One turn at a time per conversation.
   */
  async send(input: ChatSendInput): Promise<ChatTurnDto> {
    const valid = parseInput(chatSendSchema, input, 'This message cannot be sent.');
    const now = toIsoUtc(this.#clock());
    let conversation = valid.conversation_id
      ? await this.#conversations.get(valid.conversation_id)
      : undefined;
    if (valid.conversation_id && !conversation) throw notFound(valid.conversation_id);
    if (conversation) this.#conflictIfRunning(conversation.conversation_id);
    const providerId = valid.provider_id ?? conversation?.provider_id ?? DEFAULT_PROVIDER_ID;
    const provider = await this.#usableProvider(providerId);
    const model =
      valid.model ?? (valid.provider_id ? undefined : conversation?.model) ?? provider.default_model;

    conversation = {
      conversation_id: conversation?.conversation_id ?? newId('conv'),
      title: conversation?.title ?? valid.content.slice(0, TITLE_LENGTH),
      created_at: conversation?.created_at ?? now,
      updated_at: now,
      provider_id: provider.provider_id,
      model,
    };
    const sources = valid.use_notes ? await this.#sources(valid.content) : undefined;
    const history = await this.#conversations.messages(conversation.conversation_id);
    const user = this.#message(conversation.conversation_id, 'user', history.length, now, {
      content: valid.content,
      status: 'completed',
      completed_at: now,
    });
    const assistant = this.#message(conversation.conversation_id, 'assistant', history.length + 1, now, {
      provider_id: provider.provider_id,
      model,
      ...(sources && { citations: citationsOf(sources) }),
    });
    await this.#conversations.append(conversation, [user, assistant]);
    // Before the turn starts: a fact stated here is recalled by the next conversation at once.
    await this.#memory?.observe(conversation.conversation_id, valid.content).catch((error: unknown) => {
      console.error('memory could not be recorded', error);
    });
    const notesSection = sources && sources.length > 0 ? formatSources(sources) : undefined;
    this.#start(provider, model, [...history, user], assistant, thinkingOf(valid), notesSection);
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
    const id = parseInput(conversationIdSchema, conversationId);
    const conversation = await this.#conversations.get(id);
    if (!conversation) throw notFound(id);
    this.#conflictIfRunning(id);
    let history = await this.#conversations.messages(id);
    const last = history.at(-1);
    // An answer that asked the notes (it has a citations list, maybe empty) asks them again on retry.
    const usedNotes = last?.role === 'assistant' && last.citations !== undefined;
    if (last?.role === 'assistant') {
      if (last.status === 'completed') {
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
    const sources = usedNotes ? await this.#sources(question.content) : undefined;
    const now = toIsoUtc(this.#clock());
    const assistant = this.#message(id, 'assistant', history.length, now, {
      provider_id: provider.provider_id,
      model: conversation.model,
      ...(sources && { citations: citationsOf(sources) }),
    });
    await this.#conversations.append({ ...conversation, updated_at: now }, [assistant]);
    const notesSection = sources && sources.length > 0 ? formatSources(sources) : undefined;
    this.#start(provider, conversation.model, history, assistant, {}, notesSection);
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

  /** Turns a closed tab left streaming end as failed, with their terminal events. */
  async recover(): Promise<number> {
    const stale = (await this.#conversations.streaming()).filter((row) => !this.#running.has(row.message_id));
    for (const row of stale) {
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
    }
    return stale.length;
  }

  /** Resolves when no turn is running (tests, shutdown). */
  async idle(): Promise<void> {
    await Promise.allSettled([...this.#running.values()].map((turn) => turn.settled));
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

  #start(
    provider: ProviderRow,
    model: string,
    history: MessageRow[],
    assistant: MessageRow,
    thinking: ThinkingOptions,
    notesSection: string | undefined,
  ): void {
    const controller = new AbortController();
    const settled = this.#run(
      provider,
      model,
      history,
      assistant,
      thinking,
      notesSection,
      controller.signal,
    ).finally(() => this.#running.delete(assistant.message_id));
    this.#running.set(assistant.message_id, {
      conversationId: assistant.conversation_id,
      controller,
      settled,
    });
  }

  async #run(
    provider: ProviderRow,
    model: string,
    history: MessageRow[],
    placeholder: MessageRow,
    thinking: ThinkingOptions,
    notesOnly: string | undefined,
    signal: AbortSignal,
  ): Promise<ChatMessageDto> {
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
          message.error = { code: event.data.code, message: event.data.message };
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
        toContractErrorCode(notification.error.code, { midStream });
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
            force,
            summarize: async (summaryRequest) =>
              (await router.route(summaryRequest, () => undefined, { signal })).response.content,
          }),
          thinking,
          notesSection,
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
      force: boolean;
      summarize: (request: MetonaRequest) => Promise<string>;
    },
  ): Promise<MetonaMessage[]> {
    const now = this.#clock();
    const rows: HistoryRow[] = history
      .filter((row) => row.role === 'user' || (row.status !== 'failed' && row.content !== ''))
      .map((row) => ({
        position: row.position,
        message: {
          role: row.role,
          content: row.content,
          timestamp: Date.parse(row.created_at) || now,
          // Provider-owned state goes back only to the provider that produced it.
          ...(row.role === 'assistant' &&
            row.reasoning_content !== null &&
            row.provider_id === providerId && { reasoningContent: row.reasoning_content }),
        },
      }));
    const state: ChatContextState | undefined = await this.#context.get(conversationId);
    const fitted = await fitHistory({
      conversationId,
      rows,
      state,
      contextWindow: options.contextWindow,
      systemPrompt: SYSTEM_PROMPT,
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
      systemPrompt: notesSection ? { ...SYSTEM_PROMPT, dynamicReminders: notesSection } : SYSTEM_PROMPT,
      messages,
      params: { stream: true, ...thinking },
    };
  }
}
