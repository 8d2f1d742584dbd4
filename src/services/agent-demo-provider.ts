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
  'three review tasks from it”). It is a script, not a model, so it cannot answer this; choose a model in ' +
  'the picker above (a local model or a configured provider) for anything else.';

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
export function tasksFromNote(body: string, count: number): string[] {
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
    candidates.push(`Review: ${cut.replace(/[.。]$/, '')}`);
  }
  const unique = [...new Set(candidates)].slice(0, count);
  while (unique.length < count) unique.push(`Review the note (part ${unique.length + 1})`);
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
      if (!demoCanHandle(goal)) return answer(DEMO_LIMITS_ANSWER);
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
      return answer(`I could not finish: ${last.error ?? last.summary ?? 'the tool failed'}.`);
    }
    if (last.toolName === 'rag.search' || last.toolName === 'notes.search') {
      const hits = Array.isArray(result.hits) ? result.hits.map(record) : [];
      const best = hits[0];
      if (!best || typeof best.note_id !== 'string')
        return answer('No note in the notebook matches this request.');
      if (!tools.has('notes.read'))
        return answer(`The best match is “${String(best.title ?? best.note_id)}”.`);
      return call('notes.read', { note_id: best.note_id }, `Read “${String(best.title ?? '')}”.`);
    }
    if (last.toolName === 'notes.read' && typeof result.note_id === 'string') {
      if (!tools.has('tasks.create')) return answer(`I read “${String(result.title ?? result.note_id)}”.`);
      const tasks = tasksFromNote(typeof result.body === 'string' ? result.body : '', this.#taskCount);
      return call(
        'tasks.create',
        { note_id: result.note_id, heading: 'Review', tasks },
        `Add ${tasks.length} review tasks to the note.`,
      );
    }
    if (last.toolName === 'tasks.create') {
      const created = Array.isArray(result.tasks) ? result.tasks.length : 0;
      return answer(`I added ${created} review tasks to “${String(result.title ?? result.note_id)}”.`);
    }
    return answer(last.summary ?? 'Done.');
  }
}
