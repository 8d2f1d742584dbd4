import type { MetonaParamField, MetonaToolDef } from '../../ir';
import { parseLenientJson, parseLenientJsonAt } from './lenient-json';

/**
 * Tools for models without native function calling (the IR standard's
 * last-resort path): the tools are described in the system prompt, and the
 * model's text is searched for calls. The parser is tolerant because small
 * models are sloppy: it accepts `<tool_call>{…}</tool_call>` tags (the format
 * the prompt asks for), ```json fences, and bare JSON objects or arrays, with
 * the usual JSON mistakes (see `lenient-json.ts`) and several call shapes:
 * `{"name","arguments"}`, `{"name","parameters"}`, `{"tool","args"}`,
 * `{"function":{"name","arguments"}}`, `{"action","action_input"}`,
 * `{"tool_calls":[…]}`, `{"<tool name>": {…}}`, and arguments sent as a JSON string.
 *
 * A tagged call is always a call (an unknown name is the agent's to reject);
 * fenced or bare JSON is a call only when it names one of the offered tools,
 * so an answer that merely contains JSON stays text.
 */

export interface PromptedToolCall {
  name: string;
  args: Record<string, unknown>;
}

export interface PromptedToolParse {
  /** The text with the calls taken out. */
  text: string;
  calls: PromptedToolCall[];
  /** Tagged calls that could not be read: the model tried to call a tool and failed. */
  errors: string[];
}

const TAG_OPEN = '<tool_call>';
const TAG_CLOSE = '</tool_call>';
const NAME_KEYS = ['name', 'tool', 'tool_name', 'toolName', 'function_name', 'action'] as const;
const ARGS_KEYS = [
  'arguments',
  'args',
  'parameters',
  'params',
  'input',
  'action_input',
  'tool_input',
] as const;
const IGNORED_KEYS = new Set(['type', 'id']);
const MARKERS = ['<tool_call', '<|tool_call', '```'];
const MARKERS_MAX = Math.max(...MARKERS.map((marker) => marker.length));
const JSON_FENCE_LANGUAGES = new Set([
  '',
  'json',
  'json5',
  'jsonc',
  'tool_call',
  'tool',
  'tools',
  'function',
]);

// ---- the prompt -------------------------------------------------------------

function describeField(field: MetonaParamField): string {
  const type = field.type === 'array' && field.items ? `array of ${field.items.type}` : field.type;
  const choices = field.enum?.length
    ? ` (one of: ${field.enum.map((value) => `"${value}"`).join(', ')})`
    : '';
  return `${type}${choices}${field.description ? ` — ${field.description}` : ''}`;
}

/** The system-prompt section that offers the tools and fixes the call format. */
export function describeToolsForPrompt(tools: readonly MetonaToolDef[]): string {
  const list = tools
    .map((tool) => {
      const required = new Set(tool.parameters.required ?? []);
      const params = Object.entries(tool.parameters.properties).map(
        ([name, field]) => `    - ${name}${required.has(name) ? ' (required)' : ''}: ${describeField(field)}`,
      );
      return [
        `- ${tool.name}: ${tool.description}`,
        ...(params.length ? params : ['    (no parameters)']),
      ].join('\n');
    })
    .join('\n');
  const first = tools[0];
  const exampleArgs = Object.fromEntries(
    Object.entries(first?.parameters.properties ?? {})
      .slice(0, 2)
      .map(([name, field]) => [
        name,
        field.type === 'number' ? 1 : field.type === 'boolean' ? true : `<${name}>`,
      ]),
  );
  const example = JSON.stringify({ name: first?.name ?? 'tool_name', arguments: exampleArgs });
  return [
    '# Tools',
    'You can call these tools:',
    list,
    '',
    'To call a tool, answer with exactly this and nothing else, one block per call:',
    `${TAG_OPEN}${example}${TAG_CLOSE}`,
    'Use double quotes and valid JSON. After the call, stop and wait: the tool result comes in the next message.',
    'When no tool is needed, answer normally without any tool_call block.',
  ].join('\n');
}

/** How an earlier call appears in the history sent back to the model: the format it was asked to use. */
export function renderPromptedToolCall(call: PromptedToolCall): string {
  return `${TAG_OPEN}${JSON.stringify({ name: call.name, arguments: call.args })}${TAG_CLOSE}`;
}

// ---- call shapes -----------------------------------------------------------

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function readArgs(value: unknown): Record<string, unknown> | undefined {
  if (value === undefined || value === null) return {};
  if (isRecord(value)) return value;
  if (typeof value === 'string') {
    if (value.trim() === '') return {};
    const parsed = parseLenientJson(value, { autoClose: true });
    return parsed.ok && isRecord(parsed.value) ? parsed.value : undefined;
  }
  return undefined;
}

type Shape = { ok: true; calls: PromptedToolCall[] } | { ok: false; reason: string };

/** The calls a parsed JSON value describes; `known` filters names unless the value was tagged. */
function callsIn(value: unknown, accept: (name: string) => boolean): Shape {
  if (Array.isArray(value)) {
    if (value.length === 0) return { ok: false, reason: 'empty list' };
    const calls: PromptedToolCall[] = [];
    for (const item of value) {
      const shape = callsIn(item, accept);
      if (!shape.ok) return shape;
      calls.push(...shape.calls);
    }
    return { ok: true, calls };
  }
  if (!isRecord(value)) return { ok: false, reason: 'not an object' };
  if (Array.isArray(value.tool_calls)) return callsIn(value.tool_calls, accept);

  const fn = value.function;
  if (isRecord(fn) && typeof fn.name === 'string') {
    return single(fn.name, readArgs(fn.arguments ?? fn.parameters ?? fn.args), accept);
  }
  const nameKey = NAME_KEYS.find((key) => typeof value[key] === 'string');
  const name = nameKey ? (value[nameKey] as string) : typeof fn === 'string' ? fn : undefined;
  if (name !== undefined) {
    const argsKey = ARGS_KEYS.find((key) => key in value);
    if (argsKey) return single(name, readArgs(value[argsKey]), accept);
    // {"name": "get_weather", "city": "Paris"}: the other keys are the arguments.
    const rest = Object.fromEntries(
      Object.entries(value).filter(
        ([key]) => key !== nameKey && key !== 'function' && !IGNORED_KEYS.has(key),
      ),
    );
    return single(name, rest, accept);
  }
  // {"get_weather": {"city": "Paris"}}
  const keys = Object.keys(value);
  const reserved = (key: string) => (ARGS_KEYS as readonly string[]).includes(key) || key === 'function';
  if (keys.length === 1 && !reserved(keys[0]!) && accept(keys[0]!) && isRecord(value[keys[0]!])) {
    return single(keys[0]!, value[keys[0]!] as Record<string, unknown>, accept);
  }
  return { ok: false, reason: 'no tool name' };
}

function single(
  name: string,
  args: Record<string, unknown> | undefined,
  accept: (name: string) => boolean,
): Shape {
  const trimmed = name.trim();
  if (trimmed === '') return { ok: false, reason: 'empty tool name' };
  if (!accept(trimmed)) return { ok: false, reason: `unknown tool "${trimmed}"` };
  if (!args) return { ok: false, reason: `the arguments of "${trimmed}" are not a JSON object` };
  return { ok: true, calls: [{ name: trimmed, args }] };
}

// ---- the parser ------------------------------------------------------------

interface Segment {
  start: number;
  end: number;
  calls: PromptedToolCall[];
}

function overlaps(segments: readonly Segment[], start: number, end: number): boolean {
  return segments.some((segment) => start < segment.end && end > segment.start);
}

function findTagged(text: string, errors: string[]): Segment[] {
  const segments: Segment[] = [];
  const pattern =
    /<\|?tool_call\|?>([\s\S]*?)(?:<\/\|?tool_call\|?>|<\|?\/tool_call\|?>|(?=<\|?tool_call\|?>)|$)/g;
  for (const match of text.matchAll(pattern)) {
    const body = match[1]!.trim().replace(/^```[\w-]*\s*|```$/g, '');
    const parsed = parseLenientJson(body, { autoClose: true });
    const shape = parsed.ok ? callsIn(parsed.value, () => true) : parsed;
    if (shape.ok)
      segments.push({ start: match.index, end: match.index + match[0].length, calls: shape.calls });
    else {
      errors.push(`A tool call could not be read (${shape.reason}): ${body.slice(0, 200)}`);
      segments.push({ start: match.index, end: match.index + match[0].length, calls: [] });
    }
  }
  return segments;
}

/** Fenced JSON that names tools; other fences and inline code go to `code`, where no bare call is looked for. */
function findFenced(
  text: string,
  taken: readonly Segment[],
  accept: (name: string) => boolean,
  code: Segment[],
): Segment[] {
  const segments: Segment[] = [];
  for (const match of text.matchAll(/```[ \t]*([\w-]*)[^\n]*\n([\s\S]*?)(?:```|$)/g)) {
    const start = match.index;
    const end = start + match[0].length;
    if (overlaps(taken, start, end)) continue;
    const parsed = JSON_FENCE_LANGUAGES.has(match[1]!.toLowerCase())
      ? parseLenientJson(match[2]!, { autoClose: true })
      : undefined;
    const shape = parsed?.ok ? callsIn(parsed.value, accept) : undefined;
    if (shape?.ok) segments.push({ start, end, calls: shape.calls });
    else code.push({ start, end, calls: [] });
  }
  for (const match of text.matchAll(/`[^`\n]+`/g)) {
    code.push({ start: match.index, end: match.index + match[0].length, calls: [] });
  }
  return segments;
}

function findBare(text: string, taken: readonly Segment[], accept: (name: string) => boolean): Segment[] {
  const segments: Segment[] = [];
  const starts = /[{[]/g;
  for (let match = starts.exec(text); match; match = starts.exec(text)) {
    const start = match.index;
    if (overlaps([...taken, ...segments], start, start + 1)) continue;
    const parsed = parseLenientJsonAt(text, start);
    if (!parsed.ok) continue;
    const shape = callsIn(parsed.value, accept);
    if (!shape.ok) continue;
    segments.push({ start, end: parsed.end, calls: shape.calls });
    starts.lastIndex = parsed.end;
  }
  return segments;
}

function tidyText(text: string): string {
  return text
    .replace(/[ \t]+\n/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/** Every call in a finished text, in order, and the text without them. */
export function parsePromptedToolCalls(text: string, toolNames: readonly string[]): PromptedToolParse {
  const names = new Set(toolNames);
  const accept = (name: string) => names.has(name);
  const errors: string[] = [];
  const tagged = findTagged(text, errors);
  const code: Segment[] = [];
  const fenced = findFenced(text, tagged, accept, code);
  const bare = findBare(text, [...tagged, ...fenced, ...code], accept);
  const segments = [...tagged, ...fenced, ...bare].sort((a, b) => a.start - b.start);
  if (segments.length === 0) return { text, calls: [], errors };
  let rest = '';
  let at = 0;
  for (const segment of segments) {
    rest += text.slice(at, segment.start);
    at = segment.end;
  }
  rest += text.slice(at);
  return { text: tidyText(rest), calls: segments.flatMap((segment) => segment.calls), errors };
}

// ---- streaming ----------------------------------------------------------------

/**
 * Streams a model's text while holding back what may be a tool call: from
 * the first `<tool_call>`, code fence, or `{`/`[` opening a line, the rest is
 * kept and parsed at the end. A fence in another language (```python) is
 * released at once and streams through. Text before the first such mark
 * streams unchanged, so an ordinary answer is not delayed.
 */
export class PromptedToolCallStream {
  readonly #toolNames: readonly string[];
  #emitted = '';
  #pending = '';
  #captured: string | undefined;
  /** Inside a released foreign-language fence: stream until it closes. */
  #inForeignFence = false;

  constructor(toolNames: readonly string[]) {
    this.#toolNames = toolNames;
  }

  /** Text that can be shown now. */
  push(delta: string): string {
    if (this.#captured !== undefined) {
      this.#captured += delta;
      return this.#releaseForeignFence();
    }
    this.#pending += delta;
    return this.#scan();
  }

  /** The held-back text and the calls found in it, at the end of the stream. */
  finish(): PromptedToolParse {
    if (this.#captured === undefined) {
      const text = this.#pending;
      this.#pending = '';
      return { text, calls: [], errors: [] };
    }
    const captured = this.#captured;
    this.#captured = undefined;
    return parsePromptedToolCalls(captured, this.#toolNames);
  }

  #emit(text: string): string {
    this.#emitted += text;
    return text;
  }

  #scan(): string {
    let out = '';
    for (;;) {
      if (this.#inForeignFence) {
        const close = this.#pending.indexOf('```');
        if (close === -1) {
          // Keep a possible half of the closing fence.
          const keep = /`{1,2}$/.exec(this.#pending)?.[0].length ?? 0;
          out += this.#emit(this.#pending.slice(0, this.#pending.length - keep));
          this.#pending = this.#pending.slice(this.#pending.length - keep);
          return out;
        }
        out += this.#emit(this.#pending.slice(0, close + 3));
        this.#pending = this.#pending.slice(close + 3);
        this.#inForeignFence = false;
        continue;
      }
      const trigger = this.#findTrigger();
      if (trigger.at === -1) {
        out += this.#emit(this.#pending.slice(0, trigger.safe));
        this.#pending = this.#pending.slice(trigger.safe);
        return out;
      }
      out += this.#emit(this.#pending.slice(0, trigger.at));
      this.#captured = this.#pending.slice(trigger.at);
      this.#pending = '';
      return out + this.#releaseForeignFence();
    }
  }

  /** A captured fence whose language line shows it is not JSON goes back to streaming. */
  #releaseForeignFence(): string {
    const captured = this.#captured!;
    const fence = /^```[ \t]*([\w-]*)[^\n]*\n/.exec(captured);
    if (!fence || JSON_FENCE_LANGUAGES.has(fence[1]!.toLowerCase())) return '';
    this.#captured = undefined;
    this.#inForeignFence = true;
    const out = this.#emit(fence[0]);
    this.#pending = captured.slice(fence[0].length);
    return out + this.#scan();
  }

  /** Where a possible call starts in the pending text, or how much of it is safe to show. */
  #findTrigger(): { at: number; safe: number } {
    const pending = this.#pending;
    let atLineStart = /(^|\n)[ \t]*$/.test(this.#emitted);
    let lineStart = 0;
    for (let i = 0; i < pending.length; i++) {
      const char = pending[i]!;
      if (MARKERS.some((marker) => pending.startsWith(marker, i))) return { at: i, safe: i };
      if (atLineStart && (char === '{' || char === '[')) {
        if (char === '{') return { at: i, safe: i };
        const next = /\S/.exec(pending.slice(i + 1));
        if (!next) return { at: -1, safe: lineStart }; // "[" alone: wait for what follows
        if (next[0] === '{') return { at: i, safe: i };
      }
      if (char === '\n') {
        atLineStart = true;
        lineStart = i + 1;
      } else if (char !== ' ' && char !== '\t') atLineStart = false;
    }
    // Hold back a tail that may still become a mark: "<tool_c", "``", or blank space at a line start.
    let safe = pending.length;
    for (let size = Math.min(MARKERS_MAX, pending.length); size > 0; size--) {
      const tail = pending.slice(-size);
      if (MARKERS.some((marker) => marker.length > size && marker.startsWith(tail))) {
        safe = pending.length - size;
        break;
      }
    }
    if (atLineStart) safe = Math.min(safe, lineStart);
    return { at: -1, safe };
  }
}
