import type { TimelineItem, ToolCallItem } from './timeline';

/**
 * What a built-in note tool did to a note, read from the structured result its
 * ToolResult carries (not from its summary, which is English text written for
 * the model), so the timeline can say it in the reader's language and link the note.
 */

/** How a run wrote to a note, as the finished run's list names it. */
export type NoteWrite = 'created' | 'edited' | 'tagged' | 'moved';

export type ToolNoteOutcome =
  | { kind: 'created'; note_id: string; title: string; folder: string }
  | { kind: 'appended' | 'replaced'; note_id: string; title: string }
  | { kind: 'read'; note_id: string; title: string }
  | { kind: 'tasks'; note_id: string; title: string; count: number; created_note: boolean }
  | {
      kind: 'organised';
      note_id: string;
      title: string;
      /** The new folder ('' the top level); null when the note stayed where it was. */
      moved_to: string | null;
      tags_added: string[];
      tags_removed: string[];
    };

export interface RunNoteChange {
  note_id: string;
  /** The title after the run's last write to the note. */
  title: string;
  what: NoteWrite[];
}

const NOTE_TOOLS: ReadonlySet<string> = new Set([
  'notes.create',
  'notes.update',
  'notes.organise',
  'notes.read',
  'tasks.create',
]);

const stringsOf = (value: unknown): string[] =>
  Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];

/**
 * A result too large for the trace is stored as the first characters of its JSON. The
 * tools write `note_id` and `title` first, so those (and the short flags) are read from
 * that preview; the first occurrence of a key is the top-level one.
 */
function fieldsOfPreview(preview: string): Record<string, unknown> {
  const fields: Record<string, unknown> = {};
  for (const key of ['note_id', 'title', 'mode', 'created_note']) {
    const match = new RegExp(`"${key}":("(?:[^"\\\\]|\\\\.)*"|true|false)`).exec(preview);
    if (!match?.[1]) continue;
    try {
      fields[key] = JSON.parse(match[1]) as unknown;
    } catch {
      // A string cut inside an escape: not a value to show.
    }
  }
  return fields;
}

function resultFields(result: unknown): Record<string, unknown> | null {
  if (typeof result === 'string') return fieldsOfPreview(result);
  return typeof result === 'object' && result !== null && !Array.isArray(result)
    ? (result as Record<string, unknown>)
    : null;
}

/** Tags compare without case, as the organise tool compares them. */
function missingFrom(tags: readonly string[], other: readonly string[]): string[] {
  const keys = new Set(other.map((tag) => tag.toLowerCase()));
  return tags.filter((tag) => !keys.has(tag.toLowerCase()));
}

/** What a finished built-in note tool did, by note; null for any other tool, a failure or an unreadable result. */
export function toolNoteOutcome(item: ToolCallItem): ToolNoteOutcome | null {
  if (item.status !== 'ok' || !NOTE_TOOLS.has(item.name)) return null;
  const fields = resultFields(item.result);
  if (!fields) return null;
  const note_id = typeof fields.note_id === 'string' ? fields.note_id : '';
  if (note_id === '') return null;
  const title = typeof fields.title === 'string' && fields.title !== '' ? fields.title : note_id;
  switch (item.name) {
    case 'notes.create': {
      const args = (item.arguments ?? {}) as Record<string, unknown>;
      const folder = typeof args.folder === 'string' ? args.folder.replace(/^\/+|\/+$/g, '') : '';
      return { kind: 'created', note_id, title, folder };
    }
    case 'notes.update':
      return { kind: fields.mode === 'replace' ? 'replaced' : 'appended', note_id, title };
    case 'notes.read':
      return { kind: 'read', note_id, title };
    case 'tasks.create':
      return {
        kind: 'tasks',
        note_id,
        title,
        count: Array.isArray(fields.tasks) ? fields.tasks.length : 0,
        created_note: fields.created_note === true,
      };
    default: {
      const previous = (fields.previous ?? {}) as Record<string, unknown>;
      const tags = stringsOf(fields.tags);
      const before = stringsOf(previous.tags);
      const folder = typeof fields.folder === 'string' ? fields.folder : null;
      const moved = fields.changed !== false && folder !== null && folder !== previous.folder;
      return {
        kind: 'organised',
        note_id,
        title,
        moved_to: moved ? folder : null,
        tags_added: fields.changed === false ? [] : missingFrom(tags, before),
        tags_removed: fields.changed === false ? [] : missingFrom(before, tags),
      };
    }
  }
}

function writesOf(outcome: ToolNoteOutcome): NoteWrite[] {
  switch (outcome.kind) {
    case 'created':
      return ['created'];
    case 'appended':
    case 'replaced':
      return ['edited'];
    case 'tasks':
      return [outcome.created_note ? 'created' : 'edited'];
    case 'organised': {
      const writes: NoteWrite[] = [];
      if (outcome.moved_to !== null) writes.push('moved');
      if (outcome.tags_added.length > 0 || outcome.tags_removed.length > 0) writes.push('tagged');
      return writes;
    }
    case 'read':
      return [];
  }
}

const ORDER: readonly NoteWrite[] = ['created', 'edited', 'moved', 'tagged'];

/**
 * The notes a run wrote, each once, in the order it first wrote them: what it did to
 * each (created, edited, moved, tagged) and the title it left the note with.
 */
export function runNoteChanges(items: readonly TimelineItem[]): RunNoteChange[] {
  const changes = new Map<string, RunNoteChange>();
  for (const item of items) {
    if (item.kind !== 'tool_call') continue;
    const outcome = toolNoteOutcome(item);
    if (!outcome) continue;
    const writes = writesOf(outcome);
    if (writes.length === 0) continue;
    const change = changes.get(outcome.note_id) ?? {
      note_id: outcome.note_id,
      title: outcome.title,
      what: [],
    };
    change.title = outcome.title;
    for (const write of writes) if (!change.what.includes(write)) change.what.push(write);
    changes.set(outcome.note_id, change);
  }
  // A note the run created is "created", not also "edited": its first text was the run's too.
  return [...changes.values()].map((change) => ({
    ...change,
    what: ORDER.filter(
      (write) => change.what.includes(write) && !(write === 'edited' && change.what.includes('created')),
    ),
  }));
}

/**
 * Whether a stopped tool call had already started: the trace says so in the registry's
 * result ("cancelled while the tool was running"); one stopped at its permission prompt,
 * or before it was called, had not.
 */
export function stoppedWhileRunning(item: ToolCallItem): boolean {
  return item.status === 'cancelled' && /while the tool was running/i.test(item.error ?? item.summary ?? '');
}

/**
 * The final answer said once: the last model call's text is the run's output, which the
 * run's "Answer" shows. Returns the key of the call whose text repeats it, or null.
 */
export function answerRepeatedBy(items: readonly TimelineItem[]): string | null {
  const completed = items.findLast((item) => item.event === 'RunCompleted');
  if (completed?.kind !== 'event') return null;
  const output = typeof completed.data.output === 'string' ? completed.data.output.trim() : '';
  const last = items.findLast((item) => item.kind === 'model_call');
  if (last?.kind !== 'model_call' || output === '') return null;
  return last.text.trim() === output ? last.key : null;
}

/**
 * A translated sentence cut where its note goes, so the note's title can be a link in
 * any language's word order: `marker` is what the caller passed as the note's value.
 */
export function aroundNote(sentence: string, marker: string): { before: string; after: string } {
  const at = sentence.indexOf(marker);
  if (at === -1) return { before: sentence, after: '' };
  return { before: sentence.slice(0, at), after: sentence.slice(at + marker.length) };
}
