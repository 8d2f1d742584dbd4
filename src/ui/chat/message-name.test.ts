import { describe, expect, it } from 'vitest';
import { messageNameOf, messageTime } from './message-name';

const names: Record<string, string> = { deepseek: 'DeepSeek' };
const providerName = (id: string) => names[id] ?? id;
// Local times: the name says the reader's clock, whatever the zone the tests run in.
const sent = new Date(2026, 2, 14, 10, 42, 7).toISOString();
const sameDay = new Date(2026, 2, 14, 18, 0).getTime();

describe('messageTime', () => {
  it('says the hour and minute of a message sent today', () => {
    expect(messageTime(sent, sameDay, 'en-GB')).toBe('10:42');
    expect(messageTime(sent, sameDay, 'zh-CN')).toBe('10:42');
  });

  it('says the day too for an older message, and the year for last year’s', () => {
    expect(messageTime(sent, new Date(2026, 2, 15, 9, 0).getTime(), 'en-GB')).toBe('14 Mar, 10:42');
    expect(messageTime(sent, new Date(2027, 0, 2).getTime(), 'en-GB')).toBe('14 Mar 2026, 10:42');
  });

  it('says nothing for a time it cannot read', () => {
    expect(messageTime('not a time', sameDay, 'en-GB')).toBe('');
  });
});

describe('messageNameOf', () => {
  const message = { created_at: sent, provider_id: null, model: null };

  it('names a question as the reader’s', () => {
    expect(
      messageNameOf({ ...message, role: 'user', provider_id: 'deepseek' }, providerName, sameDay, 'en-GB'),
    ).toEqual({ key: 'chatMessageName.you', params: { time: '10:42' } });
  });

  it('names an answer by the provider and model that gave it', () => {
    expect(
      messageNameOf(
        { ...message, role: 'assistant', provider_id: 'deepseek', model: 'deepseek-chat' },
        providerName,
        sameDay,
        'en-GB',
      ),
    ).toEqual({
      key: 'chatMessageName.assistantProviderModel',
      params: { provider: 'DeepSeek', model: 'deepseek-chat', time: '10:42' },
    });
  });

  it('names an answer by what it knows of who gave it, or as the assistant’s', () => {
    expect(
      messageNameOf({ ...message, role: 'assistant', model: 'qwen' }, providerName, sameDay, 'en-GB'),
    ).toEqual({ key: 'chatMessageName.assistantModel', params: { model: 'qwen', time: '10:42' } });
    expect(messageNameOf({ ...message, role: 'assistant' }, providerName, sameDay, 'en-GB')).toEqual({
      key: 'chatMessageName.assistant',
      params: { time: '10:42' },
    });
  });
});
