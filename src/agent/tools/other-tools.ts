import { z } from 'zod';
import { SEARCH_MODES, toIsoUtc } from '../../contracts';
import { newId as defaultNewId, type Clock } from '../../core/ids';
import { MetonaRiskLevel, MetonaToolCategory } from '../../ir';
import type { MemoryStore } from '../memory';
import { defineTool, type AgentToolSpec } from '../tool-registry';
import { evaluateExpression } from './math-expression';
import type { SearchPort } from './ports';

const DAY_MS = 24 * 60 * 60 * 1000;

export function ragSearchTool(search: SearchPort): AgentToolSpec {
  return defineTool({
    name: 'rag.search',
    description:
      'Search the notebook for passages relevant to a question (hybrid full-text + vector retrieval). ' +
      'Returns blocks with note ids, block ids and snippets to cite.',
    parameters: z.object({
      query: z.string().min(1).max(500).describe('The question or keywords'),
      mode: z.enum(SEARCH_MODES).default('hybrid'),
      limit: z.number().int().min(1).max(20).default(5),
    }),
    category: MetonaToolCategory.SEARCH,
    riskLevel: MetonaRiskLevel.SAFE,
    requiresPermission: false,
    timeoutMs: 20_000,
    async execute({ query, mode, limit }, { signal }) {
      const answer = await search.search({ query, mode, limit }, signal);
      const hits = answer.hits.map((hit) => ({
        note_id: hit.note_id,
        block_id: hit.block_id,
        title: hit.title,
        snippet: hit.snippet,
        score: hit.score,
        start_line: hit.start_line,
        end_line: hit.end_line,
      }));
      const fallback = answer.fallback_reason
        ? ` (answered by ${answer.mode_used}: ${answer.fallback_reason})`
        : '';
      const summary =
        hits.length === 0
          ? `No passages match "${query}".${fallback}`
          : `${hits.length} passage(s)${fallback}:\n` +
            hits
              .map(
                (hit, index) =>
                  `[${index + 1}] ${hit.title || '(untitled)'} (note_id ${hit.note_id}, block ${hit.block_id}): ${hit.snippet}`,
              )
              .join('\n');
      return {
        result: { query, mode_used: answer.mode_used, fallback_reason: answer.fallback_reason, hits },
        summary,
        citations: hits,
      };
    },
  });
}

export function memorySaveTool(
  memory: MemoryStore,
  clock: Clock,
  newId: (prefix: string) => string = defaultNewId,
): AgentToolSpec {
  return defineTool({
    name: 'memory.save',
    description:
      'Remember a fact or preference for later conversations (semantic: a lasting fact; episodic: what ' +
      'happened; working: short-lived).',
    parameters: z.object({
      content: z.string().min(1).max(2_000).describe('What to remember, self-contained'),
      type: z.enum(['semantic', 'episodic', 'working']).default('semantic'),
      importance: z.number().min(0).max(1).default(0.5).describe('0 trivial … 1 essential'),
      ttl_days: z.number().int().min(1).max(3_650).optional().describe('Forget after this many days'),
    }),
    category: MetonaToolCategory.DATABASE,
    riskLevel: MetonaRiskLevel.LOW,
    requiresPermission: true,
    permission: 'memory.write',
    async execute({ content, type, importance, ttl_days }, { sessionId }) {
      const now = clock();
      const item = {
        id: newId('memory'),
        type,
        content,
        source: 'agent_thought' as const,
        importance,
        sessionId,
        createdAt: now,
        ...(ttl_days !== undefined && { expiresAt: now + ttl_days * DAY_MS }),
      };
      await memory.put(item);
      return {
        result: {
          memory_id: item.id,
          type,
          importance,
          expires_at: item.expiresAt === undefined ? null : toIsoUtc(item.expiresAt),
        },
        summary: `Saved a ${type} memory (id ${item.id}).`,
      };
    },
  });
}

export const mathEvaluateTool: AgentToolSpec = defineTool({
  name: 'math.evaluate',
  description:
    'Evaluate an arithmetic expression exactly: numbers, + - * / % ^, parentheses, sin cos tan asin acos ' +
    'atan sinh cosh tanh sqrt abs sign ' +
    'log (base 10, or log(x, base)) ln exp min max round floor ceil, constants pi and e.',
  parameters: z.object({
    expression: z.string().min(1).max(1_000).describe('For example: round(sqrt(2) * 100, 2)'),
  }),
  category: MetonaToolCategory.CALCULATION,
  riskLevel: MetonaRiskLevel.SAFE,
  requiresPermission: false,
  timeoutMs: 2_000,
  async execute({ expression }) {
    const value = evaluateExpression(expression);
    if (!Number.isFinite(value)) {
      throw new Error(`The result of ${expression} is not a finite number (a division by zero?).`);
    }
    return { result: { expression, value }, summary: `${expression} = ${value}` };
  },
});

export function timeNowTool(clock: Clock): AgentToolSpec {
  return defineTool({
    name: 'time.now',
    description:
      'The current date and time, in a time zone (IANA name such as Asia/Shanghai) or the local one.',
    parameters: z.object({
      timezone: z.string().min(1).max(64).optional().describe('IANA time zone; the device zone by default'),
    }),
    category: MetonaToolCategory.CUSTOM,
    riskLevel: MetonaRiskLevel.SAFE,
    requiresPermission: false,
    timeoutMs: 2_000,
    async execute({ timezone }) {
      const now = clock();
      let format: Intl.DateTimeFormat;
      try {
        format = new Intl.DateTimeFormat('en-CA', {
          ...(timezone !== undefined && { timeZone: timezone }),
          year: 'numeric',
          month: '2-digit',
          day: '2-digit',
          hour: '2-digit',
          minute: '2-digit',
          second: '2-digit',
          hourCycle: 'h23',
          weekday: 'long',
        });
      } catch {
        throw new Error(`Unknown time zone "${timezone}"; use an IANA name such as Europe/Paris.`);
      }
      const parts = Object.fromEntries(format.formatToParts(now).map((part) => [part.type, part.value]));
      const zone = format.resolvedOptions().timeZone;
      const local = `${parts.year}-${parts.month}-${parts.day} ${parts.hour}:${parts.minute}:${parts.second}`;
      return {
        result: { iso: toIsoUtc(now), epoch_ms: now, timezone: zone, local, weekday: parts.weekday },
        summary: `It is ${parts.weekday}, ${local} in ${zone} (${toIsoUtc(now)}).`,
      };
    },
  });
}
