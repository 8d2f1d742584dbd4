import { z } from 'zod';
import { folderSchema, tagsSchema } from '../../contracts';
import { hasTag } from '../../core/tag-key';
import { MetonaRiskLevel, MetonaToolCategory } from '../../ir';
import { defineTool, type AgentToolSpec } from '../tool-registry';
import { expectedVersionSchema, NOTES_WRITE_PERMISSION, readNoteAtVersion } from './notes-tools';
import type { NoteRecord, NotesPort } from './ports';

interface OrganiseArgs {
  note_id: string;
  folder?: string | undefined;
  add_tags: string[];
  remove_tags: string[];
  expected_version?: number | undefined;
}

/** What a call would change in this note: only real changes, so the prompt never lists a no-op. */
interface OrganisePlan {
  note: NoteRecord;
  /** The new folder; null when the note stays where it is. */
  folder: string | null;
  tags: string[];
  added: string[];
  removed: string[];
}

const tagList = (tags: readonly string[]) => tags.map((tag) => `#${tag}`).join(' ');

/**
 * Tags compare without case, as the tag list and search count them (tagKey): removing `os` takes
 * the note's `OS`, and adding `Draft` to a note tagged `draft` is no change. What is removed is
 * named as the note spells it; what is added keeps the model's first spelling.
 */
function planOrganise(note: NoteRecord, args: OrganiseArgs): OrganisePlan {
  const folder = args.folder !== undefined && args.folder !== note.folder ? args.folder : null;
  const removed = note.tags.filter((tag) => hasTag(args.remove_tags, tag));
  const kept = note.tags.filter((tag) => !hasTag(removed, tag));
  const added: string[] = [];
  for (const tag of args.add_tags) if (!hasTag(kept, tag) && !hasTag(added, tag)) added.push(tag);
  return { note, folder, tags: [...kept, ...added], added, removed };
}

/** One English line for the trace and the model; the prompt words the same data in the UI's language. */
function describePlan(plan: OrganisePlan, tense: 'will' | 'did'): string {
  const title = plan.note.title || plan.note.note_id;
  const parts: string[] = [];
  if (plan.folder !== null) {
    const where = plan.folder === '' ? 'to the top level (no folder)' : `to the folder “${plan.folder}”`;
    parts.push(`${tense === 'will' ? 'Move' : 'Moved'} “${title}” ${where}.`);
  }
  if (plan.added.length > 0) {
    parts.push(`${tense === 'will' ? 'Tag' : 'Tagged'} “${title}” with ${tagList(plan.added)}.`);
  }
  if (plan.removed.length > 0) {
    parts.push(`${tense === 'will' ? 'Remove' : 'Removed'} ${tagList(plan.removed)} from “${title}”.`);
  }
  return parts.length > 0
    ? parts.join(' ')
    : `“${title}” already is where and how it was asked; nothing to change.`;
}

/**
 * `notes.organise`: a note's folder and tags. A tool of its own rather than a
 * mode of notes.update: it never touches the text, so it needs no block ids or
 * diff, asks with its own wording, and one call can move and tag together.
 */
export function notesOrganiseTool(notes: NotesPort): AgentToolSpec {
  const plan = async (args: OrganiseArgs, signal: AbortSignal): Promise<OrganisePlan> => {
    const note = await readNoteAtVersion(notes, args.note_id, args.expected_version, signal);
    return planOrganise(note, args);
  };

  return defineTool({
    name: 'notes.organise',
    description:
      'Move a note into a folder and/or add or remove its tags; its title and text stay as they are. ' +
      'Folders are paths like "Courses/OS" ("" is the top level); a folder that does not exist yet is made.',
    parameters: z
      .object({
        note_id: z.string().min(1),
        folder: folderSchema.optional().describe('The folder to move the note into; "" for the top level'),
        add_tags: tagsSchema.default([]).describe('Tags to add (without #)'),
        remove_tags: tagsSchema.default([]).describe('Tags to remove'),
        expected_version: expectedVersionSchema,
      })
      .superRefine((args, ctx) => {
        if (args.folder === undefined && args.add_tags.length === 0 && args.remove_tags.length === 0) {
          ctx.addIssue({ code: 'custom', path: [], message: 'give a folder, add_tags or remove_tags' });
        }
        const both = args.add_tags.filter((tag) => hasTag(args.remove_tags, tag));
        if (both.length > 0) {
          ctx.addIssue({
            code: 'custom',
            path: ['remove_tags'],
            message: `a tag cannot be both added and removed: ${both.join(', ')}`,
          });
        }
      }),
    category: MetonaToolCategory.DATABASE,
    riskLevel: MetonaRiskLevel.LOW,
    requiresPermission: true,
    permission: NOTES_WRITE_PERMISSION,
    async preview(args, { signal }) {
      const planned = await plan(args, signal);
      return {
        summary: describePlan(planned, 'will'),
        action: {
          kind: 'note_organise',
          title: planned.note.title || planned.note.note_id,
          folder: planned.folder,
          tags_added: planned.added,
          tags_removed: planned.removed,
        },
      };
    },
    async execute(args, { signal, runId }) {
      const planned = await plan(args, signal);
      const { note } = planned;
      const unchanged = planned.folder === null && planned.added.length === 0 && planned.removed.length === 0;
      let updated = note;
      if (!unchanged) {
        signal.throwIfAborted();
        updated = await notes.organise(
          {
            note_id: note.note_id,
            expected_version: note.version,
            ...(planned.folder !== null && { folder: planned.folder }),
            ...((planned.added.length > 0 || planned.removed.length > 0) && { tags: planned.tags }),
          },
          { run_id: runId, tool: 'notes.organise' },
        );
      }
      return {
        result: {
          note_id: updated.note_id,
          title: updated.title,
          version: updated.version,
          folder: updated.folder,
          tags: updated.tags,
          previous: { folder: note.folder, tags: note.tags },
          changed: !unchanged,
        },
        summary:
          describePlan(planned, 'did') +
          (unchanged
            ? ''
            : ` It is now in ${updated.folder ? `“${updated.folder}”` : 'the top level'}` +
              ` with tags ${updated.tags.length > 0 ? tagList(updated.tags) : '(none)'} (version ${updated.version}).`),
      };
    },
  });
}
