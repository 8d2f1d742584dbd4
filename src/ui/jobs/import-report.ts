import { errorText, t } from '../i18n';
import type { MessageKey } from '../i18n/en';
import type { JobErrorInfo } from './job-events';

const MIB = 1024 * 1024;

/** What the user reads about a failed import: why, in their language, and what to do next. */
export interface ImportFailureText {
  text: string;
  next: string | null;
}

type ReasonTexts = { text: MessageKey; next: MessageKey; limit?: 'mib' | 'count' };

/**
 * The archive reasons the core puts in `details.reason`. The core's message is
 * English and is not shown: the reason, the entry and the limit are enough to
 * say the same in the reader's language.
 */
const REASONS: Readonly<Record<string, ReasonTexts>> = {
  no_markdown: { text: 'vaultImport.fail.noMarkdown', next: 'vaultImport.fail.noMarkdownNext' },
  entry_too_large: {
    text: 'vaultImport.fail.entryTooLarge',
    next: 'vaultImport.fail.entryTooLargeNext',
    limit: 'mib',
  },
  total_too_large: {
    text: 'vaultImport.fail.totalTooLarge',
    next: 'vaultImport.fail.totalTooLargeNext',
    limit: 'mib',
  },
  ratio_too_high: {
    text: 'vaultImport.fail.ratioTooHigh',
    next: 'vaultImport.fail.ratioTooHighNext',
    limit: 'count',
  },
  too_many_entries: {
    text: 'vaultImport.fail.tooManyEntries',
    next: 'vaultImport.fail.tooManyEntriesNext',
    limit: 'count',
  },
  path_too_deep: {
    text: 'vaultImport.fail.pathTooDeep',
    next: 'vaultImport.fail.pathTooLongNext',
    limit: 'count',
  },
  name_too_long: {
    text: 'vaultImport.fail.nameTooLong',
    next: 'vaultImport.fail.pathTooLongNext',
    limit: 'count',
  },
};

function limitText(limit: unknown, unit: 'mib' | 'count' | undefined): string {
  if (typeof limit !== 'number') return '';
  return unit === 'mib' ? String(Math.round(limit / MIB)) : String(limit);
}

export function importFailure(error: JobErrorInfo): ImportFailureText {
  const { reason, entry, limit } = error.details;
  const entryText = typeof entry === 'string' ? entry : '';
  if (error.code === 'IMPORT_ARCHIVE_INVALID' || error.code === 'PAYLOAD_TOO_LARGE') {
    const texts = typeof reason === 'string' ? REASONS[reason] : undefined;
    if (texts) {
      return {
        text: t(texts.text, { entry: entryText, limit: limitText(limit, texts.limit) }),
        next: t(texts.next),
      };
    }
    if (error.code === 'IMPORT_ARCHIVE_INVALID') {
      // A damaged entry inside a real zip is not the same as a file that is no zip at all.
      return entryText !== ''
        ? {
            text: t('vaultImport.fail.brokenEntry', { entry: entryText }),
            next: t('vaultImport.fail.brokenEntryNext'),
          }
        : { text: t('vaultImport.fail.notZip'), next: t('vaultImport.fail.notZipNext') };
    }
  }
  return { text: errorText(error.code, error.message), next: null };
}

/** One thing the import renamed, repaired or left out, as the core reports it. */
export interface ImportReportEntry {
  path: string;
  reason: string;
  action: string;
  renamed_to?: string;
}

/** A note the import names: openable where it has an id. */
export interface NamedNote {
  note_id: string | null;
  title: string;
  existing_title?: string;
}

/** One kind of note the import names, with how many there were in all (more than are named). */
export interface NamedNotes {
  kind: 'created' | 'updated' | 'skipped';
  notes: NamedNote[];
  count: number;
}

export interface ImportReport {
  created: number;
  updated: number;
  skipped: number;
  /** The notes added, updated and skipped, by name; empty kinds are left out. */
  named: NamedNotes[];
  entries: ImportReportEntry[];
  /** Files renamed, repaired or left out: the entries, and left-out files past the listed ones. */
  count: number;
}

function asEntry(value: unknown): ImportReportEntry | null {
  if (typeof value !== 'object' || value === null) return null;
  const { path, reason, action, renamed_to } = value as Record<string, unknown>;
  if (typeof path !== 'string' || typeof reason !== 'string' || typeof action !== 'string') return null;
  return { path, reason, action, ...(typeof renamed_to === 'string' ? { renamed_to } : {}) };
}

function asNamed(value: unknown): NamedNote | null {
  if (typeof value !== 'object' || value === null) return null;
  const { note_id, title, existing_title } = value as Record<string, unknown>;
  if (typeof title !== 'string' || (note_id !== null && typeof note_id !== 'string')) return null;
  return { note_id, title, ...(typeof existing_title === 'string' ? { existing_title } : {}) };
}

/** The notes a result names, kind by kind, each with its full count; none for results before names were kept. */
function namedNotes(record: Record<string, unknown>): NamedNotes[] {
  const { notes } = record;
  if (typeof notes !== 'object' || notes === null) return [];
  const lists = notes as Record<string, unknown>;
  const counts = {
    created: record['created'],
    updated: record['updated'],
    skipped: record['duplicates_skipped'],
  };
  return (['created', 'updated', 'skipped'] as const).flatMap((kind) => {
    const list = lists[kind];
    const named = Array.isArray(list)
      ? list.map(asNamed).filter((note): note is NamedNote => note !== null)
      : [];
    const count = counts[kind];
    return named.length === 0
      ? []
      : [
          {
            kind,
            notes: named,
            count: typeof count === 'number' ? Math.max(count, named.length) : named.length,
          },
        ];
  });
}

const NAMED_KEYS = {
  created: { label: 'importNotes.created', as: null },
  updated: { label: 'importNotes.updated', as: 'importNotes.updatedWas' },
  skipped: { label: 'importNotes.skipped', as: 'importNotes.skippedAs' },
} as const satisfies Record<NamedNotes['kind'], { label: MessageKey; as: MessageKey | null }>;

/** How many names of a kind the job's row shows: the rest are "and N more". */
export const NAMES_SHOWN = 10;

/** A kind's line: its label, the names shown (each as the reader reads it), and how many are not. */
export function namedNotesText(named: NamedNotes): {
  label: string;
  names: { note_id: string | null; text: string }[];
  more: string | null;
} {
  const keys = NAMED_KEYS[named.kind];
  const shown = named.notes.slice(0, NAMES_SHOWN);
  const names = shown.map((note) => ({
    note_id: note.note_id,
    text:
      keys.as !== null && note.existing_title !== undefined
        ? t(keys.as, { title: note.title, existing: note.existing_title })
        : note.title,
  }));
  const rest = named.count - shown.length;
  return { label: t(keys.label), names, more: rest > 0 ? t('importNotes.more', { count: rest }) : null };
}

/** A finished import's counts and every entry it changed; null for other jobs and older results. */
export function importReport(result: unknown): ImportReport | null {
  if (typeof result !== 'object' || result === null) return null;
  const record = result as Record<string, unknown>;
  const { created, updated, skipped, warnings, left_out } = record;
  if (typeof created !== 'number' || typeof updated !== 'number' || typeof skipped !== 'number') return null;
  const entries = Array.isArray(warnings)
    ? warnings.map(asEntry).filter((entry): entry is ImportReportEntry => entry !== null)
    : [];
  // A vault of thousands of images lists the first of them; the count says how many there were.
  const listedLeftOut = entries.filter((entry) => entry.reason === 'not_markdown').length;
  const unlisted = typeof left_out === 'number' ? Math.max(0, left_out - listedLeftOut) : 0;
  return { created, updated, skipped, named: namedNotes(record), entries, count: entries.length + unlisted };
}

const REASON_KEYS: Readonly<Record<string, MessageKey>> = {
  path_outside_archive: 'vaultImport.report.reason.path_outside_archive',
  duplicate_path: 'vaultImport.report.reason.duplicate_path',
  not_utf8: 'vaultImport.report.reason.not_utf8',
  encrypted: 'vaultImport.report.reason.encrypted',
  symlink: 'vaultImport.report.reason.symlink',
  unsupported_compression: 'vaultImport.report.reason.unsupported_compression',
  not_markdown: 'vaultImport.report.reason.not_markdown',
  invalid_front_matter: 'vaultImport.report.reason.invalid_front_matter',
  front_matter_too_large: 'vaultImport.report.reason.front_matter_too_large',
};

const ACTION_KEYS: Readonly<Record<string, MessageKey>> = {
  skipped: 'vaultImport.report.action.skipped',
  renamed: 'vaultImport.report.action.renamed',
  repaired: 'vaultImport.report.action.repaired',
};

/** The entry's file (and where it went), and what happened to it and why. */
export function reportEntryText(entry: ImportReportEntry): { file: string; why: string } {
  const file =
    entry.renamed_to !== undefined && entry.renamed_to !== entry.path
      ? t('vaultImport.report.renamed', { path: entry.path, to: entry.renamed_to })
      : entry.path;
  const reasonKey = REASON_KEYS[entry.reason];
  const actionKey = ACTION_KEYS[entry.action];
  const why =
    reasonKey !== undefined
      ? t(reasonKey)
      : t('vaultImport.report.reason.other', {
          reason: entry.reason,
          action: actionKey === undefined ? entry.action : t(actionKey),
        });
  return { file, why };
}

/**
 * A zip refused before its import starts, for its size alone: what the user
 * reads instead of the generic "too large to save", which names neither the
 * file nor the limit. Null for any other error.
 */
export function archiveTooLargeText(error: unknown, file: string): string | null {
  if (typeof error !== 'object' || error === null) return null;
  const { code, details } = error as { code?: unknown; details?: unknown };
  if (code !== 'PAYLOAD_TOO_LARGE' || typeof details !== 'object' || details === null) return null;
  const { size, limit } = details as Record<string, unknown>;
  if (typeof size !== 'number' || typeof limit !== 'number') return null;
  const text = t('vaultImport.fail.archiveTooLarge', {
    size: String(Math.ceil(size / MIB)),
    limit: String(Math.round(limit / MIB)),
  });
  return t('vaultImport.failed', {
    file,
    reason: t('vaultImport.failureNext', { text, next: t('vaultImport.fail.totalTooLargeNext') }),
  });
}
