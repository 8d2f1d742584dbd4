import { ContextBuilder, estimateRequestTokens } from '../agent';
import type { SettingsRepository } from '../db';
import type { MetonaMessage, MetonaRequest, MetonaSystemPrompt } from '../ir';

/**
 * What a conversation's requests no longer carry verbatim: the messages up
 * to `through_position` are replaced by `summary` (the model's, or a notice
 * that they were dropped when no summary could be written).
 */
export interface ChatContextState {
  summary: string;
  through_position: number;
  mode: 'summary' | 'dropped';
  compressed_at: string;
}

export interface ChatContextStore {
  get(conversationId: string): Promise<ChatContextState | undefined>;
  put(conversationId: string, state: ChatContextState): Promise<void>;
  delete(conversationId: string): Promise<void>;
}

const KEY_PREFIX = 'chat.context.';

/** Kept beside the other per-install settings: one small row per compressed conversation. */
export function settingsContextStore(settings: SettingsRepository): ChatContextStore {
  return {
    get: (id) => settings.get<ChatContextState>(`${KEY_PREFIX}${id}`),
    put: (id, state) => settings.put(`${KEY_PREFIX}${id}`, state),
    delete: (id) => settings.delete(`${KEY_PREFIX}${id}`),
  };
}

export function memoryContextStore(): ChatContextStore {
  const states = new Map<string, ChatContextState>();
  return {
    get: async (id) => states.get(id),
    put: async (id, state) => void states.set(id, state),
    delete: async (id) => void states.delete(id),
  };
}

/** The window assumed for a model nothing is known about. */
export const CONSERVATIVE_CONTEXT_WINDOW = 4096;
/** Chat rounds are single messages here: five exchanges are ten messages. */
const KEPT_MESSAGES = 10;
const DROPPED =
  'Earlier messages of this conversation were dropped to fit the model’s context window; no summary could be written.';

export interface HistoryRow {
  position: number;
  message: MetonaMessage;
}

export interface FitInput {
  conversationId: string;
  /** The conversation so far, the new user message last, oldest first. */
  rows: HistoryRow[];
  state: ChatContextState | undefined;
  contextWindow: number;
  systemPrompt: Omit<MetonaSystemPrompt, 'dynamicReminders'>;
  reminders: string[];
  /** Compress even below the trigger (the provider said the context was too long). */
  force: boolean;
  /** Asks the model for a summary; a failure drops the older messages instead. */
  summarize: (request: MetonaRequest) => Promise<string>;
  now: () => number;
  toIso: (ms: number) => string;
}

export interface FitResult {
  messages: MetonaMessage[];
  /** The new state when this call compressed; undefined when nothing changed. */
  compressed?: ChatContextState;
}

function summaryMessage(state: ChatContextState, timestamp: number): MetonaMessage {
  return {
    role: 'system',
    content: `Summary of the earlier conversation (compressed to save context):\n${state.summary}`,
    timestamp,
  };
}

/**
 * The IR's context rules for chat: above 0.8 of the window the oldest
 * messages are summarised by the model until usage is below 0.5, the last
 * five exchanges stay whole, and the summary replaces them in every later
 * request. As a last resort the oldest messages are dropped, so a request
 * never exceeds the window.
 */
export async function fitHistory(input: FitInput): Promise<FitResult> {
  const window = Math.max(256, input.contextWindow);
  const now = input.now();
  const through = input.state?.through_position ?? -1;
  const visible = input.rows.filter((row) => row.position > through);
  const head = input.state ? [summaryMessage(input.state, now)] : [];
  let messages = [...head, ...visible.map((row) => row.message)];
  const builder = new ContextBuilder({
    contextWindow: window,
    systemPrompt: input.systemPrompt,
    keptRounds: KEPT_MESSAGES,
  });
  const userInput = visible.at(-1)?.message.content ?? '';
  const contextInput = (history: MetonaMessage[]) => ({
    sessionId: input.conversationId,
    userInput,
    iteration: 1,
    history,
    reminders: input.reminders,
  });
  if (!input.force && !builder.build(contextInput(messages)).needsCompression) return { messages };

  let mode: ChatContextState['mode'] = 'summary';
  const compression = await builder.compress(
    contextInput(messages),
    async (request) => {
      try {
        const text = (await input.summarize(request)).trim();
        if (text !== '') return text;
      } catch {
        // Below: dropped with a notice.
      }
      mode = 'dropped';
      return DROPPED;
    },
    { requestId: `${input.conversationId}-summary-${now}`, timestamp: now, agentVersion: '1.0.0' },
  );
  let state = input.state;
  if (compression.summary !== undefined) {
    const kept = compression.history.length - 1;
    const firstKept = visible[visible.length - kept];
    state = {
      summary: compression.summary,
      through_position: firstKept ? firstKept.position - 1 : (visible.at(-1)?.position ?? through),
      mode,
      compressed_at: input.toIso(now),
    };
    messages = compression.history;
  }

  // The last resort: drop the oldest kept messages until the request fits.
  const fits = (history: MetonaMessage[]) =>
    estimateRequestTokens({
      ...builder.toRequest(builder.build(contextInput(history)), {
        requestId: 'estimate',
        timestamp: now,
        agentVersion: '1.0.0',
        params: {},
      }),
    }) <=
    builder.triggerRatio * window;
  const keptRows = visible.slice(visible.length - (messages.length - (state ? 1 : 0)));
  while (!fits(messages) && keptRows.length > 1) {
    const dropped = keptRows.shift()!;
    state = {
      summary: state?.summary ?? DROPPED,
      through_position: dropped.position,
      mode: state?.mode ?? 'dropped',
      compressed_at: input.toIso(now),
    };
    messages = [summaryMessage(state, now), ...keptRows.map((row) => row.message)];
  }
  return { messages, ...(state !== input.state && state && { compressed: state }) };
}
