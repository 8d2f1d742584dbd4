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

  /** Most recently updated first. */
  list(limit: number, offset: number): Promise<ConversationRow[]> {
    return this.#db.conversations.orderBy('updated_at').reverse().offset(offset).limit(limit).toArray();
  }

  count(): Promise<number> {
    return this.#db.conversations.count();
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
