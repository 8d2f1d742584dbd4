import { AppError, isAbortError, type ProposedQuestionDto } from '../contracts';
import {
  QUESTIONS_SCHEMA,
  headingSections,
  parseProposedQuestions,
  questionsPrompt,
  type HeadingSection,
} from '../benchmarks';
import { newId, type Clock } from '../core/ids';
import type { NotesRepository } from '../db';
import type { MetonaRequest, MetonaResponseFormat } from '../ir';
import { CAPABILITY_MISMATCH, toMetonaError } from '../providers/shared/errors';
import type { AgentAdapterFactory } from './agent-service';

const QUESTIONS_FORMAT: MetonaResponseFormat = {
  type: 'json_schema',
  name: 'heading_questions',
  schema: QUESTIONS_SCHEMA as unknown as Record<string, unknown>,
  strict: true,
};

const SYSTEM_PROMPT = {
  roleDefinition: 'You write retrieval benchmark questions for a personal notebook.',
  outputConstraints: 'Reply with the JSON asked for and nothing else.',
  safetyGuidelines: 'Ask only about what a section says; never invent facts.',
};

export interface ProposeQuestionsRequest {
  provider_id: string;
  model: string;
  note_ids?: string[] | undefined;
  limit: number;
}

/** The sections of the chosen (or every live) note, in note order, at most `limit`. */
export async function sectionsOf(
  notes: NotesRepository,
  noteIds: readonly string[] | undefined,
  limit: number,
): Promise<HeadingSection[]> {
  const chosen: Array<{ note_id: string; title: string }> = [];
  if (noteIds) {
    for (const noteId of noteIds) {
      const note = await notes.get(noteId);
      if (!note || note.deleted_at !== null) {
        throw new AppError('RESOURCE_NOT_FOUND', 'This note does not exist.', { note_id: noteId });
      }
      chosen.push(note);
    }
  } else {
    // Titles from the meta rows: the sections come from blocks, so no body is read here.
    await notes.forEachSummaryPage(await notes.noteIds({ trashed: false }), (page) => {
      chosen.push(...page);
    });
  }
  const sections: HeadingSection[] = [];
  for (const note of chosen) {
    if (sections.length >= limit) break;
    sections.push(...headingSections(note.title, await notes.blocks(note.note_id)));
  }
  return sections.slice(0, limit);
}

/**
 * Asks the chosen model, once, for a question per section (JSON by schema; as
 * plain text where the model cannot take a format, the prompt asks for JSON
 * anyway). Only the sections' text goes to that model.
 */
export async function proposeQuestions(
  adapters: AgentAdapterFactory,
  sections: readonly HeadingSection[],
  request: ProposeQuestionsRequest,
  clock: Clock,
  signal?: AbortSignal,
): Promise<ProposedQuestionDto[]> {
  if (sections.length === 0) return [];
  // The adapter is bound to the chosen model (routing and fallback included).
  const { adapter } = await adapters({ provider: request.provider_id, model: request.model });
  const build = (responseFormat?: MetonaResponseFormat): MetonaRequest => {
    const now = clock();
    return {
      meta: {
        sessionId: newId('questions'),
        iteration: 1,
        requestId: newId('questions'),
        timestamp: now,
        agentVersion: '1.0.0',
      },
      systemPrompt: SYSTEM_PROMPT,
      messages: [{ role: 'user', content: questionsPrompt(sections), timestamp: now }],
      params: { stream: true, temperature: 0, ...(responseFormat && { responseFormat }) },
    };
  };
  const options = signal ? { signal } : {};
  let content: string;
  try {
    try {
      content = (await adapter.send(build(QUESTIONS_FORMAT), options)).content;
    } catch (error) {
      if (signal?.aborted) throw error;
      if (toMetonaError(error, adapter.providerId).providerCode !== CAPABILITY_MISMATCH) throw error;
      content = (await adapter.send(build(), options)).content;
    }
  } catch (error) {
    if (isAbortError(error) || signal?.aborted) throw error;
    const metona = toMetonaError(error, adapter.providerId);
    throw new AppError(
      'BENCHMARK_RUN_FAILED',
      `The model could not propose questions: ${metona.message}`,
      { provider_id: request.provider_id, reason: metona.code },
      { cause: error },
    );
  }
  const proposals = parseProposedQuestions(content, sections);
  if (proposals === null) {
    throw new AppError('BENCHMARK_RUN_FAILED', 'The model did not answer with the questions asked for.', {
      provider_id: request.provider_id,
      reason: 'invalid_answer',
    });
  }
  return proposals;
}
