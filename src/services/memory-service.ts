import { z } from 'zod';
import { AppError, conversationIdSchema, isAbortError, parseInput } from '../contracts';
import { newId, systemClock, type Clock } from '../core/ids';
import {
  CONVERSATION_DIGEST_SCHEMA,
  conversationDigestPrompt,
  expiryOf,
  extractExplicitFacts,
  findDuplicateMemory,
  formatMemorySection,
  MAX_FACT_CHARS,
  memoryExtractionPrompt,
  parseConversationDigest,
  parseExtractedFactsAnswer,
  MEMORY_FACTS_SCHEMA,
  recallWithinBudget,
  type ExtractedFact,
  type MemoryStore,
} from '../agent';
import type { MetonaMemoryItem, MetonaResponseFormat } from '../ir';
import { CAPABILITY_MISMATCH, toMetonaError } from '../providers/shared/errors';

/** Where the per-conversation switch is kept (the settings table in the app). */
export interface MemorySwitchStore {
  get<T>(key: string): Promise<T | undefined>;
  put(key: string, value: unknown): Promise<void>;
  delete(key: string): Promise<void>;
}

export interface MemoryServiceDeps {
  store: MemoryStore;
  switches: MemorySwitchStore;
  /** Whether a conversation exists (the switch of an unknown one is an error). */
  conversationExists: (conversationId: string) => Promise<boolean>;
  clock?: Clock;
}

/** A model's answer to a memory prompt: its text, and the provider's parsed JSON when it gave one. */
export interface MemoryDigestAnswer {
  content: string;
  structuredOutput?: unknown;
}

/**
 * Asks a model for JSON: in `responseFormat`, or, when that is undefined, in
 * plain text (the prompts ask for JSON in words too).
 */
export type MemoryModelCall = (
  prompt: string,
  responseFormat: MetonaResponseFormat | undefined,
  signal: AbortSignal | undefined,
) => Promise<MemoryDigestAnswer>;

/** Asks a model for a finished chat's digest, in `responseFormat` where the model can. */
export type MemoryDigestCall = (
  prompt: string,
  responseFormat: MetonaResponseFormat,
  signal: AbortSignal | undefined,
) => Promise<MemoryDigestAnswer>;

/** What a digest stored: the episode (absent when the model gave no summary) and the new facts. */
export interface ConversationDigestResult {
  episode?: MetonaMemoryItem;
  facts: MetonaMemoryItem[];
}

export interface ConversationMemoryDto {
  conversation_id: string;
  enabled: boolean;
}

const SWITCH_PREFIX = 'chat.memory.off.';
/** The last message position of a conversation already digested into memories. */
const DIGEST_PREFIX = 'chat.memory.digested.';
const DIGEST_FORMAT: MetonaResponseFormat = {
  type: 'json_schema',
  name: 'conversation_digest',
  schema: CONVERSATION_DIGEST_SCHEMA,
  strict: true,
};

const FACTS_FORMAT: MetonaResponseFormat = {
  type: 'json_schema',
  name: 'memory_facts',
  schema: MEMORY_FACTS_SCHEMA,
  strict: true,
};

function refusedFormat(error: unknown): boolean {
  if (error instanceof AppError) return error.code === 'MODEL_CAPABILITY_MISMATCH';
  return toMetonaError(error, 'memory').providerCode === CAPABILITY_MISMATCH;
}

const rememberSchema = z.object({
  content: z
    .string()
    .trim()
    .min(1, 'Say what to remember.')
    .max(MAX_FACT_CHARS, `A memory is at most ${MAX_FACT_CHARS} characters.`),
  importance: z.number().min(0).max(1).optional(),
  expires_in_days: z.number().positive().optional(),
  conversation_id: conversationIdSchema.optional(),
});
export type RememberInput = z.input<typeof rememberSchema>;

const memoryIdSchema = z.string().min(1, 'id is required');
const switchSchema = z.object({ conversation_id: conversationIdSchema, enabled: z.boolean() });
const digestSchema = z.object({
  conversation_id: conversationIdSchema,
  through_position: z.number().int().nonnegative(),
  transcript: z.string().trim().min(1, 'There is nothing to digest.'),
});
const episodeSchema = z.object({
  session_id: z.string().min(1),
  content: z.string().trim().min(1, 'An episode needs a summary.'),
  source: z.enum(['user_input', 'tool_result', 'agent_thought', 'imported']).default('agent_thought'),
});

/**
 * The user's memories (the IR's MetonaMemoryItem), one store for chat and the
 * agent: facts the user states become semantic memories, summaries of finished
 * chats and runs episodic ones. Deleting one removes it from every later
 * chat and run, since both recall from this store.
 */
export class MemoryService {
  readonly #deps: MemoryServiceDeps;
  readonly #clock: Clock;
  /** Digests waiting on their model call, by conversation: its switch turned off or its deletion stops them. */
  readonly #digesting = new Map<string, AbortController>();

  constructor(deps: MemoryServiceDeps) {
    this.#deps = deps;
    this.#clock = deps.clock ?? systemClock;
  }

  /** Newest first, expired ones included until pruned (the list shows what is stored). */
  list(): Promise<MetonaMemoryItem[]> {
    return this.#deps.store.list();
  }

  async delete(id: string): Promise<void> {
    const memoryId = parseInput(memoryIdSchema, id);
    if (!(await this.#deps.store.delete(memoryId))) {
      throw new AppError('RESOURCE_NOT_FOUND', 'This memory does not exist.', { id: memoryId });
    }
  }

  /** A fact the user adds by hand; saying the same thing twice is a conflict. */
  async remember(input: RememberInput): Promise<MetonaMemoryItem> {
    const valid = parseInput(rememberSchema, input, 'This memory cannot be saved.');
    const now = this.#clock();
    const duplicate = findDuplicateMemory(await this.#deps.store.list(), valid.content, now);
    if (duplicate) {
      throw new AppError('STATE_CONFLICT', 'This is already remembered.', { id: duplicate.id });
    }
    const item = this.#semantic(
      {
        content: valid.content,
        importance: valid.importance ?? 0.9,
        ...(valid.expires_in_days !== undefined && { expiresInDays: valid.expires_in_days }),
      },
      valid.conversation_id,
      now,
    );
    await this.#deps.store.put(item);
    return item;
  }

  async conversationMemory(conversationId: string): Promise<ConversationMemoryDto> {
    const id = parseInput(conversationIdSchema, conversationId);
    if (!(await this.#deps.conversationExists(id))) throw conversationNotFound(id);
    return { conversation_id: id, enabled: await this.enabled(id) };
  }

  /** The per-conversation switch; off, the conversation neither recalls nor records memories. */
  async setConversationMemory(input: ConversationMemoryDto): Promise<ConversationMemoryDto> {
    const valid = parseInput(switchSchema, input, 'The memory switch cannot be set.');
    if (!(await this.#deps.conversationExists(valid.conversation_id))) {
      throw conversationNotFound(valid.conversation_id);
    }
    const key = `${SWITCH_PREFIX}${valid.conversation_id}`;
    if (valid.enabled) await this.#deps.switches.delete(key);
    else {
      await this.#deps.switches.put(key, true);
      this.#digesting.get(valid.conversation_id)?.abort();
    }
    return valid;
  }

  /** A conversation not seen yet has memory on. */
  async enabled(conversationId: string): Promise<boolean> {
    return (await this.#deps.switches.get<boolean>(`${SWITCH_PREFIX}${conversationId}`)) !== true;
  }

  /** Forgets the switch of a deleted conversation; its memories stay (the user deletes those). */
  async forgetConversation(conversationId: string): Promise<void> {
    this.#digesting.get(conversationId)?.abort();
    await this.#deps.switches.delete(`${SWITCH_PREFIX}${conversationId}`);
    await this.#deps.switches.delete(`${DIGEST_PREFIX}${conversationId}`);
  }

  /** Whether messages up to `throughPosition` hold something not yet digested (and memory is on). */
  async needsDigest(conversationId: string, throughPosition: number): Promise<boolean> {
    if (!(await this.enabled(conversationId))) return false;
    return throughPosition > (await this.digestedThrough(conversationId));
  }

  /** The last message position already digested; -1 when none was. */
  async digestedThrough(conversationId: string): Promise<number> {
    return (await this.#deps.switches.get<number>(`${DIGEST_PREFIX}${conversationId}`)) ?? -1;
  }

  /**
   * A finished chat, digested in one model call: its summary becomes an
   * episodic memory and the facts the user stated semantic ones. Digesting
   * what is already digested, or a conversation with memory off, stores
   * nothing and asks nothing. A failed or stopped call stores nothing and
   * leaves the conversation to be digested again; a reply without a readable
   * digest counts as done, so a model that cannot answer in JSON is not asked
   * again for the same messages. The call runs in the background of the chat,
   * so memory switched off or the conversation deleted for good meanwhile stops it
   * (JOB_CANCELLED) and nothing is stored.
   */
  async digestConversation(
    input: z.input<typeof digestSchema>,
    call: MemoryDigestCall,
    signal?: AbortSignal,
  ): Promise<ConversationDigestResult> {
    const valid = parseInput(digestSchema, input, 'This conversation cannot be digested.');
    const id = valid.conversation_id;
    if (!(await this.#deps.conversationExists(id))) throw conversationNotFound(id);
    if (!(await this.needsDigest(id, valid.through_position))) return { facts: [] };
    let answer: MemoryDigestAnswer;
    const controller = new AbortController();
    const stop = () => controller.abort();
    signal?.addEventListener('abort', stop, { once: true });
    if (signal?.aborted) stop();
    this.#digesting.get(id)?.abort();
    this.#digesting.set(id, controller);
    const stopped = () =>
      new AppError('JOB_CANCELLED', 'The chat summary was stopped.', { conversation_id: id });
    try {
      controller.signal.throwIfAborted();
      answer = await call(conversationDigestPrompt(valid.transcript), DIGEST_FORMAT, controller.signal);
      controller.signal.throwIfAborted();
    } catch (error) {
      if (isAbortError(error) || controller.signal.aborted) throw stopped();
      if (error instanceof AppError) throw error;
      throw new AppError(
        'PROVIDER_UNAVAILABLE',
        'The model could not summarise the chat.',
        {},
        { cause: error },
      );
    } finally {
      signal?.removeEventListener('abort', stop);
      if (this.#digesting.get(id) === controller) this.#digesting.delete(id);
    }
    // Switched off or deleted between the check and the abort's registration: still nothing stored.
    if (!(await this.enabled(id)) || !(await this.#deps.conversationExists(id))) throw stopped();
    const digest = parseConversationDigest(answer.structuredOutput, answer.content);
    const stored: MetonaMemoryItem[] = [];
    try {
      const episode = digest.summary
        ? await this.recordEpisode({ session_id: id, content: digest.summary, source: 'agent_thought' })
        : undefined;
      if (episode) stored.push(episode);
      const facts = await this.#storeFacts(digest.facts, id);
      stored.push(...facts);
      await this.#deps.switches.put(`${DIGEST_PREFIX}${id}`, valid.through_position);
      return { ...(episode && { episode }), facts };
    } catch (error) {
      // All or nothing: a digest half stored would be stored again by the next try.
      await Promise.all(stored.map((item) => this.#deps.store.delete(item.id).catch(() => false)));
      throw error;
    }
  }

  /** Stores the facts a user message states explicitly ("remember that …", "记住…"). */
  async observe(conversationId: string, text: string): Promise<MetonaMemoryItem[]> {
    if (!(await this.enabled(conversationId))) return [];
    return this.#storeFacts(extractExplicitFacts(text), conversationId);
  }

  /**
   * The model path: the model lists the durable facts in a message, in a JSON
   * schema where its provider takes one, else as text parsed tolerantly;
   * nothing is stored when the call fails or stops.
   */
  async extractWithModel(
    conversationId: string,
    text: string,
    call: MemoryModelCall,
    signal?: AbortSignal,
  ): Promise<MetonaMemoryItem[]> {
    if (!(await this.enabled(conversationId))) return [];
    let reply: MemoryDigestAnswer;
    const prompt = memoryExtractionPrompt(text);
    try {
      signal?.throwIfAborted();
      reply = await call(prompt, FACTS_FORMAT, signal).catch((error: unknown) => {
        // Refused before sending (the provider has no form for the schema): once more as text.
        if (signal?.aborted || !refusedFormat(error)) throw error;
        return call(prompt, undefined, signal);
      });
      signal?.throwIfAborted();
    } catch (error) {
      if (isAbortError(error) || signal?.aborted) {
        throw new AppError('JOB_CANCELLED', 'Memory extraction was stopped.', {});
      }
      if (error instanceof AppError) throw error;
      throw new AppError(
        'PROVIDER_UNAVAILABLE',
        'The model could not extract memories.',
        {},
        { cause: error },
      );
    }
    return this.#storeFacts(parseExtractedFactsAnswer(reply.structuredOutput, reply.content), conversationId);
  }

  /** A finished chat's or run's summary, kept as an episodic memory. */
  async recordEpisode(input: z.input<typeof episodeSchema>): Promise<MetonaMemoryItem> {
    const valid = parseInput(episodeSchema, input, 'This episode cannot be saved.');
    const item: MetonaMemoryItem = {
      id: newId('mem'),
      type: 'episodic',
      content: valid.content.slice(0, 4 * MAX_FACT_CHARS),
      ...(valid.content.length > MAX_FACT_CHARS && { summary: valid.content.slice(0, MAX_FACT_CHARS) }),
      source: valid.source,
      importance: 0.4,
      sessionId: valid.session_id,
      createdAt: this.#clock(),
    };
    await this.#deps.store.put(item);
    return item;
  }

  /** The memories for a prompt, within `budgetTokens`; undefined when off or none are relevant. */
  async section(conversationId: string, query: string, budgetTokens: number): Promise<string | undefined> {
    if (!(await this.enabled(conversationId))) return undefined;
    const items = await recallWithinBudget(this.#deps.store, query, {
      now: this.#clock(),
      sessionId: conversationId,
      budgetTokens,
    });
    return formatMemorySection(items);
  }

  async #storeFacts(facts: ExtractedFact[], conversationId: string): Promise<MetonaMemoryItem[]> {
    const now = this.#clock();
    const existing = await this.#deps.store.list();
    const stored: MetonaMemoryItem[] = [];
    for (const fact of facts) {
      // Said again: the older memory stays, it is not a second one.
      if (findDuplicateMemory([...existing, ...stored], fact.content, now)) continue;
      const item = this.#semantic(fact, conversationId, now);
      await this.#deps.store.put(item);
      stored.push(item);
    }
    return stored;
  }

  #semantic(fact: ExtractedFact, sessionId: string | undefined, now: number): MetonaMemoryItem {
    const expiresAt = expiryOf(now, fact.expiresInDays);
    return {
      id: newId('mem'),
      type: 'semantic',
      content: fact.content,
      source: 'user_input',
      importance: fact.importance,
      ...(sessionId !== undefined && { sessionId }),
      createdAt: now,
      ...(expiresAt !== undefined && { expiresAt }),
    };
  }
}

function conversationNotFound(conversationId: string): AppError {
  return new AppError('RESOURCE_NOT_FOUND', 'No conversation has this id.', {
    conversation_id: conversationId,
  });
}
