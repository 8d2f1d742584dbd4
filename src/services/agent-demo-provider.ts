import { requestLanguage, type RequestLanguage } from '../core/request-language';
import type {
  IMetonaProviderAdapter,
  MetonaCallOptions,
  MetonaMessage,
  MetonaModelInfo,
  MetonaRequest,
  MetonaResponse,
  MetonaStreamEvent,
  MetonaToolResult,
} from '../ir';
import {
  MOCK_MODEL,
  MOCK_PROVIDER_ID,
  MockAdapter,
  type MockScenarioInput,
  type MockStep,
} from '../providers/mock';

export interface DemoAgentOptions {
  /** Waited before each streamed chunk, so a demo streams visibly (0 in tests). */
  chunkDelayMs?: number;
  /** Tasks the demo adds (default 3). */
  taskCount?: number;
}

const TASK_TEXT_CHARS = 80;

/** The one job the demo can do: find a note and add review tasks to it. */
const DEMO_REQUEST = /\b(task|tasks|todo|to-do|to do|checklist|review)\b|任务|待办|清单|复习/i;

export const DEMO_LIMITS_ANSWER =
  'The demo only finds a note and adds review tasks to it (for example “Find my deadlock note and create ' +
  'three review tasks from it”). It is a script, not a model, so it cannot answer this; for anything else, ' +
  'choose a real model instead: a local model, or a provider set up in Settings → Providers.';

/** The same, for a request written in Chinese: the demo answers in the request's language. */
export const DEMO_LIMITS_ANSWER_ZH =
  '演示模型只会找到一篇笔记并为它添加复习任务（例如“找到我的死锁笔记并为它创建三个复习任务”）。' +
  '它是一段脚本，不是模型，所以回答不了这个请求；其他事情请改选一个真正的模型：本地模型，或在 设置 → AI 服务 中配置的服务。';

/** The demo's lines in the language of the request (see `requestLanguage`). */
const LINES = {
  en: {
    limits: DEMO_LIMITS_ANSWER,
    failed: (reason: string) => `I could not finish: ${reason}.`,
    toolFailed: 'the tool failed',
    noMatch: 'No note in the notebook matches this request.',
    bestMatch: (title: string) => `The best match is “${title}”.`,
    read: (title: string) => `I read “${title}”.`,
    added: (count: number, title: string) => `I added ${count} review tasks to “${title}”.`,
    done: 'Done.',
    heading: 'Review',
    task: (text: string) => `Review: ${text}`,
    part: (part: number) => `Review the note (part ${part})`,
  },
  zh: {
    limits: DEMO_LIMITS_ANSWER_ZH,
    failed: (reason: string) => `没能完成：${reason}。`,
    toolFailed: '工具运行失败',
    noMatch: '笔记本里没有与这个请求相符的笔记。',
    bestMatch: (title: string) => `最相符的笔记是“${title}”。`,
    read: (title: string) => `我读了“${title}”。`,
    added: (count: number, title: string) => `我为“${title}”添加了 ${count} 个复习任务。`,
    done: '完成了。',
    heading: '复习',
    task: (text: string) => `复习：${text}`,
    part: (part: number) => `复习这篇笔记（第 ${part} 部分）`,
  },
} as const;

/** True when the demo's script fits the request; otherwise it says so instead of acting. */
export function demoCanHandle(goal: string): boolean {
  return DEMO_REQUEST.test(goal);
}

function tokensOf(text: string): number {
  return Math.max(1, Math.ceil(text.length / 4));
}

function lastUserIndex(messages: readonly MetonaMessage[]): number {
  for (let index = messages.length - 1; index >= 0; index--) {
    if (messages[index]?.role === 'user') return index;
  }
  return -1;
}

function record(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
}

/** Short task lines from a note: its headings and first sentences, checklists and the title left out. */
export function tasksFromNote(body: string, count: number, language: RequestLanguage = 'en'): string[] {
  const words = LINES[language];
  const lines = body
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !/^[-*]\s+\[[ xX]\]/.test(line) && !line.startsWith('```'));
  const candidates: string[] = [];
  for (const line of lines) {
    const heading = /^#{2,6}\s+(.*)$/.exec(line);
    if (/^#\s/.test(line)) continue;
    const text = (heading ? heading[1] : line.replace(/^[-*+]\s+|^\d+[.)]\s+/, ''))
      ?.split(/(?<=[.!?。！？])\s*/)[0]
      ?.trim();
    if (!text) continue;
    const cut = text.length > TASK_TEXT_CHARS ? `${text.slice(0, TASK_TEXT_CHARS - 1)}…` : text;
    candidates.push(words.task(cut.replace(/[.。]$/, '')));
  }
  const unique = [...new Set(candidates)].slice(0, count);
  while (unique.length < count) unique.push(words.part(unique.length + 1));
  return unique;
}

/**
 * A deterministic "model" for demos and end-to-end tests: no weights, no
 * network. It plans from the conversation as a tool-using model would —
 * search the notebook for the request, read the best note, add review tasks
 * to it, then answer — and streams every turn through the mock provider's
 * driver, so the loop sees the same events as from a real adapter.
 */
export class DemoAgentAdapter implements IMetonaProviderAdapter {
  readonly providerId = MOCK_PROVIDER_ID;
  readonly supportedModels = [MOCK_MODEL];
  readonly #chunkDelayMs: number;
  readonly #taskCount: number;
  #calls = 0;

  constructor(options: DemoAgentOptions = {}) {
    this.#chunkDelayMs = options.chunkDelayMs ?? 0;
    this.#taskCount = options.taskCount ?? 3;
  }

  getContextWindow(): number {
    return 32_768;
  }

  async healthCheck(): Promise<boolean> {
    return true;
  }

  async listModels(): Promise<MetonaModelInfo[]> {
    return new MockAdapter().listModels();
  }

  send(request: MetonaRequest, options?: MetonaCallOptions): Promise<MetonaResponse> {
    return this.sendStream(request, () => undefined, options);
  }

  sendStream(
    request: MetonaRequest,
    onEvent: (event: MetonaStreamEvent) => void,
    options?: MetonaCallOptions,
  ): Promise<MetonaResponse> {
    this.#calls += 1;
    const scenario: MockScenarioInput = {
      id: `demo-agent-${this.#calls}`,
      chunk_delay_ms: this.#chunkDelayMs,
      steps: this.#plan(request),
    };
    return new MockAdapter({ scenario }).sendStream(request, onEvent, options);
  }

  #plan(request: MetonaRequest): MockStep[] {
    const messages = request.messages;
    const start = lastUserIndex(messages);
    const goal = messages[start]?.content.trim() ?? '';
    const language = requestLanguage(goal);
    const lines = LINES[language];
    const results = messages
      .slice(start + 1)
      .flatMap((message) => (message.role === 'tool' && message.toolResult ? [message.toolResult] : []));
    const last: MetonaToolResult | undefined = results.at(-1);
    const tools = new Set((request.tools ?? []).map((tool) => tool.name));
    const input = tokensOf(JSON.stringify(messages));
    const call = (name: string, args: Record<string, unknown>, thought: string): MockStep[] => [
      { type: 'reasoning', chunks: [thought] },
      { type: 'tool_call', id: `call_demo_${this.#calls}`, name, argument_chunks: [JSON.stringify(args)] },
      { type: 'usage', input_tokens: input, output_tokens: tokensOf(thought) + 20 },
      { type: 'finish', reason: 'tool_calls' },
    ];
    const answer = (text: string): MockStep[] => [
      { type: 'text', chunks: text.match(/.{1,24}/gsu) ?? [text] },
      { type: 'usage', input_tokens: input, output_tokens: tokensOf(text) },
      { type: 'finish', reason: 'stop' },
    ];

    if (!last) {
      if (!demoCanHandle(goal)) return answer(lines.limits);
      if (tools.has('rag.search')) {
        return call(
          'rag.search',
          { query: goal.slice(0, 500) || 'notes', limit: 5 },
          'Search the notebook first.',
        );
      }
      return answer(`(demo) ${goal}`);
    }
    const result = record(last.result);
    if (!last.success) {
      return answer(lines.failed(last.error ?? last.summary ?? lines.toolFailed));
    }
    if (last.toolName === 'rag.search' || last.toolName === 'notes.search') {
      const hits = Array.isArray(result.hits) ? result.hits.map(record) : [];
      const best = hits[0];
      if (!best || typeof best.note_id !== 'string') return answer(lines.noMatch);
      if (!tools.has('notes.read')) return answer(lines.bestMatch(String(best.title ?? best.note_id)));
      return call('notes.read', { note_id: best.note_id }, `Read “${String(best.title ?? '')}”.`);
    }
    if (last.toolName === 'notes.read' && typeof result.note_id === 'string') {
      if (!tools.has('tasks.create')) return answer(lines.read(String(result.title ?? result.note_id)));
      const tasks = tasksFromNote(
        typeof result.body === 'string' ? result.body : '',
        this.#taskCount,
        language,
      );
      return call(
        'tasks.create',
        { note_id: result.note_id, heading: lines.heading, tasks },
        `Add ${tasks.length} review tasks to the note.`,
      );
    }
    if (last.toolName === 'tasks.create') {
      const created = Array.isArray(result.tasks) ? result.tasks.length : 0;
      return answer(lines.added(created, String(result.title ?? result.note_id)));
    }
    return answer(last.summary ?? lines.done);
  }
}
