import { z } from 'zod';
import type { ProposedQuestionDto } from '../contracts/benchmark';
import { MAX_BENCHMARK_QUERY_LENGTH } from '../contracts/benchmark-schemas';

/** Characters of a section the model sees: enough to ask about it, small enough for many headings. */
const SECTION_CHARS = 600;

/** A block as the notes repository lists it, in note order. */
export interface SectionBlock {
  block_id: string;
  note_id: string;
  type: string;
  text: string;
}

/** A heading with the text under it; a case built from it expects the section's first block. */
export interface HeadingSection {
  note_id: string;
  note_title: string;
  heading: string;
  /** The first block under the heading: the one a question about the section should find. */
  block_id: string;
  text: string;
}

/** A question the model proposed for a section, for the user to accept or edit. */
export type ProposedQuestion = ProposedQuestionDto;

/**
 * The headings of a note that have something under them (up to the next
 * heading): headings with nothing below them cannot be the answer to anything.
 */
export function headingSections(noteTitle: string, blocks: readonly SectionBlock[]): HeadingSection[] {
  const sections: HeadingSection[] = [];
  blocks.forEach((block, index) => {
    if (block.type !== 'heading') return;
    const body: SectionBlock[] = [];
    for (const next of blocks.slice(index + 1)) {
      if (next.type === 'heading') break;
      body.push(next);
    }
    if (body.length === 0) return;
    sections.push({
      note_id: block.note_id,
      note_title: noteTitle,
      heading: block.text.replace(/^#+\s*/u, '').trim(),
      block_id: body[0]!.block_id,
      text: body
        .map((entry) => entry.text)
        .join('\n\n')
        .slice(0, SECTION_CHARS),
    });
  });
  return sections;
}

export const QUESTIONS_SCHEMA = {
  type: 'object',
  properties: {
    questions: {
      type: 'array',
      items: {
        type: 'object',
        properties: { section: { type: 'integer' }, question: { type: 'string' } },
        required: ['section', 'question'],
        additionalProperties: false,
      },
    },
  },
  required: ['questions'],
  additionalProperties: false,
} as const;

/** The request's text: numbered sections, each asked for one question it answers. */
export function questionsPrompt(sections: readonly HeadingSection[]): string {
  const lines = [
    'For each numbered section of my notes below, write one question, in the language of the section,',
    'that the section answers and that someone could ask without having seen it.',
    'Answer as JSON: {"questions": [{"section": <number>, "question": "<question>"}]}.',
    '',
  ];
  sections.forEach((section, index) => {
    lines.push(`[${index + 1}] ${section.note_title} > ${section.heading}`, section.text, '');
  });
  return lines.join('\n');
}

const answerSchema = z.object({
  questions: z.array(z.object({ section: z.number().int(), question: z.string() }).passthrough()),
});

/**
 * The model's answer as proposals: one per section it named, in section order;
 * numbers outside the list, repeats and empty questions are dropped. Returns
 * null when the answer is not the JSON asked for.
 */
export function parseProposedQuestions(
  content: string,
  sections: readonly HeadingSection[],
): ProposedQuestion[] | null {
  // Some models wrap JSON in a code fence even when asked for JSON alone.
  const json = content
    .trim()
    .replace(/^```(?:json)?\s*/u, '')
    .replace(/\s*```$/u, '');
  let parsed: z.infer<typeof answerSchema>;
  try {
    const result = answerSchema.safeParse(JSON.parse(json));
    if (!result.success) return null;
    parsed = result.data;
  } catch {
    return null;
  }
  const byIndex = new Map<number, string>();
  for (const entry of parsed.questions) {
    const query = entry.question.trim().slice(0, MAX_BENCHMARK_QUERY_LENGTH);
    const index = entry.section - 1;
    if (query === '' || index < 0 || index >= sections.length || byIndex.has(index)) continue;
    byIndex.set(index, query);
  }
  return [...byIndex.entries()]
    .sort(([a], [b]) => a - b)
    .map(([index, query]) => {
      const section = sections[index]!;
      return {
        note_id: section.note_id,
        note_title: section.note_title,
        heading: section.heading,
        block_id: section.block_id,
        query,
      };
    });
}
