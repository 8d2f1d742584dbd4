import { describe, expect, it } from 'vitest';
import { MemoryItemStore } from './memory';
import {
  CONVERSATION_DIGEST_SCHEMA,
  MEMORY_FACTS_SCHEMA,
  MAX_EPISODE_CHARS,
  MEMORY_HEADING,
  conversationDigestPrompt,
  expiryOf,
  extractExplicitFacts,
  findDuplicateMemory,
  formatMemorySection,
  memoryDedupeKey,
  packWithinBudget,
  parseConversationDigest,
  parseExtractedFacts,
  recallWithinBudget,
} from './memory-extract';
import { estimateTextTokens } from './token-estimate';
import { DAY, NOW, memoryItem as item } from './__fixtures__/memory-items';

describe('extractExplicitFacts', () => {
  it('keeps what follows "remember that", up to the end of the sentence', () => {
    expect(extractExplicitFacts('Remember that my advisor is Prof. Li. What should I read?')).toEqual([
      { content: 'my advisor is Prof. Li', importance: 0.9 },
    ]);
    expect(extractExplicitFacts('please remember: I take the bus on Mondays')).toEqual([
      { content: 'I take the bus on Mondays', importance: 0.9 },
    ]);
  });

  it('reads 记住 in Chinese', () => {
    expect(extractExplicitFacts('请记住：我的导师是李教授。今天讲什么？')).toEqual([
      { content: '我的导师是李教授', importance: 0.9 },
    ]);
  });

  it('finds nothing in an ordinary message, and one fact when it is repeated', () => {
    expect(extractExplicitFacts('What is a deadlock?')).toEqual([]);
    expect(extractExplicitFacts('I remembered it')).toEqual([]);
    expect(extractExplicitFacts('Remember that X is 5.\nremember that x is 5')).toHaveLength(1);
  });
});

describe('parseExtractedFacts', () => {
  it('reads the object form with importance and expiry', () => {
    expect(
      parseExtractedFacts(
        '{"facts":[{"content":"The user\'s advisor is Prof. Li","importance":0.8,"expires_in_days":30}]}',
      ),
    ).toEqual([{ content: "The user's advisor is Prof. Li", importance: 0.8, expiresInDays: 30 }]);
  });

  it('tolerates prose, fences, trailing commas, bare arrays and strings', () => {
    expect(parseExtractedFacts('Sure!\n```json\n{"facts":[{"content":"Likes tea",},]}\n```')).toEqual([
      { content: 'Likes tea', importance: 0.5 },
    ]);
    expect(parseExtractedFacts('["Lives in Hangzhou", 42, {"content": 7}]')).toEqual([
      { content: 'Lives in Hangzhou', importance: 0.5 },
    ]);
    expect(parseExtractedFacts('{"facts":[{"content":"Is a PhD student","importance":7}]}')).toEqual([
      { content: 'Is a PhD student', importance: 1 },
    ]);
  });

  it('returns no facts for unreadable replies', () => {
    expect(parseExtractedFacts('I could not find any facts.')).toEqual([]);
    expect(parseExtractedFacts('{"facts": [')).toEqual([]);
    expect(parseExtractedFacts('{"facts":[]}')).toEqual([]);
  });
});

describe('dedupe and expiry', () => {
  it('treats case, spacing and punctuation as the same memory, but not an expired one', () => {
    expect(memoryDedupeKey('My advisor is  Prof. Li!')).toBe(memoryDedupeKey('my advisor is prof li'));
    const live = item('a', 'My advisor is Prof. Li');
    const expired = item('b', 'I am in Berlin', { expiresAt: NOW - 1 });
    expect(findDuplicateMemory([live, expired], 'my advisor is prof. li.', NOW)?.id).toBe('a');
    expect(findDuplicateMemory([live, expired], 'I am in Berlin', NOW)).toBeUndefined();
  });

  it('turns days into an expiry time', () => {
    expect(expiryOf(NOW, 2)).toBe(NOW + 2 * DAY);
    expect(expiryOf(NOW, undefined)).toBeUndefined();
  });
});

describe('recall within a token budget', () => {
  it('packs best-first, skipping an item that does not fit for a later one that does', () => {
    const long = item('long', 'advisor '.repeat(80).trim());
    const short = item('short', 'advisor Li');
    const heading = estimateTextTokens(MEMORY_HEADING);
    expect(packWithinBudget([long, short], heading + 12).map((m) => m.id)).toEqual(['short']);
    expect(packWithinBudget([long, short], heading)).toEqual([]);
    expect(packWithinBudget([long, short], 10_000).map((m) => m.id)).toEqual(['long', 'short']);
  });

  it('recalls relevant live memories only, and nothing with no budget', async () => {
    const store = new MemoryItemStore();
    await store.put(item('advisor', 'My advisor is Prof. Li', { importance: 0.9 }));
    await store.put(item('old', 'My advisor was Prof. Wang', { expiresAt: NOW - 1 }));
    await store.put(item('tea', 'I like green tea'));
    const recalled = await recallWithinBudget(store, 'Who is my advisor?', { now: NOW, budgetTokens: 200 });
    expect(recalled.map((m) => m.id)).toEqual(['advisor']);
    expect(await recallWithinBudget(store, 'Who is my advisor?', { now: NOW, budgetTokens: 0 })).toEqual([]);
  });

  it('formats the section, or nothing without memories', () => {
    expect(formatMemorySection([item('a', 'My advisor is Prof. Li')])).toBe(
      `${MEMORY_HEADING}\n- [semantic] My advisor is Prof. Li`,
    );
    expect(formatMemorySection([])).toBeUndefined();
  });
});

describe('conversation digests', () => {
  it('asks for summary and facts in one reply, with the transcript', () => {
    const prompt = conversationDigestPrompt('User: hi\nAssistant: hello');
    expect(prompt).toContain('"summary"');
    expect(prompt).toContain('"facts"');
    expect(prompt.endsWith('User: hi\nAssistant: hello')).toBe(true);
    expect(CONVERSATION_DIGEST_SCHEMA).toMatchObject({
      required: ['summary', 'facts'],
      additionalProperties: false,
    });
  });

  it('writes both schemas in the subset strict OpenAI and Anthropic share', () => {
    // Every object closed with all its properties required; no type lists (nullables as anyOf).
    const violations: string[] = [];
    const walk = (node: unknown, path: string): void => {
      if (Array.isArray(node)) return node.forEach((item, i) => walk(item, `${path}[${i}]`));
      if (typeof node !== 'object' || node === null) return;
      const schema = node as Record<string, unknown>;
      if (Array.isArray(schema.type)) violations.push(`${path}: type list`);
      if (schema.type === 'object') {
        if (schema.additionalProperties !== false) violations.push(`${path}: open object`);
        const keys = Object.keys((schema.properties as object) ?? {}).sort();
        if (JSON.stringify([...((schema.required as string[]) ?? [])].sort()) !== JSON.stringify(keys)) {
          violations.push(`${path}: not every property required`);
        }
      }
      for (const [key, value] of Object.entries(schema)) walk(value, `${path}.${key}`);
    };
    walk(CONVERSATION_DIGEST_SCHEMA, 'digest');
    walk(MEMORY_FACTS_SCHEMA, 'facts');
    expect(violations).toEqual([]);
  });

  it('reads the provider’s parsed JSON first, else the text, tolerantly', () => {
    const structured = { summary: '  Planned   a trip. ', facts: [{ content: 'The user lives in Berlin' }] };
    expect(parseConversationDigest(structured, 'ignored')).toEqual({
      summary: 'Planned a trip.',
      facts: [{ content: 'The user lives in Berlin', importance: 0.5 }],
    });
    const fenced = '```json\n{"summary":"Talked about tea.","facts":["The user likes green tea",],}\n```';
    expect(parseConversationDigest(undefined, fenced)).toEqual({
      summary: 'Talked about tea.',
      facts: [{ content: 'The user likes green tea', importance: 0.5 }],
    });
  });

  it('gives no summary and no facts for prose, arrays or a missing summary', () => {
    expect(parseConversationDigest(undefined, 'The chat was about tea.')).toEqual({ summary: '', facts: [] });
    expect(parseConversationDigest(['a'], '')).toEqual({ summary: '', facts: [] });
    expect(parseConversationDigest({ facts: 'none' }, '')).toEqual({ summary: '', facts: [] });
    expect(parseConversationDigest({ summary: 'x'.repeat(5000), facts: [] }, '').summary).toHaveLength(
      MAX_EPISODE_CHARS,
    );
  });
});
