import { AppError } from '../contracts';
import { citedBlockIds, type CitationOutcome } from '../benchmarks';
import type { EventLog } from '../core/event-log';
import { ConversationRepository, type NotesAgentDatabase } from '../db';
import { ChatService, type RouterTuning } from './chat-service';
import type { NotesContextSource } from './notes-context';
import type { ProviderService } from './provider-service';

/** The model that answers a RAG run's questions, for `citation_hit_rate`. */
export interface AnswerModel {
  provider_id: string;
  model: string;
}

/** Asks one question through "ask your notes" with the given blocks as its sources. */
export type AskNotes = (
  question: string,
  sources: readonly NotesContextSource[],
  signal: AbortSignal,
) => Promise<CitationOutcome>;

/** How a RAG run reaches an answer model; the app's providers in the core. */
export interface BenchmarkAnswers {
  /** Refuses, before a run exists, a provider that cannot answer (unknown or disabled). */
  check(model: AnswerModel): Promise<void>;
  /** A chat over the run's own database and event log, so no conversation reaches the user's. */
  open(db: NotesAgentDatabase, events: EventLog, model: AnswerModel): AskNotes;
}

/**
 * The real "ask your notes" path: the chat service sends the question with the
 * sources in its system prompt to the configured provider (router, retries and
 * fallback included), and the answer's `[n]` markers name the blocks it cited.
 */
export function providerAnswers(providers: ProviderService, router?: RouterTuning): BenchmarkAnswers {
  return {
    async check(model) {
      const row = await providers.config(model.provider_id);
      if (!row.enabled) {
        throw new AppError('STATE_CONFLICT', 'This provider is disabled.', {
          provider_id: model.provider_id,
        });
      }
    },
    open(db, events, model) {
      let sources: readonly NotesContextSource[] = [];
      const chat = new ChatService(new ConversationRepository(db), providers, events, {
        ...(router && { router }),
        notes: { contextSources: async () => [...sources] },
      });
      return async (question, given, signal) => {
        sources = given;
        const turn = await chat.send({
          content: question,
          use_notes: true,
          provider_id: model.provider_id,
          model: model.model,
        });
        const stop = (): void => void chat.cancel(turn.turn_id).catch(() => undefined);
        signal.addEventListener('abort', stop, { once: true });
        try {
          const message = await chat.settled(turn.turn_id);
          signal.throwIfAborted();
          const cited = citedBlockIds(message.content, message.citations ?? []);
          const error =
            message.status === 'completed'
              ? null
              : (message.error?.message ?? `the answer ${message.status}`);
          return { cited_block_ids: error === null ? cited : [], error };
        } finally {
          signal.removeEventListener('abort', stop);
        }
      };
    },
  };
}
