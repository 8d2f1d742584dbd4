// The generated notebook the index benches write through the app's repository:
// notes of five blocks (a heading, two paragraphs, a list, code) with words
// drawn from the retrieval corpus, the same notes on every run.
import { NotesRepository, type NoteDraft, type NotesAgentDatabase } from '../src/db';
import { timed } from './figures';
import { benchCorpus, lcg } from './search-corpus';

/** The corpus's plain words of four letters or more, sorted: what the notes are written in. */
export function notebookWords(): string[] {
  return benchCorpus().vocabulary.filter((term) => /^[a-z]{4,}$/.test(term));
}

/**
 * `count` notes. With `firstAt` each note has its own time, a minute after the
 * one before, as notes written over months (or imported with their times) do;
 * without it the repository stamps them all as written now.
 */
export function notebookDrafts(count: number, words: readonly string[], firstAt?: string): NoteDraft[] {
  const next = lcg(11);
  const word = () => words[next() % words.length]!;
  const sentence = (n: number) => Array.from({ length: n }, word).join(' ');
  const start = firstAt === undefined ? undefined : Date.parse(firstAt);
  return Array.from({ length: count }, (_, i) => {
    const draft: NoteDraft = {
      title: `${word()} ${word()} ${i}`,
      folder: `folder-${i % 20}`,
      tags: [`t${i % 7}`],
      body: `# ${sentence(3)}\n\n${sentence(24)}.\n\n${sentence(18)}.\n\n- ${sentence(4)}\n- ${sentence(4)}\n\n\`\`\`js\nconsole.log(${i});\n\`\`\`\n`,
    };
    if (start !== undefined) draft.created_at = draft.updated_at = new Date(start + i * 60_000).toISOString();
    return draft;
  });
}

/** Writes `drafts` through the repository in batches of 500: how long it took and how many blocks it made. */
export async function writeNotebook(
  db: NotesAgentDatabase,
  drafts: readonly NoteDraft[],
): Promise<{ repository: NotesRepository; insertMs: number; blocks: number }> {
  const repository = new NotesRepository(db);
  const [, insertMs] = await timed(async () => {
    for (let i = 0; i < drafts.length; i += 500) await repository.createMany(drafts.slice(i, i + 500));
  });
  return { repository, insertMs, blocks: await db.blocks.count() };
}
