import type { MetonaMemoryItem } from '../ir';
import { recallMemories, type MemoryStore, type RecallOptions } from './memory';
import { estimateTextTokens } from './token-estimate';

/** A fact to keep, before it is stored as a semantic memory. */
export interface ExtractedFact {
  content: string;
  /** 0–1. */
  importance: number;
  /** How long the fact holds; undefined = until the user deletes it. */
  expiresInDays?: number;
}

/** The longest fact kept: a memory is a sentence, not a note. */
export const MAX_FACT_CHARS = 500;
/** What an explicit "remember that …" is worth: the user asked for it. */
const EXPLICIT_IMPORTANCE = 0.9;

// "remember that X", "please remember: X", "记住：X", "请记住X"; the request ends at the sentence.
const EXPLICIT_PATTERNS = [
  /(?:^|[.!?\n]\s*)(?:please\s+)?remember(?:\s+that)?\s*[:,]?\s+([^\n]+)/giu,
  /(?:请)?记住(?:一下)?[：:，,]?\s*([^\n。！？]+)/gu,
];

// Titles whose dot does not end the sentence ("Prof. Li").
const ABBREVIATIONS = /(?:^|\s)(?:prof|dr|mr|mrs|ms|st|mt|jr|sr|vs|etc|e\.g|i\.e|no)$/i;

/** The first sentence of `text`, with its closing punctuation dropped. */
function firstSentence(text: string): string {
  for (const end of text.matchAll(/[.!?]+(?=\s|$)/g)) {
    const before = text.slice(0, end.index);
    if (end[0] === '.' && ABBREVIATIONS.test(before)) continue;
    return before;
  }
  return text;
}

function cleanFact(text: string): string {
  return text
    .replace(/\s+/g, ' ')
    .replace(/^["'“‘「]+|["'”’」]+$/gu, '')
    .trim()
    .slice(0, MAX_FACT_CHARS);
}

/**
 * The facts a message asks to be remembered in so many words. Deterministic,
 * so memory works offline and with the scripted demo model; anything subtler
 * is left to the model path (`memoryExtractionPrompt`).
 */
export function extractExplicitFacts(text: string): ExtractedFact[] {
  const facts: ExtractedFact[] = [];
  const seen = new Set<string>();
  for (const pattern of EXPLICIT_PATTERNS) {
    for (const match of text.matchAll(pattern)) {
      const content = cleanFact(firstSentence(match[1] ?? ''));
      const key = memoryDedupeKey(content);
      if (content.length < 3 || seen.has(key)) continue;
      seen.add(key);
      facts.push({ content, importance: EXPLICIT_IMPORTANCE });
    }
  }
  return facts;
}

/** The instruction for the model path; the reply is read by `parseExtractedFacts`. */
export function memoryExtractionPrompt(userText: string): string {
  return [
    'Extract durable facts about the user from the message below: facts they state or confirm',
    'about themselves, their work, people and preferences (for example "my advisor is Prof. Li").',
    'Ignore questions, requests and anything temporary. Reply with JSON only:',
    '{"facts":[{"content":"<one sentence, third person>","importance":0.0-1.0,"expires_in_days":null}]}',
    'Reply {"facts":[]} when there is nothing to keep.',
    '',
    'Message:',
    userText,
  ].join('\n');
}

/** What one digest call returns: the chat's summary (an episode) and the facts worth keeping. */
export interface ConversationDigest {
  summary: string;
  facts: ExtractedFact[];
}

/** The longest episode summary kept. */
export const MAX_EPISODE_CHARS = 4 * MAX_FACT_CHARS;

/**
 * The answer's shape, sent as the request's response format where the model
 * supports one. Written to the strictest dialect (every property required,
 * no extras) so that OpenAI's strict mode and Anthropic accept it as is.
 */
const FACTS_PROPERTY = {
  type: 'array',
  items: {
    type: 'object',
    properties: {
      content: { type: 'string' },
      importance: { type: 'number' },
      // Nullable as anyOf: Anthropic's grammar compiler refuses type lists, OpenAI takes both.
      expires_in_days: { anyOf: [{ type: 'number' }, { type: 'null' }] },
    },
    required: ['content', 'importance', 'expires_in_days'],
    additionalProperties: false,
  },
};

export const CONVERSATION_DIGEST_SCHEMA: Record<string, unknown> = {
  type: 'object',
  properties: { summary: { type: 'string' }, facts: FACTS_PROPERTY },
  required: ['summary', 'facts'],
  additionalProperties: false,
};

/** `memoryExtractionPrompt`'s answer, in the same strict dialect. */
export const MEMORY_FACTS_SCHEMA: Record<string, unknown> = {
  type: 'object',
  properties: { facts: FACTS_PROPERTY },
  required: ['facts'],
  additionalProperties: false,
};

/**
 * One instruction for both memories of a finished chat: its summary and the
 * durable facts the user stated in it, so a chat costs one extra request in
 * all rather than one per turn.
 */
export function conversationDigestPrompt(transcript: string): string {
  return [
    'Below is a finished conversation between the user and an assistant. Reply with JSON only:',
    '{"summary":"<2-4 sentences: what the user wanted and what was concluded>",',
    ' "facts":[{"content":"<one sentence, third person>","importance":0.0-1.0,"expires_in_days":null}]}',
    'facts are durable facts the user stated or confirmed about themselves, their work, people and',
    'preferences (for example "my advisor is Prof. Li"); leave out questions, requests and anything',
    'temporary. Use "facts":[] when there is nothing to keep.',
    '',
    'Conversation:',
    transcript,
  ].join('\n');
}

/**
 * A digest from the provider's parsed `structuredOutput` when there is one,
 * else from the reply text, as tolerantly as facts are read. No summary, or an
 * unreadable reply, gives an empty summary, never prose taken for one.
 */
export function parseConversationDigest(structured: unknown, raw: string): ConversationDigest {
  const value = structured !== undefined && typeof structured === 'object' ? structured : firstJson(raw);
  if (!value || typeof value !== 'object' || Array.isArray(value)) return { summary: '', facts: [] };
  const { summary, facts } = value as { summary?: unknown; facts?: unknown };
  return {
    summary:
      typeof summary === 'string' ? summary.replace(/\s+/g, ' ').trim().slice(0, MAX_EPISODE_CHARS) : '',
    facts: Array.isArray(facts) ? parseExtractedFacts(JSON.stringify({ facts })) : [],
  };
}

function firstJson(raw: string): unknown {
  const text = raw.replace(/```(?:json)?/gi, '');
  // Whichever bracket opens first is the outer value ({"facts":[…]} or a bare […]).
  const pairs = (
    [
      ['{', '}'],
      ['[', ']'],
    ] as const
  )
    .map(([open, close]) => ({ start: text.indexOf(open), end: text.lastIndexOf(close) }))
    .filter(({ start, end }) => start >= 0 && end > start)
    .sort((a, b) => a.start - b.start);
  for (const { start, end } of pairs) {
    const slice = text.slice(start, end + 1);
    for (const candidate of [slice, slice.replace(/,\s*([}\]])/g, '$1')]) {
      try {
        return JSON.parse(candidate);
      } catch {
        // A trailing comma or prose inside: try the next form.
      }
    }
  }
  return undefined;
}

function clamp01(value: unknown, fallback: number): number {
  return typeof value === 'number' && Number.isFinite(value) ? Math.min(1, Math.max(0, value)) : fallback;
}

/**
 * The model's reply as facts, tolerating prose around the JSON, code fences,
 * trailing commas, a bare array and bare strings. Anything unreadable is no fact.
 */
export function parseExtractedFacts(raw: string): ExtractedFact[] {
  const parsed = firstJson(raw);
  const list: unknown[] = Array.isArray(parsed)
    ? parsed
    : parsed && typeof parsed === 'object' && Array.isArray((parsed as { facts?: unknown }).facts)
      ? (parsed as { facts: unknown[] }).facts
      : [];
  const facts: ExtractedFact[] = [];
  for (const entry of list) {
    const record = typeof entry === 'string' ? { content: entry } : entry;
    if (!record || typeof record !== 'object') continue;
    const { content, importance, expires_in_days } = record as Record<string, unknown>;
    if (typeof content !== 'string') continue;
    const text = cleanFact(content);
    if (text.length < 3) continue;
    const days =
      typeof expires_in_days === 'number' && Number.isFinite(expires_in_days) && expires_in_days > 0
        ? expires_in_days
        : undefined;
    facts.push({ content: text, importance: clamp01(importance, 0.5), ...(days && { expiresInDays: days }) });
  }
  return facts;
}

/** The facts from the provider's parsed `structuredOutput` when there is one, else from the reply text. */
export function parseExtractedFactsAnswer(structured: unknown, raw: string): ExtractedFact[] {
  return structured !== undefined && structured !== null && typeof structured === 'object'
    ? parseExtractedFacts(JSON.stringify(structured))
    : parseExtractedFacts(raw);
}

/** Case, spacing and end punctuation do not make a different memory. */
export function memoryDedupeKey(content: string): string {
  return content
    .toLowerCase()
    .replace(/[\s\p{P}]+/gu, ' ')
    .trim();
}

/** The live item that already says `content`, if any. */
export function findDuplicateMemory(
  items: readonly MetonaMemoryItem[],
  content: string,
  now: number,
): MetonaMemoryItem | undefined {
  const key = memoryDedupeKey(content);
  return items.find(
    (item) => (item.expiresAt === undefined || item.expiresAt > now) && memoryDedupeKey(item.content) === key,
  );
}

const DAY_MS = 24 * 60 * 60 * 1000;

export function expiryOf(now: number, expiresInDays: number | undefined): number | undefined {
  return expiresInDays === undefined ? undefined : now + Math.round(expiresInDays * DAY_MS);
}

/** The line a memory takes in a prompt (its summary when the content is long). */
export function memoryLine(item: MetonaMemoryItem): string {
  const text = item.content.length > 300 && item.summary ? item.summary : item.content;
  return `- [${item.type}] ${text.replace(/\s+/g, ' ').trim()}`;
}

/** The share of the context window recalled memories may take, in chat and agent runs alike. */
export const MEMORY_BUDGET_SHARE = 0.1;

export const MEMORY_HEADING = 'Relevant memories (saved earlier; may be outdated):';

/**
 * Best-first items packed into `budgetTokens`: an item that does not fit is
 * skipped (a shorter, less relevant one may still fit), the heading counts.
 */
export function packWithinBudget(
  ranked: readonly MetonaMemoryItem[],
  budgetTokens: number,
): MetonaMemoryItem[] {
  let used = estimateTextTokens(MEMORY_HEADING);
  const kept: MetonaMemoryItem[] = [];
  for (const item of ranked) {
    const cost = estimateTextTokens(memoryLine(item)) + 1;
    if (used + cost > budgetTokens) continue;
    used += cost;
    kept.push(item);
  }
  return kept;
}

/** The prompt section for recalled memories, or undefined when none. */
export function formatMemorySection(items: readonly MetonaMemoryItem[]): string | undefined {
  if (items.length === 0) return undefined;
  return [MEMORY_HEADING, ...items.map(memoryLine)].join('\n');
}

/** The most relevant live memories for `query` that fit in `budgetTokens`, best first. */
export async function recallWithinBudget(
  store: MemoryStore,
  query: string,
  options: RecallOptions & { budgetTokens: number },
): Promise<MetonaMemoryItem[]> {
  if (options.budgetTokens <= 0) return [];
  const ranked = await recallMemories(store, query, { ...options, limit: options.limit ?? 20 });
  return packWithinBudget(ranked, options.budgetTokens);
}
