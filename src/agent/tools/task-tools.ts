import { z } from 'zod';
import { MetonaRiskLevel, MetonaToolCategory } from '../../ir';
import { defineTool, type AgentToolSpec } from '../tool-registry';
import { appendBlock, checklistLines, parseChecklist } from './note-edits';
import { NOTES_WRITE_PERMISSION, diffName, diffSummary, readNoteOrThrow } from './notes-tools';
import type { NoteRecord, NotesPort } from './ports';
import { unifiedDiff } from './unified-diff';

/** Notes scanned by `tasks.list` without a note id. */
const MAX_SCANNED_NOTES = 200;

function checklistText(tasks: readonly string[], heading: string | undefined): string {
  const headingLines = heading ? [`## ${heading.replace(/\s+/g, ' ').trim()}`, ''] : [];
  return [...headingLines, ...checklistLines(tasks)].join('\n');
}

/** Tasks are Markdown checklist items (`- [ ] …`) inside notes. */
export function taskTools(notes: NotesPort): AgentToolSpec[] {
  const create = defineTool({
    name: 'tasks.create',
    description:
      'Add tasks as a Markdown checklist (- [ ] …): appended to an existing note, or in a new note when ' +
      'note_id is omitted.',
    parameters: z.object({
      tasks: z.array(z.string().min(1).max(500)).min(1).max(50).describe('One entry per task'),
      note_id: z.string().min(1).optional().describe('The note to add the tasks to'),
      note_title: z.string().min(1).max(500).default('Tasks').describe('Title of the new note'),
      heading: z.string().min(1).max(200).optional().describe('A heading above the checklist'),
    }),
    category: MetonaToolCategory.DATABASE,
    riskLevel: MetonaRiskLevel.LOW,
    requiresPermission: true,
    permission: NOTES_WRITE_PERMISSION,
    async preview({ tasks, note_id, note_title, heading }, { signal }) {
      const text = checklistText(tasks, heading);
      if (note_id === undefined) {
        return {
          summary: `Create the note “${note_title}” with ${tasks.length} task(s).`,
          diff: unifiedDiff('', `${text}\n`, note_title),
          action: { kind: 'tasks_create', title: note_title, count: tasks.length },
        };
      }
      const current = await readNoteOrThrow(notes, note_id, signal);
      const edit = appendBlock(current.body, text);
      return {
        summary: `Add ${tasks.length} task(s) to “${current.title || current.note_id}”.`,
        diff: unifiedDiff(current.body, edit.body, diffName(current)),
        action: { kind: 'tasks_add', title: current.title || current.note_id, count: tasks.length },
      };
    },
    async execute({ tasks, note_id, note_title, heading }, { signal, runId }) {
      const lines = checklistLines(tasks);
      const headingLines = heading ? [`## ${heading.replace(/\s+/g, ' ').trim()}`, ''] : [];
      const text = checklistText(tasks, heading);
      let before = '';
      let note: NoteRecord;
      let firstTaskLine: number;
      if (note_id === undefined) {
        note = await notes.create(
          { title: note_title, body: `${text}\n`, folder: '', tags: [] },
          { run_id: runId, tool: 'tasks.create' },
        );
        firstTaskLine = headingLines.length;
      } else {
        const current = await readNoteOrThrow(notes, note_id, signal);
        before = current.body;
        const edit = appendBlock(current.body, text);
        note = await notes.update(
          { note_id, body: edit.body, expected_version: current.version },
          { run_id: runId, tool: 'tasks.create' },
        );
        firstTaskLine = edit.startLine + headingLines.length;
      }
      const diff = unifiedDiff(before, note.body, diffName(note));
      const created = lines.map((line, index) => ({
        text: line.slice('- [ ] '.length),
        line: firstTaskLine + index,
      }));
      return {
        result: {
          note_id: note.note_id,
          title: note.title,
          version: note.version,
          created_note: note_id === undefined,
          tasks: created,
          diff,
        },
        summary:
          `Added ${created.length} task(s) to “${note.title}” (note_id ${note.note_id}).` + diffSummary(diff),
      };
    },
  });

  const list = defineTool({
    name: 'tasks.list',
    description: 'List checklist tasks (- [ ] / - [x]) of one note, or of the most recent notes.',
    parameters: z.object({
      note_id: z.string().min(1).optional().describe('Only this note'),
      status: z.enum(['open', 'done', 'all']).default('open'),
      limit: z.number().int().min(1).max(200).default(50),
    }),
    category: MetonaToolCategory.DATABASE,
    riskLevel: MetonaRiskLevel.SAFE,
    requiresPermission: false,
    timeoutMs: 20_000,
    async execute({ note_id, status, limit }, { signal }) {
      const sources: NoteRecord[] = [];
      if (note_id !== undefined) {
        sources.push(await readNoteOrThrow(notes, note_id, signal));
      } else {
        const page = await notes.list({ limit: MAX_SCANNED_NOTES, offset: 0 }, signal);
        for (const item of page.items) {
          signal.throwIfAborted();
          const note = await notes.read(item.note_id, signal);
          if (note) sources.push(note);
        }
      }
      const all = sources.flatMap((note) =>
        parseChecklist(note.body).map((item) => ({ note_id: note.note_id, title: note.title, ...item })),
      );
      const matching = all.filter((task) => status === 'all' || (status === 'done') === task.done);
      const tasks = matching.slice(0, limit);
      const summary =
        tasks.length === 0
          ? `No ${status === 'all' ? '' : `${status} `}tasks found.`
          : tasks
              .map(
                (task) =>
                  `- [${task.done ? 'x' : ' '}] ${task.text} (${task.title || task.note_id}, line ${task.line + 1})`,
              )
              .join('\n');
      return { result: { tasks, total: matching.length, notes_scanned: sources.length }, summary };
    },
  });

  return [create, list];
}
