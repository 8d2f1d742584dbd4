import { core } from '../api/core-client';
import { reportError } from '../errors';
import { memories } from './memory.svelte';

export async function refreshMemories(): Promise<void> {
  try {
    memories.set(await core.memory.list());
  } catch (error) {
    reportError(error);
  }
}

/** Deleted here, a memory is gone from later chats and agent runs (they share the store). */
export async function deleteMemory(id: string): Promise<void> {
  try {
    await core.memory.delete(id);
    memories.remove(id);
  } catch (error) {
    reportError(error);
    await refreshMemories();
  }
}

/** Whether this conversation recalls and records memories; true when it cannot be read. */
export async function conversationMemoryEnabled(conversationId: string): Promise<boolean> {
  try {
    return (await core.memory.conversationMemory(conversationId)).enabled;
  } catch (error) {
    reportError(error);
    return true;
  }
}

export async function setConversationMemory(conversationId: string, enabled: boolean): Promise<boolean> {
  try {
    return (await core.memory.setConversationMemory({ conversation_id: conversationId, enabled })).enabled;
  } catch (error) {
    reportError(error);
    return !enabled;
  }
}
