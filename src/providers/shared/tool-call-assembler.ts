import {
  MetonaErrorCode,
  type MetonaError,
  type MetonaToolArgumentsError,
  type MetonaToolCall,
} from '../../ir';

/** One streamed piece of a tool call, as providers send them (OpenAI `delta.tool_calls[i]`). */
export interface ToolCallFragment {
  index: number;
  id?: string;
  /** Carried by the first fragment of a call. */
  name?: string;
  argsDelta?: string;
}

/** Arguments the model sent that are not a JSON object (declared on the IR's tool call). */
export type ToolArgumentsError = MetonaToolArgumentsError;

/** A finished call, arguments parsed; the stream driver adds iteration and timestamp. */
export interface AssembledToolCall {
  id: string;
  name: string;
  args: Record<string, unknown>;
  /** Set when the arguments could not be read; `args` is then `{}`. */
  argumentsError?: ToolArgumentsError;
}

const MAX_RAW_ARGUMENTS_CHARS = 2_000;

/** A completed call with unreadable arguments: empty args plus the fault, for the agent to report. */
export function withArgumentsError(
  call: { id: string; name: string },
  text: string,
  reason: string,
): AssembledToolCall {
  const shown = text.length > MAX_RAW_ARGUMENTS_CHARS ? `${text.slice(0, MAX_RAW_ARGUMENTS_CHARS)}…` : text;
  return { id: call.id, name: call.name, args: {}, argumentsError: { text: shown, reason } };
}

/** The fault a wire left on a tool call (`MetonaToolCall.argumentsError`), if any. */
export function toolArgumentsError(
  call: Pick<MetonaToolCall, 'argumentsError'>,
): ToolArgumentsError | undefined {
  return call.argumentsError;
}

export type ToolCallAssembly = { ok: true; call: AssembledToolCall } | { ok: false; error: MetonaError };

interface PendingToolCall {
  id?: string;
  name: string;
  argsBuffer: string;
}

/**
 * The standard's buffer: `Map<index, {name, argsBuffer}>` (plus the call id).
 * A fragment with a name opens the entry, argument deltas are appended, and at
 * the end of the stream or `finish_reason: "tool_calls"` each entry is parsed.
 * Arguments that are not a JSON object complete the call with `argumentsError`
 * (the model gets a tool error and may retry); only a call without a name,
 * which nothing can answer, is a `parse_error` of the whole response.
 */
export class ToolCallAssembler {
  readonly #pending = new Map<number, PendingToolCall>();
  readonly #provider: string;
  readonly #fallbackId: (index: number) => string;

  constructor(options: { provider: string; fallbackId: (index: number) => string }) {
    this.#provider = options.provider;
    this.#fallbackId = options.fallbackId;
  }

  get size(): number {
    return this.#pending.size;
  }

  has(index: number): boolean {
    return this.#pending.has(index);
  }

  add(fragment: ToolCallFragment): void {
    let entry = this.#pending.get(fragment.index);
    if (!entry) {
      entry = { name: '', argsBuffer: '' };
      this.#pending.set(fragment.index, entry);
    }
    if (fragment.id) entry.id ??= fragment.id;
    // Some servers repeat the whole name on every fragment: the first one wins.
    if (fragment.name && entry.name === '') entry.name = fragment.name;
    if (fragment.argsDelta) entry.argsBuffer += fragment.argsDelta;
  }

  /** Completes one call (Anthropic's `content_block_stop`) or, without an index, all of them in index order. */
  complete(index?: number): ToolCallAssembly[] {
    const indices =
      index === undefined
        ? [...this.#pending.keys()].sort((a, b) => a - b)
        : this.#pending.has(index)
          ? [index]
          : [];
    return indices.map((i) => {
      const entry = this.#pending.get(i)!;
      this.#pending.delete(i);
      return this.#finish(i, entry);
    });
  }

  #finish(index: number, entry: PendingToolCall): ToolCallAssembly {
    if (entry.name === '') {
      return { ok: false, error: this.#parseError(`Tool call ${index} arrived without a name.`) };
    }
    const id = entry.id ?? this.#fallbackId(index);
    const parsed = parseToolArguments(entry.argsBuffer);
    if (!parsed.ok) {
      return {
        ok: true,
        call: withArgumentsError({ id, name: entry.name }, entry.argsBuffer, parsed.reason),
      };
    }
    return { ok: true, call: { id, name: entry.name, args: parsed.args } };
  }

  #parseError(message: string): MetonaError {
    return { code: MetonaErrorCode.PARSE_ERROR, message, provider: this.#provider, retryable: false };
  }
}

/** Empty arguments mean `{}` (a call to a tool without parameters). */
export function parseToolArguments(
  text: string,
): { ok: true; args: Record<string, unknown> } | { ok: false; reason: string } {
  if (text.trim() === '') return { ok: true, args: {} };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { ok: false, reason: error instanceof Error ? error.message : 'invalid JSON' };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return {
      ok: false,
      reason: `expected an object, got ${Array.isArray(value) ? 'an array' : typeof value}`,
    };
  }
  return { ok: true, args: value as Record<string, unknown> };
}
