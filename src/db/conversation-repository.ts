import { Dexie, type NotesAgentDatabase } from './database';
import type { ConversationRow, MessageRow } from './schema';

/** Conversations and their messages, ordered by position. */
export class ConversationRepository {
  readonly #db: NotesAgentDatabase;

  constructor(db: NotesAgentDatabase) {
    this.#db = db;
  }

  get(conversationId: string): Promise<ConversationRow | undefined> {
    return this.#db.conversations.get(conversationId);
  }

  /** Most recently updated first, the trash left out; `only` narrows to these ids. */
  list(limit: number, offset: number, only?: ReadonlySet<string>): Promise<ConversationRow[]> {
    return this.#live(only).offset(offset).limit(limit).toArray();
  }

  count(only?: ReadonlySet<string>): Promise<number> {
    return this.#live(only).count();
  }

  /**
   * Ids of the conversations whose title or any message contains `text`
   * (case-insensitive). A scan: conversations number in the hundreds, and
   * an index of every word would cost more than it saves here.
   */
  async matching(text: string): Promise<Set<string>> {
    const needle = text.toLocaleLowerCase();
    const ids = new Set<string>();
    await this.#db.conversations.each((row) => {
      if (row.title.toLocaleLowerCase().includes(needle)) ids.add(row.conversation_id);
    });
    await this.#db.messages.each((row) => {
      if (row.content.toLocaleLowerCase().includes(needle)) ids.add(row.conversation_id);
    });
    return ids;
  }

  /** Conversations in the trash. */
  trashed(): Promise<ConversationRow[]> {
    return this.#db.conversations.filter((row) => row.deleted_at !== undefined).toArray();
  }

  #live(only: ReadonlySet<string> | undefined) {
    return this.#db.conversations
      .orderBy('updated_at')
      .reverse()
      .filter((row) => row.deleted_at === undefined && (only === undefined || only.has(row.conversation_id)));
  }

  async putConversation(row: ConversationRow): Promise<void> {
    await this.#db.conversations.put(row);
  }

  messages(conversationId: string): Promise<MessageRow[]> {
    return this.#db.messages
      .where('[conversation_id+position]')
      .between([conversationId, Dexie.minKey], [conversationId, Dexie.maxKey])
      .toArray();
  }

  getMessage(messageId: string): Promise<MessageRow | undefined> {
    return this.#db.messages.get(messageId);
  }

  async putMessage(row: MessageRow): Promise<void> {
    await this.#db.messages.put(row);
  }

  async deleteMessage(messageId: string): Promise<void> {
    await this.#db.messages.delete(messageId);
  }

  /** Messages a closed tab left streaming. */
  streaming(): Promise<MessageRow[]> {
    return this.#db.messages.where('status').equals('streaming').toArray();
  }

  /** Adds messages and touches the conversation in one transaction. */
  async append(conversation: ConversationRow, messages: MessageRow[]): Promise<void> {
    await this.#db.transaction('rw', this.#db.conversations, this.#db.messages, async () => {
      await this.#db.conversations.put(conversation);
      await this.#db.messages.bulkPut(messages);
    });
  }

  /**
   * Drops the messages from `position` on and adds `messages` in their place,
   * in one transaction: an edited question never leaves half a thread.
   */
  async replaceFrom(conversation: ConversationRow, position: number, messages: MessageRow[]): Promise<void> {
    await this.#db.transaction('rw', this.#db.conversations, this.#db.messages, async () => {
      await this.#db.messages
        .where('[conversation_id+position]')
        .between([conversation.conversation_id, position], [conversation.conversation_id, Dexie.maxKey])
        .delete();
      await this.#db.conversations.put(conversation);
      await this.#db.messages.bulkPut(messages);
    });
  }

  async delete(conversationId: string): Promise<void> {
    await this.#db.transaction('rw', this.#db.conversations, this.#db.messages, async () => {
      await this.#db.messages
        .where('[conversation_id+position]')
        .between([conversationId, Dexie.minKey], [conversationId, Dexie.maxKey])
        .delete();
      await this.#db.conversations.delete(conversationId);
    });
  }
}
