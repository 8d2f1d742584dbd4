import { z } from 'zod';
import { AppError } from '../../contracts';
import { MetonaRiskLevel, MetonaToolCategory } from '../../ir';
import { defineTool, truncateText, type AgentToolSpec } from '../tool-registry';
import { appendBlock, replaceBlock } from './note-edits';
import type { NoteRecord, NotesPort } from './ports';
import { unifiedDiff } from './unified-diff';

export const NOTES_WRITE_PERMISSION = 'notes.write';
const DIFF_SUMMARY_CHARS = 2_000;

export async function readNoteOrThrow(
  notes: NotesPort,
  noteId: string,
  signal?: AbortSignal,
): Promise<NoteRecord> {
  const note = await notes.read(noteId, signal);
  if (!note) throw new AppError('NOTE_NOT_FOUND', `No note has the id "${noteId}".`, { note_id: noteId });
  return note;
}

/** The note, refused with NOTE_VERSION_CONFLICT when it moved past the version the model read. */
export async function readNoteAtVersion(
  notes: NotesPort,
  noteId: string,
  expectedVersion: number | undefined,
  signal?: AbortSignal,
): Promise<NoteRecord> {
  const note = await readNoteOrThrow(notes, noteId, signal);
  if (expectedVersion !== undefined && expectedVersion !== note.version) {
    throw new AppError(
      'NOTE_VERSION_CONFLICT',
      `The note is at version ${note.version}, not ${expectedVersion}; read it again.`,
      { note_id: noteId, version: note.version },
    );
  }
  return note;
}

/** `expected_version` of a write tool's arguments. */
export const expectedVersionSchema = z
  .number()
  .int()
  .min(1)
  .optional()
  .describe('The version you read; the change is refused if the note changed since');

export function diffName(note: Pick<NoteRecord, 'title' | 'note_id'>): string {
  return `${(note.title || note.note_id).replace(/[\r\n]/g, ' ')}.md`;
}

export function diffSummary(diff: string): string {
  return diff ? `\n\`\`\`diff\n${truncateText(diff, DIFF_SUMMARY_CHARS)}\n\`\`\`` : '';
}

export function notesTools(notes: NotesPort): AgentToolSpec[] {
  const search = defineTool({
    name: 'notes.search',
    description: 'Find notes by words in their title or text. Returns note ids, titles and snippets.',
    parameters: z.object({
      query: z.string().min(1).max(500).describe('Words to look for'),
      limit: z.number().int().min(1).max(50).default(10).describe('How many notes to return'),
    }),
    category: MetonaToolCategory.SEARCH,
    riskLevel: MetonaRiskLevel.SAFE,
    requiresPermission: false,
    timeoutMs: 15_000,
    async execute({ query, limit }, { signal }) {
      const hits = await notes.search(query, { limit, signal });
      const summary =
        hits.length === 0
          ? `No notes match "${query}".`
          : hits
              .map(
                (hit, index) =>
                  `[${index + 1}] ${hit.title || '(untitled)'} (note_id ${hit.note_id}): ${hit.snippet}`,
              )
              .join('\n');
      return { result: { query, hits }, summary };
    },
  });

  const read = defineTool({
    name: 'notes.read',
    description:
      'Read one note: its text with the id of every block (needed to replace a block with notes.update).',
    parameters: z.object({
      note_id: z.string().min(1).describe('The note id'),
      max_chars: z.number().int().min(500).max(50_000).default(12_000).describe('Longest text to return'),
    }),
    category: MetonaToolCategory.DATABASE,
    riskLevel: MetonaRiskLevel.SAFE,
    requiresPermission: false,
    timeoutMs: 15_000,
    async execute({ note_id, max_chars }, { signal }) {
      const note = await readNoteOrThrow(notes, note_id, signal);
      const truncated = note.body.length > max_chars;
      const header = [
        `# ${note.title || '(untitled)'}`,
        `note_id ${note.note_id} · version ${note.version}` +
          (note.folder ? ` · folder ${note.folder}` : '') +
          (note.tags.length > 0 ? ` · tags ${note.tags.join(', ')}` : ''),
      ];
      let summary = header.join('\n');
      for (const block of note.blocks) {
        const next = `${summary}\n\n[block ${block.block_id}]\n${block.text}`;
        if (next.length > max_chars) {
          summary += '\n\n… (the rest of the note is cut; raise max_chars to read more)';
          break;
        }
        summary = next;
      }
      return {
        result: {
          note_id: note.note_id,
          title: note.title,
          folder: note.folder,
          tags: note.tags,
          version: note.version,
          updated_at: note.updated_at,
          body: note.body.slice(0, max_chars),
          truncated,
          blocks: note.blocks.map(({ block_id, type, start_line, end_line }) => ({
            block_id,
            type,
            start_line,
            end_line,
          })),
        },
        summary,
        citations: [{ note_id: note.note_id, title: note.title }],
      };
    },
  });

  const list = defineTool({
    name: 'notes.list',
    description: 'List notes, newest first, optionally in one folder or with one tag.',
    parameters: z.object({
      folder: z.string().max(1000).optional().describe('Only notes in this folder'),
      tag: z.string().max(100).optional().describe('Only notes with this tag'),
      limit: z.number().int().min(1).max(100).default(20),
      offset: z.number().int().min(0).default(0),
    }),
    category: MetonaToolCategory.DATABASE,
    riskLevel: MetonaRiskLevel.SAFE,
    requiresPermission: false,
    timeoutMs: 15_000,
    async execute({ folder, tag, limit, offset }, { signal }) {
      const page = await notes.list(
        { ...(folder !== undefined && { folder }), ...(tag !== undefined && { tag }), limit, offset },
        signal,
      );
      const lines = page.items.map(
        (item) => `- ${item.title || '(untitled)'} (note_id ${item.note_id}, updated ${item.updated_at})`,
      );
      const summary = `${page.total} note(s)${page.total > page.items.length ? `, showing ${page.items.length} from ${offset}` : ''}:\n${lines.join('\n')}`;
      return { result: page, summary };
    },
  });

  const create = defineTool({
    name: 'notes.create',
    description: 'Create a new note with a title and Markdown text.',
    parameters: z.object({
      title: z.string().min(1).max(500),
      body: z.string().max(200_000).default('').describe('Markdown text'),
      folder: z.string().max(1000).default(''),
      tags: z.array(z.string().min(1).max(100)).max(20).default([]),
    }),
    category: MetonaToolCategory.DATABASE,
    riskLevel: MetonaRiskLevel.LOW,
    requiresPermission: true,
    permission: NOTES_WRITE_PERMISSION,
    async preview({ title, body, folder }) {
      // Where the note lands is part of what the user approves: in the line and the diff's path.
      const place = folder.replace(/^\/+|\/+$/g, '');
      return {
        summary: place
          ? `Create the note “${title}” in the folder “${place}”.`
          : `Create the note “${title}”.`,
        diff: unifiedDiff('', body, place ? `${place}/${title}` : title),
        action: { kind: 'note_create', title, ...(place && { folder: place }) },
      };
    },
    async execute({ title, body, folder, tags }, { runId }) {
      const note = await notes.create({ title, body, folder, tags }, { run_id: runId, tool: 'notes.create' });
      const diff = unifiedDiff('', note.body, diffName(note));
      return {
        result: { note_id: note.note_id, title: note.title, version: note.version, diff },
        summary: `Created the note “${note.title}” (note_id ${note.note_id}).${diffSummary(diff)}`,
      };
    },
  });

  /** The note and the edit an update would make; nothing is written. */
  const planUpdate = async (
    args: {
      note_id: string;
      mode: 'append' | 'replace';
      text: string;
      block_id?: string | undefined;
      expected_version?: number | undefined;
    },
    signal: AbortSignal,
  ) => {
    const { note_id, mode, text, block_id, expected_version } = args;
    const note = await readNoteAtVersion(notes, note_id, expected_version, signal);
    if (mode === 'append') return { note, edit: appendBlock(note.body, text) };
    const block = note.blocks.find((candidate) => candidate.block_id === block_id);
    if (!block) {
      throw new AppError('VALIDATION_FAILED', `The note has no block "${block_id}"; read it again.`, {
        note_id,
        block_id,
      });
    }
    return { note, edit: replaceBlock(note.body, block, text) };
  };

  const update = defineTool({
    name: 'notes.update',
    description:
      'Change a note: append new Markdown at its end, or replace one block (block ids come from notes.read). ' +
      'Returns a unified diff of the change.',
    parameters: z
      .object({
        note_id: z.string().min(1),
        mode: z.enum(['append', 'replace']).describe('append: add at the end; replace: replace block_id'),
        text: z.string().min(1).max(100_000).describe('Markdown to add, or the block’s new text'),
        block_id: z.string().min(1).optional().describe('The block to replace (mode replace)'),
        expected_version: expectedVersionSchema,
      })
      .superRefine((args, ctx) => {
        if (args.mode === 'replace' && args.block_id === undefined) {
          ctx.addIssue({ code: 'custom', path: ['block_id'], message: 'mode "replace" needs a block_id' });
        }
      }),
    category: MetonaToolCategory.DATABASE,
    riskLevel: MetonaRiskLevel.MEDIUM,
    requiresPermission: true,
    permission: NOTES_WRITE_PERMISSION,
    async preview(args, { signal }) {
      const { note, edit } = await planUpdate(args, signal);
      const verb = args.mode === 'append' ? 'Append to' : 'Replace a block in';
      const title = note.title || note.note_id;
      return {
        summary: `${verb} “${title}”.`,
        diff: unifiedDiff(note.body, edit.body, diffName(note)),
        action: { kind: args.mode === 'append' ? 'note_append' : 'note_replace', title },
      };
    },
    async execute(args, { signal, runId }) {
      const { note_id, mode, block_id } = args;
      const { note, edit } = await planUpdate(args, signal);
      const updated = await notes.update(
        { note_id, body: edit.body, expected_version: note.version },
        { run_id: runId, tool: 'notes.update' },
      );
      const diff = unifiedDiff(note.body, updated.body, diffName(updated));
      const newBlock = updated.blocks.find((candidate) => candidate.start_line === edit.startLine);
      const verb = mode === 'append' ? 'Appended to' : `Replaced block ${block_id} in`;
      return {
        result: {
          note_id,
          title: updated.title,
          version: updated.version,
          mode,
          ...(newBlock && { block_id: newBlock.block_id }),
          diff,
        },
        summary: `${verb} “${updated.title}” (now version ${updated.version}).${diffSummary(diff)}`,
      };
    },
  });

  return [search, read, list, create, update];
}
