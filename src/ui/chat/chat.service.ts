import type {
  ChatCitationDto,
  ChatMessageDto,
  ChatTurnDto,
  ChatTurnEventData,
  ConversationDto,
} from '../../contracts/chat';
import type { EventEnvelope } from '../../contracts/events';
import { core, subscribeEvents } from '../api/core-client';
import { editor } from '../editor/editor.svelte';
import { confirmation } from '../dialogs/confirm.svelte';
import { errorCodeOf } from '../error-message';
import { reportError } from '../errors';
import { refreshAll } from '../notes/notes.service';
import { t } from '../i18n';
import { openNote as openNoteAt } from '../navigation';
import { toasts } from '../toasts/toasts.svelte';
import { CONVERSATION_PAGE, chat, type PendingImage } from './chat.svelte';
import { applyTurnEvent, toLiveMessage } from './turn-events';
import { brokeOffWhileOffline } from './offline-failure';
import type { LocalModelDto } from '../../contracts/local-models';
import { loadLocalModels } from '../local-models/local-models.service';
import { localModels } from '../local-models/local-models.svelte';
import { LOCAL_PROVIDER, capabilitiesOf } from './model-options';
import { refreshMemories } from '../memory/memory.service';
import { memories } from '../memory/memory.svelte';

let stopTurn: (() => void) | null = null;
// Search answers can arrive out of order while the user types: only the latest is shown.
let listRequest = 0;

/** Loads providers and conversations (those matching the search); keeps the picked model if it still exists. */
export async function loadChat(): Promise<void> {
  const request = ++listRequest;
  try {
    const [providers, conversations] = await Promise.all([core.providers.list(), listConversations()]);
    if (request !== listRequest) return;
    const enabled = providers.items.filter((provider) => provider.enabled);
    chat.setProviders(enabled);
    chat.setConversations(conversations.items);
    chat.setConversationTotal(conversations.total);
    const current = chat.choice;
    const exists =
      current !== null &&
      (current.provider_id === LOCAL_PROVIDER ||
        enabled.some((provider) => provider.provider_id === current.provider_id));
    if (!exists) {
      const first = enabled[0];
      chat.choose(first ? { provider_id: first.provider_id, model: first.default_model } : null);
    }
    chat.setChoiceKnown(true);
  } catch (error) {
    reportError(error);
    // Unread lists leave the in-browser models (and a conversation's own model): the picker
    // offers those rather than saying "Loading models…" for good.
    if (request === listRequest) chat.setChoiceKnown(true);
  }
}

/**
 * The first `chat.listWanted` conversations matching the search, a page at a time (the contract
 * caps a page at 200), so a reload after a rename keeps all that "Show more" had listed.
 */
async function listConversations(): Promise<{ items: ConversationDto[]; total: number }> {
  const query = chat.query.trim();
  const items: ConversationDto[] = [];
  for (;;) {
    const page = await core.chat.listConversations({
      limit: Math.min(CONVERSATION_PAGE, chat.listWanted - items.length),
      offset: items.length,
      ...(query && { query }),
    });
    items.push(...page.items);
    const total = page.page.total;
    if (page.items.length === 0 || items.length >= Math.min(chat.listWanted, total)) return { items, total };
  }
}

/** Lists another page of conversations. */
export async function showMoreConversations(): Promise<void> {
  chat.setListWanted(chat.conversations.length + CONVERSATION_PAGE);
  await loadChat();
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
  chat.setRefusal(null);
  if (conversationId === null) {
    chat.open(null, []);
    chat.setCurrent(null);
    chat.restoreUseNotes(null);
    return;
  }
  try {
    const { messages, ...conversation } = await core.chat.getConversation(conversationId);
    const detail = { ...conversation, messages };
    chat.setCurrent(conversation);
    chat.open(conversationId, messages.map(toLiveMessage));
    chat.restoreUseNotes(
      conversationId,
      messages.some((message) => (message.citations?.length ?? 0) > 0),
    );
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
  const images = chat.pendingImages;
  chat.setRefusal(null);
  // A model known to be text-only is refused here, before anything is sent.
  if (images.length > 0 && visionOf(chat.choice) === false) {
    chat.setRefusal(visionRefusal());
    return false;
  }
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
      ...(images.length > 0 && { image_ids: images.map((image) => image.attachment_id) }),
    });
    clearPendingImages();
    chat.keepUseNotes(turn.conversation_id);
    await startTurn(turn);
    return true;
  } catch (error) {
    if (errorCodeOf(error) === 'MODEL_CAPABILITY_MISMATCH') chat.setRefusal(visionRefusal());
    else reportError(error);
    return false;
  } finally {
    chat.setSending(false);
  }
}

/** Whether the model reads images: true or false where its provider's list says, null where unknown. */
function visionOf(choice: { provider_id: string; model: string } | null): boolean | null {
  if (!choice) return null;
  if (choice.provider_id === LOCAL_PROVIDER) return false;
  const info = chat.models[choice.provider_id]?.find((entry) => entry.model === choice.model);
  return info ? info.capabilities.includes('vision') : null;
}

/** The refusal for a text-only model, naming the configured models that read images. */
function visionRefusal(): string {
  const model = chat.choice?.model ?? '';
  const names = chat.providers.flatMap((provider) =>
    (chat.models[provider.provider_id] ?? [])
      .filter((info) => info.capabilities.includes('vision'))
      .map((info) => `${provider.display_name} · ${info.model}`),
  );
  return names.length > 0
    ? t('chat.imagesNeedVision', { model, models: names.join(', ') })
    : t('chat.imagesNeedVisionNone', { model });
}

/** Stores pasted, dropped or picked images for the next message; other files are refused by the worker. */
export async function attachImages(files: readonly File[]): Promise<void> {
  for (const file of files) {
    try {
      const stored = await core.chat.attachImage({
        name: file.name || 'image',
        mime_type: file.type,
        data: file,
      });
      if (chat.pendingImages.some((image) => image.attachment_id === stored.attachment_id)) continue;
      chat.setPendingImages([
        ...chat.pendingImages,
        { attachment_id: stored.attachment_id, name: stored.name, url: URL.createObjectURL(file) },
      ]);
    } catch (error) {
      reportError(error);
    }
  }
  chat.setRefusal(null);
}

export function removePendingImage(image: PendingImage): void {
  URL.revokeObjectURL(image.url);
  chat.setPendingImages(chat.pendingImages.filter((item) => item !== image));
  if (chat.pendingImages.length === 0) chat.setRefusal(null);
}

function clearPendingImages(): void {
  for (const image of chat.pendingImages) URL.revokeObjectURL(image.url);
  chat.setPendingImages([]);
}

/** Runs the search over titles and messages. */
export async function searchConversations(query: string): Promise<void> {
  chat.setQuery(query);
  chat.setListWanted(CONVERSATION_PAGE);
  await loadChat();
}

export async function renameConversation(conversationId: string, title: string): Promise<boolean> {
  try {
    const updated = await core.chat.updateConversation(conversationId, { title });
    if (chat.conversationId === conversationId) chat.setCurrent(updated);
    toasts.show(t('chat.renamed'));
    await loadChat();
    return true;
  } catch (error) {
    reportError(error);
    return false;
  }
}

export async function saveSystemPrompt(systemPrompt: string): Promise<boolean> {
  const conversationId = chat.conversationId;
  if (!conversationId) return false;
  try {
    chat.setCurrent(await core.chat.updateConversation(conversationId, { system_prompt: systemPrompt }));
    toasts.show(t('chat.systemPromptSaved'));
    return true;
  } catch (error) {
    reportError(error);
    return false;
  }
}

export async function copyText(text: string): Promise<void> {
  try {
    await navigator.clipboard.writeText(text);
    toasts.show(t('chat.copied'));
  } catch {
    toasts.show(t('chat.copyFailed'), { kind: 'error' });
  }
}

/**
 * Edit-and-resend: asks first when later messages would be dropped, then
 * answers the edited question in place of everything after it.
 */
export async function editAndResend(messageId: string, content: string): Promise<boolean> {
  const conversationId = chat.conversationId;
  const text = content.trim();
  const edited = chat.messages.find((message) => message.message_id === messageId);
  if (!conversationId || !edited || !text || chat.busy) return false;
  const later = chat.messages.filter((message) => message.position > edited.position + 1).length;
  if (later > 0) {
    const confirmed = await confirmation.ask({
      title: t('chat.resend'),
      message: t('chat.resendConfirm', { count: later }),
      confirmLabel: t('chat.resendConfirmAction'),
      danger: true,
    });
    if (!confirmed) return false;
  }
  chat.setSending(true);
  try {
    const turn = await core.chat.resend({
      conversation_id: conversationId,
      message_id: messageId,
      content: text,
    });
    chat.setMessages(chat.messages.filter((message) => message.position < edited.position));
    await startTurn(turn);
    return true;
  } catch (error) {
    reportError(error);
    return false;
  } finally {
    chat.setSending(false);
  }
}

/** A new answer to the last question, in place of the last answer. */
export async function regenerateLast(): Promise<void> {
  const conversationId = chat.conversationId;
  if (!conversationId || chat.busy) return;
  chat.setSending(true);
  try {
    const turn = await core.chat.regenerate(conversationId);
    const last = chat.messages.at(-1);
    chat.setMessages(last?.role === 'assistant' ? chat.messages.slice(0, -1) : [...chat.messages]);
    await startTurn(turn);
  } catch (error) {
    reportError(error);
  } finally {
    chat.setSending(false);
  }
}

export async function saveAnswerAsNote(turnId: string): Promise<void> {
  try {
    const note = await core.chat.saveAnswerAsNote(turnId);
    toasts.show(t('chat.savedAsNote', { title: note.title }), {
      kind: 'success',
      action: {
        label: t('chat.openNote'),
        // Through the address, so Back returns to the conversation; the focus goes with the
        // user to the note (the toast and its button close).
        run: () => {
          editor.requestTitleFocus();
          openNoteAt(note.note_id);
        },
      },
    });
    void refreshAll();
  } catch (error) {
    reportError(error);
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

/** Moves the conversation to the trash, with Undo on the toast (as notes have). */
export async function deleteConversation(conversationId: string): Promise<void> {
  try {
    await core.chat.deleteConversation(conversationId);
    const wasOpen = chat.conversationId === conversationId;
    if (wasOpen) await openConversation(null);
    toasts.show(t('chat.deleted'), {
      timeoutMs: 6000,
      action: { label: t('editor.undo'), run: () => void restoreConversation(conversationId, wasOpen) },
    });
    await loadChat();
  } catch (error) {
    reportError(error);
  }
}

async function restoreConversation(conversationId: string, reopen: boolean): Promise<void> {
  try {
    await core.chat.restoreConversation(conversationId);
    toasts.show(t('chat.restored'));
    await loadChat();
    if (reopen) await openConversation(conversationId);
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
    chat.updateMessage(turnId, (current) => {
      const next = applyTurnEvent(current, envelope);
      return envelope.event === 'Error' && next.error && brokeOffOffline(next.error.code, next.provider_id)
        ? { ...next, failed_offline: true }
        : next;
    });
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
      if (message.position === 1) void refreshMemoriesAfterDigest();
    }
  });
}

/** Whether a failure arriving now is the stream breaking because this device went offline. */
function brokeOffOffline(code: string, providerId: string | null): boolean {
  const provider = chat.providers.find((item) => item.provider_id === providerId);
  return brokeOffWhileOffline(code, provider?.base_url ?? null, navigator.onLine);
}

/**
 * A new conversation's first answer has the earlier chats digested into memory after it, in the
 * background: a memory list already shown is read again once that is done.
 */
async function refreshMemoriesAfterDigest(): Promise<void> {
  if (!memories.loaded) return;
  try {
    await core.chat.idle();
  } catch {
    // The list is read again when it is next opened.
    return;
  }
  await refreshMemories();
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
        failed_offline: current.failed_offline,
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
