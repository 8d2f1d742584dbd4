import { afterEach, describe, expect, it } from 'vitest';
import { AppError } from '../contracts';
import { DexieMemoryStore } from '../db/agent-stores';
import type { NotesAgentDatabase } from '../db';
import { SettingsRepository } from '../db/settings-repository';
import { freshDatabase } from '../db/test-database';
import { MEMORY_FACTS_SCHEMA } from '../agent';
import { MetonaProviderError } from '../ir';
import { capabilityMismatchError } from '../providers/shared/errors';
import { MemoryService } from './memory-service';
import { errorCode } from './test-error-code';

const NOW = 1_800_000_000_000;
const DAY = 24 * 60 * 60 * 1000;
let db: NotesAgentDatabase | undefined;

function setup(options: { conversations?: string[]; failingPut?: boolean } = {}) {
  db = freshDatabase();
  const store = new DexieMemoryStore(db);
  if (options.failingPut) store.put = () => Promise.reject(new Error('disk full'));
  const known = new Set(options.conversations ?? ['conv_a', 'conv_b']);
  let now = NOW;
  const service = new MemoryService({
    store,
    switches: new SettingsRepository(db),
    conversationExists: async (id) => known.has(id),
    clock: () => now,
  });
  return { service, store, advance: (ms: number) => (now += ms) };
}

afterEach(async () => {
  await db?.delete();
  db = undefined;
});

describe('MemoryService: facts from chat', () => {
  it('stores an explicit fact once and recalls it into another conversation', async () => {
    const { service } = setup();
    const [fact] = await service.observe('conv_a', 'Remember that my advisor is Prof. Li.');
    expect(fact).toMatchObject({
      type: 'semantic',
      content: 'my advisor is Prof. Li',
      source: 'user_input',
      sessionId: 'conv_a',
      createdAt: NOW,
    });
    expect(await service.observe('conv_b', 'remember that My advisor is Prof. Li')).toEqual([]);
    expect(await service.list()).toHaveLength(1);
    const section = await service.section('conv_b', 'Who is my advisor?', 500);
    expect(section).toContain('- [semantic] my advisor is Prof. Li');
  });

  it('neither records nor recalls in a conversation whose switch is off', async () => {
    const { service } = setup();
    await service.observe('conv_a', 'Remember that my advisor is Prof. Li.');
    expect(await service.setConversationMemory({ conversation_id: 'conv_b', enabled: false })).toEqual({
      conversation_id: 'conv_b',
      enabled: false,
    });
    expect(await service.section('conv_b', 'Who is my advisor?', 500)).toBeUndefined();
    expect(await service.observe('conv_b', 'Remember that I like tea.')).toEqual([]);
    expect((await service.conversationMemory('conv_b')).enabled).toBe(false);
    await service.setConversationMemory({ conversation_id: 'conv_b', enabled: true });
    expect(await service.section('conv_b', 'Who is my advisor?', 500)).toContain('Prof. Li');
  });

  it('deleting a memory removes it from recall', async () => {
    const { service } = setup();
    const [fact] = await service.observe('conv_a', 'Remember that my advisor is Prof. Li.');
    await service.delete(fact!.id);
    expect(await service.list()).toEqual([]);
    expect(await service.section('conv_b', 'Who is my advisor?', 500)).toBeUndefined();
  });

  it('an expired memory is not recalled', async () => {
    const { service, advance } = setup();
    await service.remember({ content: 'I am in Berlin this week', expires_in_days: 7 });
    expect(await service.section('conv_a', 'Where am I, Berlin?', 500)).toContain('Berlin');
    advance(8 * DAY);
    expect(await service.section('conv_a', 'Where am I, Berlin?', 500)).toBeUndefined();
  });
});

describe('MemoryService: the model path', () => {
  it('asks for the facts in a JSON schema and stores them, with importance and expiry', async () => {
    const { service } = setup();
    const formats: unknown[] = [];
    const stored = await service.extractWithModel(
      'conv_a',
      'My advisor is Prof. Li, I am in Berlin',
      async (prompt, format) => {
        formats.push(format);
        expect(prompt).toContain('My advisor is Prof. Li');
        return {
          content: 'ignored: the provider parsed the answer',
          structuredOutput: {
            facts: [
              { content: "The user's advisor is Prof. Li", importance: 0.8, expires_in_days: null },
              { content: 'The user is in Berlin', importance: 0.3, expires_in_days: 2 },
            ],
          },
        };
      },
    );
    expect(formats).toEqual([
      { type: 'json_schema', name: 'memory_facts', schema: MEMORY_FACTS_SCHEMA, strict: true },
    ]);
    expect(stored.map((item) => [item.content, item.importance, item.expiresAt])).toEqual([
      ["The user's advisor is Prof. Li", 0.8, undefined],
      ['The user is in Berlin', 0.3, NOW + 2 * DAY],
    ]);
  });

  it('a provider that refuses the format is asked again in plain text, read tolerantly', async () => {
    const { service } = setup();
    const formats: unknown[] = [];
    const stored = await service.extractWithModel('conv_a', 'I am vegetarian', async (_prompt, format) => {
      formats.push(format?.type ?? 'text');
      if (format) {
        throw new MetonaProviderError(capabilityMismatchError('deepseek', 'No json_schema here.'));
      }
      return { content: 'Here you go: {"facts":[{"content":"The user is vegetarian","importance":0.6}]}' };
    });
    expect(formats).toEqual(['json_schema', 'text']);
    expect(stored.map((item) => item.content)).toEqual(['The user is vegetarian']);
  });

  it('a Stop while the format is refused does not ask again', async () => {
    const { service } = setup();
    const controller = new AbortController();
    let calls = 0;
    const call = async () => {
      calls += 1;
      controller.abort();
      throw new MetonaProviderError(capabilityMismatchError('deepseek', 'No json_schema here.'));
    };
    expect(await errorCode(service.extractWithModel('conv_a', 'text', call, controller.signal))).toBe(
      'JOB_CANCELLED',
    );
    expect(calls).toBe(1);
    expect(await service.list()).toEqual([]);
  });

  it('a failing model stores nothing and says so; a failure is not taken for a refusal', async () => {
    const { service } = setup();
    let calls = 0;
    const call = async () => {
      calls += 1;
      throw new Error('HTTP 500');
    };
    expect(await errorCode(service.extractWithModel('conv_a', 'text', call))).toBe('PROVIDER_UNAVAILABLE');
    expect(calls).toBe(1);
    expect(await service.list()).toEqual([]);
  });

  it('a stopped extraction stores nothing', async () => {
    const { service } = setup();
    const controller = new AbortController();
    const call = async () => {
      controller.abort();
      return { content: '{"facts":["The user likes tea"]}' };
    };
    expect(await errorCode(service.extractWithModel('conv_a', 'text', call, controller.signal))).toBe(
      'JOB_CANCELLED',
    );
    expect(await service.list()).toEqual([]);
  });
});

describe('MemoryService: errors', () => {
  it('refuses invalid input with VALIDATION_FAILED', async () => {
    const { service } = setup();
    expect(await errorCode(service.remember({ content: '   ' }))).toBe('VALIDATION_FAILED');
    expect(await errorCode(service.remember({ content: 'x'.repeat(501) }))).toBe('VALIDATION_FAILED');
    expect(await errorCode(service.remember({ content: 'ok fact', importance: 2 }))).toBe(
      'VALIDATION_FAILED',
    );
    expect(await errorCode(service.delete(''))).toBe('VALIDATION_FAILED');
    expect(
      await errorCode(service.setConversationMemory({ conversation_id: 'conv_a', enabled: 'no' as never })),
    ).toBe('VALIDATION_FAILED');
    expect(await errorCode(service.recordEpisode({ session_id: 'conv_a', content: '' }))).toBe(
      'VALIDATION_FAILED',
    );
    expect(await service.list()).toEqual([]);
  });

  it('answers RESOURCE_NOT_FOUND for an unknown memory or conversation', async () => {
    const { service } = setup();
    expect(await errorCode(service.delete('mem_missing'))).toBe('RESOURCE_NOT_FOUND');
    expect(await errorCode(service.conversationMemory('conv_missing'))).toBe('RESOURCE_NOT_FOUND');
    expect(
      await errorCode(service.setConversationMemory({ conversation_id: 'conv_missing', enabled: false })),
    ).toBe('RESOURCE_NOT_FOUND');
  });

  it('answers STATE_CONFLICT when the fact is already remembered', async () => {
    const { service } = setup();
    const first = await service.remember({ content: 'My advisor is Prof. Li' });
    const error = await service.remember({ content: 'my advisor is prof li!' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).code).toBe('STATE_CONFLICT');
    expect((error as AppError).details).toEqual({ id: first.id });
    expect(await service.list()).toHaveLength(1);
  });

  it('a storage failure surfaces and leaves nothing behind', async () => {
    const { service } = setup({ failingPut: true });
    await expect(service.observe('conv_a', 'Remember that I like tea.')).rejects.toThrow('disk full');
    expect(await service.list()).toEqual([]);
  });
});

describe('MemoryService: episodes', () => {
  it('keeps a finished run or chat summary as an episodic memory recalled later', async () => {
    const { service } = setup();
    const episode = await service.recordEpisode({
      session_id: 'run_1',
      content: 'Wrote a task list for the thesis chapter on deadlock detection.',
    });
    expect(episode).toMatchObject({ type: 'episodic', source: 'agent_thought', sessionId: 'run_1' });
    expect(await service.section('conv_a', 'thesis deadlock', 500)).toContain('[episodic]');
  });
});

describe('MemoryService: digests of finished chats', () => {
  const transcript = 'User: My advisor is Prof. Li. Plan my thesis week.\nAssistant: Here is a plan.';
  const digestReply = {
    summary: 'Planned a thesis week with the user.',
    facts: [{ content: "The user's advisor is Prof. Li", importance: 0.8, expires_in_days: null }],
  };

  it('stores the summary as an episode and the facts as semantic memories, from one call', async () => {
    const { service } = setup();
    const prompts: string[] = [];
    const result = await service.digestConversation(
      { conversation_id: 'conv_a', through_position: 3, transcript },
      async (prompt, format) => {
        prompts.push(prompt);
        expect(format).toMatchObject({ type: 'json_schema', name: 'conversation_digest', strict: true });
        return { content: JSON.stringify(digestReply), structuredOutput: digestReply };
      },
    );
    expect(prompts).toHaveLength(1);
    expect(prompts[0]).toContain('Plan my thesis week');
    expect(result.episode).toMatchObject({
      type: 'episodic',
      content: 'Planned a thesis week with the user.',
      source: 'agent_thought',
      sessionId: 'conv_a',
    });
    expect(result.facts.map((item) => [item.type, item.content, item.source])).toEqual([
      ['semantic', "The user's advisor is Prof. Li", 'user_input'],
    ]);
    expect(await service.list()).toHaveLength(2);
    expect(await service.digestedThrough('conv_a')).toBe(3);
    // Recalled into another conversation.
    expect(await service.section('conv_b', 'thesis week advisor', 500)).toContain('Planned a thesis week');
  });

  it('asks nothing for messages already digested or a conversation with memory off', async () => {
    const { service } = setup();
    let calls = 0;
    const call = async () => {
      calls += 1;
      return { content: JSON.stringify(digestReply) };
    };
    await service.digestConversation({ conversation_id: 'conv_a', through_position: 3, transcript }, call);
    expect(await service.needsDigest('conv_a', 3)).toBe(false);
    expect(await service.needsDigest('conv_a', 5)).toBe(true);
    await service.digestConversation({ conversation_id: 'conv_a', through_position: 3, transcript }, call);
    await service.setConversationMemory({ conversation_id: 'conv_b', enabled: false });
    expect(await service.needsDigest('conv_b', 3)).toBe(false);
    await service.digestConversation({ conversation_id: 'conv_b', through_position: 3, transcript }, call);
    expect(calls).toBe(1);
    // The text reply is read tolerantly when there is no structured output.
    expect((await service.list()).map((item) => item.type).sort()).toEqual(['episodic', 'semantic']);
  });

  it('a reply without a digest stores nothing but counts the messages as done', async () => {
    const { service } = setup();
    const result = await service.digestConversation(
      { conversation_id: 'conv_a', through_position: 1, transcript },
      async () => ({ content: 'Sure! The chat was about a thesis.' }),
    );
    expect(result).toEqual({ facts: [] });
    expect(await service.list()).toEqual([]);
    expect(await service.digestedThrough('conv_a')).toBe(1);
  });

  it('refuses bad input, an unknown conversation; a failed or stopped call stores nothing', async () => {
    const { service } = setup();
    const never = async () => {
      throw new Error('not to be called');
    };
    expect(
      await errorCode(
        service.digestConversation({ conversation_id: 'conv_a', through_position: -1, transcript }, never),
      ),
    ).toBe('VALIDATION_FAILED');
    expect(
      await errorCode(
        service.digestConversation(
          { conversation_id: 'conv_a', through_position: 1, transcript: ' ' },
          never,
        ),
      ),
    ).toBe('VALIDATION_FAILED');
    expect(
      await errorCode(
        service.digestConversation({ conversation_id: 'conv_zz', through_position: 1, transcript }, never),
      ),
    ).toBe('RESOURCE_NOT_FOUND');
    expect(
      await errorCode(
        service.digestConversation({ conversation_id: 'conv_a', through_position: 1, transcript }, never),
      ),
    ).toBe('PROVIDER_UNAVAILABLE');
    const controller = new AbortController();
    const stopped = async () => {
      controller.abort();
      return { content: JSON.stringify(digestReply) };
    };
    expect(
      await errorCode(
        service.digestConversation(
          { conversation_id: 'conv_a', through_position: 1, transcript },
          stopped,
          controller.signal,
        ),
      ),
    ).toBe('JOB_CANCELLED');
    expect(await service.list()).toEqual([]);
    expect(await service.digestedThrough('conv_a')).toBe(-1);
  });

  it('a write failing half way removes what the digest had stored', async () => {
    const { service, store } = setup();
    const put = store.put.bind(store);
    let puts = 0;
    store.put = async (item) => {
      puts += 1;
      if (puts === 2) throw new Error('disk full');
      return put(item);
    };
    const call = async () => ({ content: '', structuredOutput: digestReply });
    expect(
      await errorCode(
        service.digestConversation({ conversation_id: 'conv_a', through_position: 1, transcript }, call),
      ),
    ).toBe('other');
    expect(await service.list()).toEqual([]);
    expect(await service.digestedThrough('conv_a')).toBe(-1);
  });
});
