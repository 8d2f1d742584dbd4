import type { ChatCitationDto, ChatMessageDto, ChatTurnDto, ChatTurnEventData } from '../../contracts/chat';
import type { EventEnvelope } from '../../contracts/events';
import { core, subscribeEvents } from '../api/core-client';
import { editor } from '../editor/editor.svelte';
import { reportError } from '../errors';
import { t } from '../i18n';
import { openNote as openNoteAt } from '../navigation';
import { toasts } from '../toasts/toasts.svelte';
import { chat } from './chat.svelte';
import { applyTurnEvent, toLiveMessage } from './turn-events';
import type { LocalModelDto } from '../../contracts/local-models';
import { loadLocalModels } from '../local-models/local-models.service';
import { localModels } from '../local-models/local-models.svelte';
import { LOCAL_PROVIDER, capabilitiesOf } from './model-options';

let stopTurn: (() => void) | null = null;

/** Loads providers and conversations; keeps the picked model if it still exists. */
export async function loadChat(): Promise<void> {
  try {
    const [providers, conversations] = await Promise.all([
      core.providers.list(),
      core.chat.listConversations({ limit: 100 }),
    ]);
    const enabled = providers.items.filter((provider) => provider.enabled);
    chat.setProviders(enabled);
    chat.setConversations(conversations.items);
    const current = chat.choice;
    const exists =
      current !== null &&
      (current.provider_id === LOCAL_PROVIDER ||
        enabled.some((provider) => provider.provider_id === current.provider_id));
    if (!exists) {
      const first = enabled[0];
      chat.choose(first ? { provider_id: first.provider_id, model: first.default_model } : null);
    }
  } catch (error) {
    reportError(error);
  }
}

/** Every model each enabled provider reports, and the in-browser models; a provider that cannot list keeps its default. */
export async function loadModels(): Promise<void> {
  const providers = chat.providers;
  const lists = await Promise.all(
    providers.map(async (provider) => {
      try {
        return [provider.provider_id, (await core.providers.models(provider.provider_id)).items] as const;
      } catch {
        return [provider.provider_id, undefined] as const;
      }
    }),
  );
  chat.setModels(Object.fromEntries(lists));
  await loadLocalModels();
}

/** The picked model is an in-browser one that is not downloaded yet (or cannot run here). */
export function pickedLocalModel(): LocalModelDto | null {
  const choice = chat.choice;
  if (!choice || choice.provider_id !== LOCAL_PROVIDER) return null;
  return localModels.data?.items.find((item) => item.model === choice.model) ?? null;
}

export async function openConversation(conversationId: string | null): Promise<void> {
  stopTurn?.();
  stopTurn = null;
  chat.setActiveTurn(null);
  if (conversationId === null) {
    chat.open(null, []);
    return;
  }
  try {
    const detail = await core.chat.getConversation(conversationId);
    chat.open(conversationId, detail.messages.map(toLiveMessage));
    void refreshContextNotice(conversationId);
    chat.choose({ provider_id: detail.provider_id, model: detail.model });
    const streaming = detail.messages.find((message) => message.status === 'streaming');
    if (streaming) follow(streaming);
  } catch (error) {
    reportError(error);
  }
}

export async function sendMessage(content: string): Promise<boolean> {
  const text = content.trim();
  if (!text || chat.busy) return false;
  chat.setSending(true);
  try {
    const choice = chat.choice;
    const can = capabilitiesOf(choice, chat.models, localModels.data);
    const turn = await core.chat.send({
      content: text,
      ...(chat.conversationId && { conversation_id: chat.conversationId }),
      ...(choice && { provider_id: choice.provider_id, model: choice.model }),
      ...(chat.useNotes && { use_notes: true }),
      ...(can.thinking && { thinking: chat.thinking }),
      ...(can.thinking && can.effort && chat.thinking && { thinking_effort: chat.effort }),
    });
    await startTurn(turn);
    return true;
  } catch (error) {
    reportError(error);
    return false;
  } finally {
    chat.setSending(false);
  }
}

export async function retryLast(): Promise<void> {
  const conversationId = chat.conversationId;
  if (!conversationId || chat.busy) return;
  chat.setSending(true);
  try {
    const turn = await core.chat.retry(conversationId);
    chat.setMessages(
      chat.messages.filter((message) => message.role === 'user' || message.status === 'completed'),
    );
    await startTurn(turn);
  } catch (error) {
    reportError(error);
  } finally {
    chat.setSending(false);
  }
}

/** Stop: the worker aborts the upstream request; `Done` (cancelled) follows. */
export async function stopAnswer(): Promise<void> {
  const turnId = chat.activeTurn;
  if (!turnId) return;
  try {
    await core.chat.cancel(turnId);
  } catch (error) {
    reportError(error);
  }
}

export async function deleteConversation(conversationId: string): Promise<void> {
  try {
    await core.chat.deleteConversation(conversationId);
    if (chat.conversationId === conversationId) await openConversation(null);
    await loadChat();
  } catch (error) {
    reportError(error);
  }
}

async function startTurn(turn: ChatTurnDto): Promise<void> {
  if (chat.conversationId !== turn.conversation_id) chat.open(turn.conversation_id, []);
  chat.setMessages([
    ...chat.messages,
    ...(turn.user_message ? [toLiveMessage(turn.user_message)] : []),
    toLiveMessage(turn.assistant_message),
  ]);
  follow(turn.assistant_message);
  void loadChat();
}

function follow(message: ChatMessageDto): void {
  stopTurn?.();
  const turnId = message.message_id;
  chat.setActiveTurn(turnId);
  stopTurn = subscribeEvents(turnId, (envelope: EventEnvelope) => {
    chat.updateMessage(turnId, (current) => applyTurnEvent(current, envelope));
    if (envelope.event === 'ProviderSwitched') {
      const data = envelope.data as ChatTurnEventData['ProviderSwitched'];
      toasts.show(
        t('chat.providerSwitched', {
          from: `${data.from.provider_id} · ${data.from.model}`,
          to: `${data.to.provider_id} · ${data.to.model}`,
        }),
      );
    }
    if (envelope.event === 'Done') {
      if (chat.activeTurn === turnId) chat.setActiveTurn(null);
      void refreshMessage(message.conversation_id, turnId);
      void refreshContextNotice(message.conversation_id);
    }
  });
}

/** A turn may have summarised older messages: the thread marks where. */
async function refreshContextNotice(conversationId: string): Promise<void> {
  try {
    const notice = await core.chat.contextNotice(conversationId);
    if (chat.conversationId === conversationId) chat.setContextNotice(notice);
  } catch {
    // The notice is a hint; the conversation works without it.
  }
}

/** After Done the stored row has the final figures (latency, tokens per second). */
async function refreshMessage(conversationId: string, turnId: string): Promise<void> {
  try {
    const detail = await core.chat.getConversation(conversationId);
    const stored = detail.messages.find((message) => message.message_id === turnId);
    if (stored && chat.conversationId === conversationId) {
      chat.updateMessage(turnId, (current) => ({
        ...toLiveMessage(stored),
        thinking_started_at: current.thinking_started_at,
      }));
    }
  } catch (error) {
    reportError(error);
  }
}

/** Opens the cited note in the notes view, scrolled to the block (as a search result does). */
export function openCitation(citation: ChatCitationDto): Promise<void> {
  editor.requestReveal(citation.note_id, citation.block_id, citation.start_line);
  // Through the address, so Back returns to this conversation.
  openNoteAt(citation.note_id);
  return Promise.resolve();
}
