import type { ChatMessageDto, ConversationDto } from '../../contracts/chat';
import type { ThinkingEffort } from '../../contracts/chat';
import type { ModelInfoDto, ProviderDto } from '../../contracts/provider-config';
import type { LiveMessage } from './turn-events';
import { loadChatDrafts, saveChatDraft } from './chat-drafts';
import { rememberUseNotes, rememberedUseNotes } from './use-notes-memory';

function browserStorage(): Storage | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    return null;
  }
}

/** An image attached to the next message: stored already, shown from an object URL. */
export interface PendingImage {
  attachment_id: string;
  name: string;
  url: string;
}

export interface ModelChoice {
  provider_id: string;
  model: string;
}

/** A citation the user followed out of the chat: back in the chat, the keyboard returns to it. */
export interface FollowedCitation {
  message_id: string;
  index: number;
  /** The `[n]` link in the answer, or the button in its source list. */
  from: 'inline' | 'source';
}

/** Conversations the list shows at first, and adds on each "Show more". */
export const CONVERSATION_PAGE = 100;

/** What the chat view shows: conversations, the open one's messages, the picked model. */
export class ChatState {
  #conversations = $state.raw<ConversationDto[]>([]);
  #conversationId = $state<string | null>(null);
  #messages = $state.raw<LiveMessage[]>([]);
  #contextNotice = $state.raw<{ through_position: number; mode: 'summary' | 'dropped' } | null>(null);
  #providers = $state.raw<ProviderDto[]>([]);
  #choice = $state<ModelChoice | null>(null);
  #choiceKnown = $state(false);
  #activeTurn = $state<string | null>(null);
  #sending = $state(false);
  #useNotes = $state(rememberedUseNotes(browserStorage(), null));
  #models = $state.raw<Record<string, ModelInfoDto[] | undefined>>({});
  #thinking = $state(true);
  #effort = $state<ThinkingEffort>('medium');
  #query = $state('');
  #current = $state.raw<ConversationDto | null>(null);
  #pendingImages = $state.raw<PendingImage[]>([]);
  #refusal = $state<string | null>(null);
  #drafts = $state.raw<Record<string, string>>(loadChatDrafts(browserStorage()));
  #conversationTotal = $state(0);
  #listWanted = $state(CONVERSATION_PAGE);
  /** Per conversation (a new one's under ''): read once, on the way back. */
  #followed: Record<string, FollowedCitation> = {};

  get conversations(): readonly ConversationDto[] {
    return this.#conversations;
  }
  get conversationId(): string | null {
    return this.#conversationId;
  }
  get messages(): readonly LiveMessage[] {
    return this.#messages;
  }
  get providers(): readonly ProviderDto[] {
    return this.#providers;
  }
  get choice(): ModelChoice | null {
    return this.#choice;
  }
  get activeTurn(): string | null {
    return this.#activeTurn;
  }
  /** Ask your notes: the next message goes out with `use_notes`. */
  get useNotes(): boolean {
    return this.#useNotes;
  }
  /** The user's choice: the open conversation's, and the one the next new chat starts with. */
  setUseNotes(useNotes: boolean): void {
    this.#useNotes = useNotes;
    rememberUseNotes(browserStorage(), this.#conversationId, useNotes);
  }
  /** A message went out in this conversation (a new chat's first names it): it keeps the choice. */
  keepUseNotes(conversationId: string): void {
    rememberUseNotes(browserStorage(), conversationId, this.#useNotes);
  }
  /**
   * The box on opening a conversation: a new chat's is the last choice; a conversation's its own
   * (one this device has no record of: whether its answers cited notes).
   */
  restoreUseNotes(conversationId: string | null, citedNotes = false): void {
    this.#useNotes = rememberedUseNotes(browserStorage(), conversationId, citedNotes);
  }
  /** Each provider's reported models; undefined where the list could not be read. */
  get models(): Readonly<Record<string, ModelInfoDto[] | undefined>> {
    return this.#models;
  }
  setModels(models: Record<string, ModelInfoDto[] | undefined>): void {
    this.#models = models;
  }
  /** The composer's thinking toggle and effort (sent only for models that reason). */
  get thinking(): boolean {
    return this.#thinking;
  }
  setThinking(thinking: boolean): void {
    this.#thinking = thinking;
  }
  get effort(): ThinkingEffort {
    return this.#effort;
  }
  setEffort(effort: ThinkingEffort): void {
    this.#effort = effort;
  }
  get busy(): boolean {
    return this.#sending || this.#activeTurn !== null;
  }

  setConversations(items: ConversationDto[]): void {
    this.#conversations = items;
  }
  /** The open conversation (title, system prompt); null for a new one. */
  get current(): ConversationDto | null {
    return this.#current?.conversation_id === this.#conversationId ? this.#current : null;
  }
  setCurrent(conversation: ConversationDto | null): void {
    this.#current = conversation;
  }
  /** The conversation search box. */
  get query(): string {
    return this.#query;
  }
  setQuery(query: string): void {
    this.#query = query;
  }
  get pendingImages(): readonly PendingImage[] {
    return this.#pendingImages;
  }
  setPendingImages(images: PendingImage[]): void {
    this.#pendingImages = images;
  }
  /** Why the composer did not send (a text-only model with images), shown above it. */
  get refusal(): string | null {
    return this.#refusal;
  }
  setRefusal(refusal: string | null): void {
    this.#refusal = refusal;
  }
  /**
   * What the user is typing, per conversation ('' keys a new chat). It lives here, not in the
   * view: opening a citation leaves the Chat view, and Back must find the question half-written;
   * and in `localStorage`, so that a reload finds it too.
   */
  draftOf(conversationId: string | null): string {
    return this.#drafts[conversationId ?? ''] ?? '';
  }
  setDraft(conversationId: string | null, text: string): void {
    const key = conversationId ?? '';
    const { [key]: _old, ...rest } = this.#drafts;
    this.#drafts = text === '' ? rest : { ...rest, [key]: text };
    saveChatDraft(browserStorage(), conversationId, text, Date.now());
  }
  /** How many conversations match the search, listed or not. */
  get conversationTotal(): number {
    return this.#conversationTotal;
  }
  setConversationTotal(total: number): void {
    this.#conversationTotal = total;
  }
  /** How many conversations the list shows: a page more each time the user asks for more. */
  get listWanted(): number {
    return this.#listWanted;
  }
  setListWanted(count: number): void {
    this.#listWanted = count;
  }
  /** Where older messages of the open conversation were summarised away (null: none). */
  get contextNotice(): { through_position: number; mode: 'summary' | 'dropped' } | null {
    return this.#contextNotice;
  }
  setContextNotice(notice: { through_position: number; mode: 'summary' | 'dropped' } | null): void {
    this.#contextNotice = notice;
  }

  followCitation(conversationId: string | null, citation: FollowedCitation): void {
    this.#followed[conversationId ?? ''] = citation;
  }
  takeFollowedCitation(conversationId: string | null): FollowedCitation | null {
    const key = conversationId ?? '';
    const followed = this.#followed[key] ?? null;
    delete this.#followed[key];
    return followed;
  }

  open(conversationId: string | null, messages: LiveMessage[]): void {
    this.#contextNotice = null;
    this.#conversationId = conversationId;
    this.#messages = messages;
  }
  setMessages(messages: LiveMessage[]): void {
    this.#messages = messages;
  }
  updateMessage(messageId: string, update: (message: LiveMessage) => LiveMessage): void {
    this.#messages = this.#messages.map((message) =>
      message.message_id === messageId ? update(message) : message,
    );
  }
  setProviders(items: ProviderDto[]): void {
    this.#providers = items;
  }
  choose(choice: ModelChoice | null): void {
    this.#choice = choice;
  }
  /**
   * The saved providers have been read (or could not be) and the choice follows from them.
   * Until then the picker says it is loading: the in-browser models alone, or none, would
   * offer a choice the user does not have.
   */
  get choiceKnown(): boolean {
    return this.#choiceKnown;
  }
  setChoiceKnown(known: boolean): void {
    this.#choiceKnown = known;
  }
  setActiveTurn(turnId: string | null): void {
    this.#activeTurn = turnId;
  }
  setSending(sending: boolean): void {
    this.#sending = sending;
  }

  reset(): void {
    this.#conversations = [];
    this.#conversationId = null;
    this.#messages = [];
    this.#providers = [];
    this.#choice = null;
    this.#choiceKnown = false;
    this.#activeTurn = null;
    this.#sending = false;
    this.#useNotes = false;
    this.#models = {};
    this.#thinking = true;
    this.#effort = 'medium';
    this.#query = '';
    this.#current = null;
    this.#pendingImages = [];
    this.#refusal = null;
    this.#drafts = {};
    this.#conversationTotal = 0;
    this.#listWanted = CONVERSATION_PAGE;
    this.#followed = {};
  }
}

export const chat = new ChatState();

export type { ChatMessageDto };
