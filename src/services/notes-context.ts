import type { ChatCitationDto } from '../contracts';

/**
 * A block given to "Ask your notes" as a numbered source: the citation (what the
 * user sees: the block's own text) plus the passage the model reads, the block's
 * full text after its heading path ("Scheduling › Round robin: …").
 */
export interface NotesContextSource extends Omit<ChatCitationDto, 'index'> {
  text: string;
}

/** What the chat asks for the sources of a message (the search service answers). */
export interface NotesContextProvider {
  contextSources(query: string): Promise<NotesContextSource[]>;
}

/** Opens the sources section of the system prompt; the mock provider looks for it. */
export const SOURCES_HEADING = 'Sources from the user\u2019s notes:';

const SOURCE_LINE = /^\[(\d+)\] (.*?) \u2014 /m;

/** One line per source, `[n] <title> — <block text>`, with the instruction to cite. */
export function formatSources(sources: readonly NotesContextSource[]): string {
  const lines = sources.map(
    (source, index) => `[${index + 1}] ${oneLine(source.title) || 'Untitled'} \u2014 ${oneLine(source.text)}`,
  );
  return [
    SOURCES_HEADING,
    ...lines,
    'Answer from these sources when they are relevant, and cite each source you use as [n], ' +
      'with its number. Do not cite a number that is not listed.',
  ].join('\n');
}

/** The title of source [1] in a system prompt section, or undefined when it has no sources. */
export function firstSourceTitle(section: string | undefined): string | undefined {
  if (!section?.includes(SOURCES_HEADING)) return undefined;
  const match = SOURCE_LINE.exec(section.slice(section.indexOf(SOURCES_HEADING)));
  return match && match[1] === '1' ? match[2] : undefined;
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}
