import type { MessageKey } from '../i18n';

export interface MessageNameText {
  key: Extract<MessageKey, `chatMessageName.${string}`>;
  params: Record<string, string>;
}

/**
 * The local time a message was sent, to the minute; a message from another day says the day
 * too, so yesterday's "10:42" does not read as this morning's.
 */
export function messageTime(iso: string, now: number, locale: string): string {
  const time = Date.parse(iso);
  if (Number.isNaN(time)) return '';
  const day = new Date(time);
  const today = new Date(now);
  const sameDay =
    day.getFullYear() === today.getFullYear() &&
    day.getMonth() === today.getMonth() &&
    day.getDate() === today.getDate();
  return new Intl.DateTimeFormat(locale, {
    ...(!sameDay && { month: 'short', day: 'numeric' }),
    ...(day.getFullYear() !== today.getFullYear() && { year: 'numeric' }),
    hour: '2-digit',
    minute: '2-digit',
  }).format(time);
}

/**
 * A message's accessible name: who wrote it and when ("You, 10:42", "Assistant (DeepSeek
 * deepseek-chat), 10:42"), so a screen reader's list of the thread's articles tells them apart
 * without reading each one. The provider is named by what Settings calls it.
 */
export function messageNameOf(
  message: {
    role: 'user' | 'assistant';
    created_at: string;
    provider_id: string | null;
    model: string | null;
  },
  providerName: (providerId: string) => string,
  now: number,
  locale: string,
): MessageNameText {
  const time = messageTime(message.created_at, now, locale);
  if (message.role === 'user') return { key: 'chatMessageName.you', params: { time } };
  const model = message.model ?? '';
  const provider = message.provider_id === null ? '' : providerName(message.provider_id);
  if (provider !== '' && model !== '') {
    return { key: 'chatMessageName.assistantProviderModel', params: { provider, model, time } };
  }
  const either = model || provider;
  if (either !== '') return { key: 'chatMessageName.assistantModel', params: { model: either, time } };
  return { key: 'chatMessageName.assistant', params: { time } };
}
