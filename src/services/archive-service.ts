import {
  AppError,
  IMPORT_NAMED_NOTES,
  importFilesSchema,
  isAbortError,
  importZipSchema,
  parseInput,
  type ImportDuplicateAction,
  type ImportFilesInput,
  type ImportedNoteRef,
  type ImportResult,
  type ImportZipInput,
  type JobDto,
  type NotebookExport,
  type ReimportProblem,
} from '../contracts';
import { contentHash } from '../core/content-hash';
import {
  bodyMatchKey,
  bodyShapeKey,
  originPairs,
  reimportDiffers,
  uniqueKeyPairs,
  type NoteShape,
} from '../core/markdown-archive-matching';
import { blobSource } from '../core/zip-reader';
import type { JobContext, JobRuntime } from '../core/job-runtime';
import {
  ArchiveFormatError,
  DEFAULT_IMPORT_LIMITS,
  type ImportLimits,
  bodyWithExtraFrontMatter,
  extraFrontMatterFromBody,
  isMarkdownPath,
  markdownFilePartsFromNote,
  noteFromMarkdownFile,
  plainNoteFromMarkdownFile,
  readZipArchiveFrom,
  type NoteDraft as ArchiveNote,
  stripCommonRoot,
  type ArchiveFile,
  type ArchiveFormatErrorReason,
  type ArchivePicture,
  withPicturesTaken,
} from '../core/markdown-archive';
import {
  exportedPictureLinks,
  isPicturePath,
  linkedPicturePaths,
  pictureExtension,
} from '../core/archive-pictures';
import { importLinkedPictures } from './archive-picture-import';
import type { NoteDto } from '../contracts';
import type { AttachmentRepository, NoteDraft, NotesRepository } from '../db';
import type { ImportStagingRepository } from '../db/import-staging-repository';
import type { ImportOriginRepository, ImportOriginRow } from '../db/import-origin-repository';
import { ZipBlobWriter } from '../core/markdown-archive-writer';
import { ExportPictureNames } from '../core/export-picture-names';
import { utf8Length } from '../core/utf8-length';
import { importBatchOf } from './import-staging';

export const IMPORT_JOB_KIND = 'notes.import';
/** Notes written per transaction: small enough for steady progress and prompt cancellation. */
const IMPORT_BATCH_SIZE = 25;
export const MAX_IMPORT_BYTES = 512 * 1024 * 1024;
/** The top folder of an export; import strips one common top folder, so exports round-trip. */
const EXPORT_ROOT = 'NotesAgent';
/**
 * The front-matter key an export writes each note's id under, so importing the
 * archive again finds the note even after its text changed. `id` is left to
 * the user: Obsidian vaults use it for their own values.
 */
export const NOTE_ID_KEY = 'note_id';
/** Ids this notebook writes (`newId('note')`); anything else in `note_id` is not kept as a key. */
const OWN_NOTE_ID = /^note_[A-Za-z0-9_-]{1,100}$/;

interface ImportJobInput {
  attachment_id: string;
  file_name: string;
  target_folder: string;
  /** Absent in jobs queued before duplicates were detected: they add every note, as they would have. */
  on_duplicate?: ImportDuplicateAction;
}

/** An existing note is the same note when the title and the text are identical. */
function sameContentKey(note: { title: string; body: string }): string {
  return contentHash(`${note.title}\u0000${note.body}`);
}

/**
 * A file from another app (an Obsidian vault) has no id of ours: its path is
 * its identity, so an edited `alpha.md` is the note in the same folder with
 * the same title. Only a place held by one note on each side counts.
 */
function placeKey(note: { folder: string; title: string }): string {
  return `${note.folder}\u0000${note.title}`;
}

/** Title and body length: notes with different ones cannot have the same content key. */
function shapeKey(title: string, bodyLength: number): string {
  return `${bodyLength}\u0000${title}`;
}

/** A live note and a content key it has: a duplicate skipped with this key is not a changed one. */
function sameNoteKey(noteId: string, contentKey: string): string {
  return `${noteId}\u0000${contentKey}`;
}

/** The first `IMPORT_NAMED_NOTES` notes of a kind, for the report: the counts say how many in all. */
function nameIn(list: ImportedNoteRef[], title: string, noteId: string | null, existing?: string): void {
  if (list.length >= IMPORT_NAMED_NOTES) return;
  list.push({
    note_id: noteId,
    title,
    ...(existing !== undefined && existing !== title ? { existing_title: existing } : {}),
  });
}

/** The note as an origin row says it was imported. */
function importedShape(row: ImportOriginRow): NoteShape {
  return { title: row.title, folder: row.folder, body_hash: row.body_hash };
}

function joinFolder(base: string, folder: string): string {
  return [base, folder].filter((part) => part.length > 0).join('/');
}

/**
 * Markdown import and export. An import is a job over an archive stored as an
 * attachment, so a reload knows what was being imported; a cancelled import
 * removes the notes it had written, leaving nothing half-done.
 */
export class ArchiveService {
  readonly #notes: NotesRepository;
  readonly #attachments: AttachmentRepository;
  readonly #runtime: JobRuntime;
  readonly #staging: ImportStagingRepository | null;
  readonly #origins: ImportOriginRepository | null;

  /**
   * `staging` keeps what an `update` import overwrites until the import
   * ends, so a closed tab's import can be undone at the next start.
   * `origins` remembers the file each imported note came from, so the next
   * import of the vault finds it by that path, renamed and edited as it may be.
   */
  constructor(
    notes: NotesRepository,
    attachments: AttachmentRepository,
    runtime: JobRuntime,
    staging: ImportStagingRepository | null = null,
    origins: ImportOriginRepository | null = null,
  ) {
    this.#notes = notes;
    this.#attachments = attachments;
    this.#runtime = runtime;
    this.#staging = staging;
    this.#origins = origins;
    runtime.register<ImportJobInput, ImportResult>({
      kind: IMPORT_JOB_KIND,
      concurrency: 1,
      run: (context) => this.#runImport(context),
    });
  }

  /**
   * A picked folder: its Markdown files, and the pictures they link, are
   * packed into one archive and imported like a zip. A picture no note links
   * is never read.
   */
  async importFiles(input: ImportFilesInput): Promise<JobDto> {
    const { files, target_folder, on_duplicate } = parseInput(
      importFilesSchema,
      input,
      'These files cannot be imported.',
    );
    const markdown = files.flatMap((file) =>
      'content' in file && isMarkdownPath(file.path) ? [{ path: file.path, content: file.content }] : [],
    );
    if (markdown.length === 0) {
      throw new AppError('IMPORT_FILE_INVALID', 'The folder has no Markdown (.md) files.', {
        files: files.length,
      });
    }
    const pictures = files.flatMap((file) =>
      'data' in file && isPicturePath(file.path) && file.data.size <= DEFAULT_IMPORT_LIMITS.max_picture_bytes
        ? [{ path: file.path, data: file.data }]
        : [],
    );
    const linked = linkedPicturePaths(
      markdown.map((file) => ({ path: file.path, body: file.content })),
      pictures.map((picture) => picture.path),
    );
    const writer = new ZipBlobWriter();
    try {
      for (const file of markdown) writer.add(file.path, [file.content]);
      // One at a time: memory holds one picture, the archive goes into Blob parts.
      for (const picture of pictures) {
        if (linked.has(picture.path))
          writer.addStored(picture.path, new Uint8Array(await picture.data.arrayBuffer()));
      }
    } catch (error) {
      writer.abort();
      if (error instanceof ArchiveFormatError) {
        throw new AppError('IMPORT_FILE_INVALID', error.message, { reason: error.reason });
      }
      throw error;
    }
    return this.#createImport(writer.finish(), 'folder.zip', target_folder, on_duplicate);
  }

  async importZip(input: ImportZipInput): Promise<JobDto> {
    const { data, file_name, target_folder, on_duplicate } = parseInput(
      importZipSchema,
      input,
      'This file cannot be imported.',
    );
    const size = data instanceof Blob ? data.size : data.byteLength;
    if (size > MAX_IMPORT_BYTES) {
      throw new AppError('PAYLOAD_TOO_LARGE', 'The archive is larger than 512 MB.', {
        size,
        limit: MAX_IMPORT_BYTES,
      });
    }
    return this.#createImport(data, file_name, target_folder, on_duplicate);
  }

  async #createImport(
    data: Uint8Array | Blob,
    fileName: string,
    targetFolder: string,
    onDuplicate: ImportDuplicateAction,
  ): Promise<JobDto> {
    const attachment = await this.#attachments.put(
      // A Blob part is referenced, not read: a picked File is stored without passing through memory.
      new Blob([data as Uint8Array<ArrayBuffer> | Blob], { type: 'application/zip' }),
      {
        name: fileName,
        mime_type: 'application/zip',
      },
    );
    const input: ImportJobInput = {
      attachment_id: attachment.attachment_id,
      file_name: fileName,
      target_folder: targetFolder,
      on_duplicate: onDuplicate,
    };
    return this.#runtime.create(IMPORT_JOB_KIND, { ...input });
  }

  async #runImport(context: JobContext<ImportJobInput>): Promise<ImportResult> {
    const { attachment_id, target_folder } = context.input;
    const onDuplicate = context.input.on_duplicate ?? 'keep_both';
    const attachment = await this.#attachments.get(attachment_id);
    if (!attachment) {
      throw new AppError('ATTACHMENT_NOT_FOUND', 'The archive to import is no longer stored.', {
        attachment_id,
      });
    }
    const created: string[] = [];
    /** Pictures this import stored, and those the notes it wrote link. */
    let createdPictures: string[] = [];
    const usedPictures = new Set<string>();
    /** What each updated note was before, to put back when the import does not complete. */
    const overwritten: NoteDto[] = [];
    let duplicatesSkipped = 0;
    /** Of those, the ones whose text differs from the notebook's: the user may want "update". */
    let skippedChanged = 0;
    /** The notes the report names, so the user sees which were added, updated and left alone. */
    const named = {
      created: [] as ImportedNoteRef[],
      updated: [] as ImportedNoteRef[],
      skipped: [] as ImportedNoteRef[],
    };
    try {
      await context.progress({ phase: 'reading', current: 0, total: null, message: attachment.name });
      let files: ArchiveFile[];
      let archivePaths: string[];
      let leftOut = 0;
      let pictureFiles: ArchivePicture[] = [];
      let warnings: ImportResult['warnings'] = [];
      try {
        // In steps from the stored Blob: memory holds a window of the archive,
        // and a cancel gets through between steps.
        const read = await readZipArchiveFrom(blobSource(attachment.blob), {
          signal: context.signal,
          onProgress: ({ read: current, total }) =>
            context.progress({ phase: 'reading', current, total, message: attachment.name }),
        });
        archivePaths = read.files.map((file) => file.path);
        files = stripCommonRoot(read.files);
        warnings.push(...read.issues);
        leftOut = read.left_out;
        pictureFiles = read.pictures;
      } catch (error) {
        if (context.signal.aborted || isAbortError(error) || error instanceof AppError) throw error;
        throw archiveError(error);
      }
      if (files.length === 0) {
        // A readable zip with nothing to import: its own reason, so the user is not told the file is no zip.
        throw new AppError('IMPORT_ARCHIVE_INVALID', 'The archive has no Markdown (.md) files.', {
          reason: 'no_markdown',
        });
      }
      const drafts: {
        path: string;
        archivePath: string;
        draft: NoteDraft;
        noteId: string | null;
        pictures: string[];
      }[] = [];
      for (const [index, file] of files.entries()) {
        context.signal.throwIfAborted();
        let note: ArchiveNote;
        try {
          note = noteFromMarkdownFile(file);
        } catch (error) {
          if (!(error instanceof ArchiveFormatError)) throw error;
          // The note is kept with its front matter as text rather than dropped.
          note = plainNoteFromMarkdownFile(file);
          warnings.push({ path: archivePaths[index] ?? file.path, reason: error.reason, action: 'repaired' });
        }
        const noteId = note.extra[NOTE_ID_KEY];
        if (typeof noteId === 'string') {
          // The id is the notebook's own bookkeeping, not part of the note's text.
          const { [NOTE_ID_KEY]: _id, ...extra } = note.extra;
          note = { ...note, extra };
        }
        drafts.push({
          noteId: typeof noteId === 'string' && OWN_NOTE_ID.test(noteId) ? noteId : null,
          path: file.path,
          archivePath: archivePaths[index] ?? file.path,
          pictures: [],
          draft: {
            title: note.title,
            folder: joinFolder(target_folder, note.folder),
            body: bodyWithExtraFrontMatter(note),
            tags: note.tags,
            ...(note.created_at ? { created_at: note.created_at } : {}),
            ...(note.updated_at ? { updated_at: note.updated_at } : {}),
            ...(note.pinned === undefined ? {} : { pinned: note.pinned }),
          },
        });
      }
      if (pictureFiles.length > 0) {
        // Before duplicates are looked for: a note exported with its pictures is
        // the same note again once they are linked as stored pictures.
        const linked = await importLinkedPictures(
          blobSource(attachment.blob),
          pictureFiles,
          drafts.map(({ archivePath, draft }) => ({ archive_path: archivePath, body: draft.body })),
          this.#attachments,
          {
            jobId: context.jobId,
            signal: context.signal,
            onProgress: (current, total) => context.progress({ phase: 'pictures', current, total }),
          },
        );
        createdPictures = linked.created;
        for (const [at, entry] of drafts.entries()) {
          entry.draft = { ...entry.draft, body: linked.bodies[at]! };
          entry.pictures = linked.pictures[at]!;
        }
        ({ issues: warnings, left_out: leftOut } = withPicturesTaken(
          { issues: warnings, left_out: leftOut },
          linked.taken,
        ));
      }
      const total = drafts.length;
      await context.progress({ phase: 'importing', current: 0, total });
      // Once per note: a huge body is hashed once more, not once per use.
      const bodyKeys =
        onDuplicate === 'keep_both' ? [] : drafts.map(({ draft }) => bodyMatchKey(draft.folder, draft.body));
      /** Each file's path in the vault below the target folder: the key of its note's origin. */
      const sourcePaths = drafts.map(({ path }) => joinFolder(target_folder, path));
      const bodyHashes = this.#origins === null ? [] : drafts.map(({ draft }) => contentHash(draft.body));
      const { liveIds, byContent, byBody, byPlace, unchanged, titles, byOrigin, originOf, baselines, here } =
        onDuplicate === 'keep_both'
          ? {
              liveIds: new Set<string>(),
              byContent: new Map<string, string>(),
              byBody: new Map<string, string>(),
              byPlace: new Map<string, string>(),
              unchanged: new Set<string>(),
              titles: new Map<string, string>(),
              byOrigin: new Map<string, string>(),
              originOf: new Map<string, string>(),
              baselines: new Map<string, ImportOriginRow>(),
              here: new Map<string, NoteShape>(),
            }
          : await this.#existingMatches(drafts, bodyKeys, sourcePaths, context.signal);
      /** Where each note written or found now came from, recorded once the import has completed. */
      const origins: ImportOriginRow[] = [];
      const importedAt = new Date().toISOString();
      const originRow = (noteId: string, at: number): ImportOriginRow => ({
        note_id: noteId,
        source_path: sourcePaths[at]!,
        title: drafts[at]!.draft.title,
        folder: drafts[at]!.draft.folder,
        body_hash: bodyHashes[at]!,
        imported_at: importedAt,
      });
      const inThisArchive = new Set<string>();
      /** Ids given to notes of this archive: a second file carrying one gets a new id. */
      const claimed = new Set<string>();
      for (let start = 0; start < total; start += IMPORT_BATCH_SIZE) {
        context.signal.throwIfAborted();
        const fresh: { draft: NoteDraft; noteId: string | null; pictures: string[]; at: number }[] = [];
        for (const [offset, { draft, noteId, pictures }] of drafts
          .slice(start, start + IMPORT_BATCH_SIZE)
          .entries()) {
          const at = start + offset;
          const key = sameContentKey(draft);
          if (onDuplicate === 'keep_both') {
            fresh.push({ draft, noteId, pictures, at });
            continue;
          }
          const bodyKey = bodyKeys[at] ?? null;
          const sourcePath = sourcePaths[at]!;
          /** A note another file of this archive was imported into is that file's, not this one's. */
          const notOthers = (id: string | undefined): string | undefined =>
            id !== undefined && originOf.has(id) && originOf.get(id) !== sourcePath ? undefined : id;
          const sameBodyId = notOthers(bodyKey === null ? undefined : byBody.get(bodyKey));
          // The file it was imported from, however the note was renamed or edited since; then the
          // same text before the same place: a note renamed in the app keeps its text, and
          // a note the user has since made under the old title is not the archive's note.
          const matchId =
            (noteId !== null && liveIds.has(noteId) ? noteId : undefined) ??
            byOrigin.get(sourcePath) ??
            notOthers(byContent.get(key)) ??
            sameBodyId ??
            (noteId === null ? notOthers(byPlace.get(placeKey(draft))) : undefined);
          const baseline = matchId === undefined ? undefined : baselines.get(matchId);
          /** The note as this file gave it at the last import; null where no import of this file is known. */
          const imported = baseline?.source_path === sourcePath ? importedShape(baseline) : null;
          const there: NoteShape = {
            title: draft.title,
            folder: draft.folder,
            body_hash: bodyHashes[at] ?? '',
          };
          if (matchId === undefined) {
            // A second copy of a note within the same archive is a duplicate too.
            if (inThisArchive.has(key)) {
              duplicatesSkipped += 1;
              nameIn(named.skipped, draft.title, null);
            } else fresh.push({ draft, noteId, pictures, at });
            inThisArchive.add(key);
          } else if (onDuplicate === 'skip') {
            duplicatesSkipped += 1;
            nameIn(named.skipped, draft.title, matchId, titles.get(matchId));
            const hereShape = here.get(matchId);
            if (imported !== null && hereShape !== undefined) {
              // Against the file as last imported: a rename or a move made here alone is no
              // change of the file's, as for a note found by its text below.
              if (reimportDiffers(hereShape, there, imported)) skippedChanged += 1;
            }
            // Found by its unchanged text, it differs at most by the title the user gave it here:
            // "update" would only undo that rename, so it is not offered as a change.
            else if (!unchanged.has(sameNoteKey(matchId, key)) && matchId !== sameBodyId) skippedChanged += 1;
            // The same text on both sides: this file is where the note comes from from now on.
            const sameText =
              matchId === sameBodyId ||
              unchanged.has(sameNoteKey(matchId, key)) ||
              (hereShape !== undefined && hereShape.body_hash === there.body_hash);
            if (this.#origins !== null && sameText) origins.push(originRow(matchId, at));
          } else {
            context.signal.throwIfAborted();
            // Read only now, one note at a time: the notes matched are what this import overwrites.
            const match = await this.#notes.get(matchId);
            if (!match || match.deleted_at !== null) {
              fresh.push({ draft, noteId, pictures, at });
              continue;
            }
            const { title, folder, body, tags } = draft;
            // Staged first: if the tab closes from here on, the next start puts the note back.
            await this.#staging?.stage({
              job_id: context.jobId,
              note_id: match.note_id,
              title: match.title,
              folder: match.folder,
              body: match.body,
              tags: [...match.tags],
              pinned: match.pinned ?? false,
              version: match.version,
            });
            const updated = await this.#notes.update(match.note_id, { title, folder, body, tags });
            // Deleted meanwhile: the archive's version is all that is left of it.
            if (!updated) {
              fresh.push({ draft, noteId, pictures, at });
              continue;
            }
            overwritten.push(match);
            if (this.#origins !== null) origins.push(originRow(match.note_id, at));
            nameIn(named.updated, title, match.note_id, match.title);
            for (const id of pictures) usedPictures.add(id);
            await this.#staging?.landed(context.jobId, match.note_id, updated.version);
            if (draft.pinned !== undefined && draft.pinned !== (updated.pinned ?? false)) {
              await this.#notes.setPinned(match.note_id, draft.pinned);
            }
            liveIds.add(updated.note_id);
            byContent.set(key, updated.note_id);
          }
        }
        const notes = await this.#notes.createMany(
          await this.#withKeptIds(fresh, claimed),
          importBatchOf(context.jobId),
        );
        created.push(...notes.map((note) => note.note_id));
        // In the order given: each new note is the file at the same place in `fresh`.
        if (this.#origins !== null) {
          for (const [index, note] of notes.entries())
            origins.push(originRow(note.note_id, fresh[index]!.at));
        }
        for (const note of notes) nameIn(named.created, note.title, note.note_id);
        for (const { pictures } of fresh) for (const id of pictures) usedPictures.add(id);
        await context.progress({
          phase: 'importing',
          current: Math.min(total, start + IMPORT_BATCH_SIZE),
          total,
        });
      }
      context.signal.throwIfAborted();
      // Stored for notes that were then skipped as duplicates: nothing links them.
      const unused = createdPictures.filter((id) => !usedPictures.has(id));
      if (unused.length > 0) await this.#attachments.deleteImportBatch(context.jobId, unused);
      // Last, with every note written: an import that fails or is cancelled leaves no origin of its own.
      await this.#origins?.record(origins);
      // Notes that could not be read; files that are no notes are said apart (`left_out`).
      const unreadable = warnings.filter(
        (warning) => warning.action === 'skipped' && warning.reason !== 'not_markdown',
      ).length;
      return {
        imported: created.length + overwritten.length,
        skipped: unreadable + duplicatesSkipped,
        created: created.length,
        updated: overwritten.length,
        duplicates_skipped: duplicatesSkipped,
        skipped_changed: skippedChanged,
        left_out: leftOut,
        pictures: usedPictures.size,
        notes: named,
        warnings,
      };
    } catch (error) {
      // Cancelled or failed: remove what this import wrote so a retry starts clean.
      if (created.length > 0) await this.#notes.deleteMany(created);
      await this.#attachments.deleteImportBatch(context.jobId);
      // Newest first, so a note updated twice ends as it was before the first.
      for (const before of overwritten.reverse()) {
        const { title, folder, body, tags } = before;
        await this.#notes.update(before.note_id, { title, folder, body, tags });
        await this.#notes.setPinned(before.note_id, before.pinned ?? false);
      }
      throw error;
    } finally {
      // The uploaded archive is only a carrier: kept on success, failure or
      // cancel it would be an invisible attachment nobody can reach. The
      // staged notes are settled too: committed, or put back above.
      await this.#attachments.delete(attachment_id);
      await this.#staging?.clear(context.jobId);
    }
  }

  /**
   * The live notes an archive's notes could be duplicates of, without holding
   * the notebook: which of the archive's ids are live notes (meta rows only);
   * the content key of each live note whose title and body length equal an
   * archive note's (only those bodies are read, a page at a time); and, for
   * archive notes without an id of ours, the one live note in the same folder
   * with the same title. Same content, same title and length: no other note
   * can match, so a huge note is never read for an archive that holds nothing
   * as long. When two notes share a content key the later-changed one is
   * matched, as before; a place two notes (or two files) share matches none.
   *
   * By text alone (`bodyMatchKey`: the body in its folder, long enough to be
   * the note's own): the one live note whose body equals the one archive
   * note's with that text, whatever its title, so a note renamed here is found
   * again. Only notes with the folder and body length of such an archive note
   * are read; a note an archive note's id or place already claims is not paired
   * by text, so no note is matched by two files. `titles` holds the notebook's
   * titles of the notes matched, for the report.
   *
   * By origin (`byOrigin`, path to note): the live note last imported from
   * each of the archive's paths, whatever was renamed or edited since;
   * `originOf` is the same pairs note to path, `baselines` the origin rows of
   * the notes matched, and `here` the title, folder and body hash of each
   * note an origin pairs, so a skip knows whether the vault changed it
   * without reading it again. Rows of notes deleted for good are dropped.
   */
  async #existingMatches(
    drafts: ReadonlyArray<{ draft: NoteDraft; noteId: string | null }>,
    bodyKeys: ReadonlyArray<string | null>,
    sourcePaths: readonly string[],
    signal: AbortSignal,
  ): Promise<{
    liveIds: Set<string>;
    byContent: Map<string, string>;
    byBody: Map<string, string>;
    byPlace: Map<string, string>;
    unchanged: Set<string>;
    titles: Map<string, string>;
    byOrigin: Map<string, string>;
    originOf: Map<string, string>;
    baselines: Map<string, ImportOriginRow>;
    here: Map<string, NoteShape>;
  }> {
    const originRows = (await this.#origins?.byPaths(sourcePaths)) ?? [];
    const originNotes = new Set(originRows.map((row) => row.note_id));
    const wantedIds = new Set(drafts.flatMap(({ noteId }) => (noteId === null ? [] : [noteId])));
    const shapes = new Set(drafts.map(({ draft }) => shapeKey(draft.title, draft.body.length)));
    const bodyShapes = new Set(
      drafts.flatMap(({ draft }, at) =>
        bodyKeys[at] === null ? [] : [bodyShapeKey(draft.folder, draft.body.length)],
      ),
    );
    /** Places of the archive's foreign files; null where two files share one. */
    const places = new Map<string, null | true>();
    for (const { draft, noteId } of drafts) {
      if (noteId !== null) continue;
      const place = placeKey(draft);
      places.set(place, places.has(place) ? null : true);
    }
    const liveIds = new Set<string>();
    const candidates: string[] = [];
    /** Notes read for their text only (a rename changed the title): not content-key matches. */
    const textOnly = new Set<string>();
    const titles = new Map<string, string>();
    /** The live note at each wanted place; null where two notes share it. */
    const atPlace = new Map<string, string | null>();
    const ids = await this.#notes.noteIds({ trashed: false });
    /** Live notes an origin row names: read for their text, to compare with the file's. */
    const liveOrigins = new Set<string>();
    await this.#notes.forEachSummaryPage(
      ids,
      (page) => {
        for (const summary of page) {
          if (summary.deleted_at !== null) continue;
          let wanted = false;
          if (wantedIds.has(summary.note_id)) {
            liveIds.add(summary.note_id);
            wanted = true;
          }
          if (originNotes.has(summary.note_id)) {
            liveOrigins.add(summary.note_id);
            wanted = true;
          }
          if (shapes.has(shapeKey(summary.title, summary.body_length))) {
            candidates.push(summary.note_id);
            wanted = true;
          } else if (bodyShapes.has(bodyShapeKey(summary.folder, summary.body_length))) {
            candidates.push(summary.note_id);
            textOnly.add(summary.note_id);
            wanted = true;
          }
          const place = placeKey(summary);
          if (places.get(place) === true) {
            atPlace.set(place, atPlace.has(place) ? null : summary.note_id);
            wanted = true;
          }
          if (wanted) titles.set(summary.note_id, summary.title);
        }
      },
      { signal },
    );
    const byPlace = new Map<string, string>();
    for (const [place, noteId] of atPlace) if (noteId !== null) byPlace.set(place, noteId);
    const byOrigin = originPairs(originRows, liveOrigins);
    const originOf = new Map([...byOrigin].map(([path, noteId]) => [noteId, path]));
    const baselines = new Map(
      originRows.flatMap((row) => (liveOrigins.has(row.note_id) ? [[row.note_id, row]] : [])),
    );
    // Rows of notes neither live nor in the trash name notes deleted for good: nothing will match them again.
    const gone = [...originNotes].filter((noteId) => !liveOrigins.has(noteId));
    if (gone.length > 0) {
      const trashed = await this.#notes.takenIds(gone);
      await this.#origins?.forget(gone.filter((noteId) => !trashed.has(noteId)));
    }
    const claimed = new Set([...liveIds, ...byPlace.values(), ...byOrigin.values()]);
    const here = new Map<string, NoteShape>();
    const read = new Set(candidates);
    for (const noteId of byOrigin.values()) if (!read.has(noteId)) candidates.push(noteId);
    const byContent = new Map<string, string>();
    const unchanged = new Set<string>();
    const texts: { note_id: string; key: string | null }[] = [];
    await this.#notes.forEachNotePage(
      candidates,
      (page) => {
        for (const note of page) {
          if (note.deleted_at !== null) continue;
          if (originOf.has(note.note_id)) {
            here.set(note.note_id, {
              title: note.title,
              folder: note.folder,
              body_hash: contentHash(note.body),
            });
          }
          if (!textOnly.has(note.note_id)) {
            const key = sameContentKey(note);
            byContent.set(key, note.note_id);
            unchanged.add(sameNoteKey(note.note_id, key));
          }
          // Every note read counts towards a text's holders, a claimed one too: a text two notes
          // hold pairs neither, even when one of them is another file's by id or place.
          if (bodyShapes.has(bodyShapeKey(note.folder, note.body.length))) {
            texts.push({ note_id: note.note_id, key: bodyMatchKey(note.folder, note.body) });
          }
        }
      },
      { signal },
    );
    const byBody = uniqueKeyPairs(bodyKeys, texts);
    for (const [key, noteId] of byBody) if (claimed.has(noteId)) byBody.delete(key);
    return { liveIds, byContent, byBody, byPlace, unchanged, titles, byOrigin, originOf, baselines, here };
  }

  /**
   * A note keeps the id its archive gave it while no note (live or in the
   * trash) has it, so links and bookmarks to it work again; otherwise it gets
   * a new one, as `keep_both` copies do.
   */
  async #withKeptIds(
    fresh: readonly { draft: NoteDraft; noteId: string | null }[],
    claimed: Set<string>,
  ): Promise<NoteDraft[]> {
    const wanted = fresh.flatMap(({ noteId }) => (noteId === null || claimed.has(noteId) ? [] : [noteId]));
    const taken = await this.#notes.takenIds(wanted);
    return fresh.map(({ draft, noteId }) => {
      if (noteId === null || claimed.has(noteId) || taken.has(noteId)) return draft;
      claimed.add(noteId);
      return { ...draft, note_id: noteId };
    });
  }

  /**
   * The whole notebook as a zip of Markdown files, for a backup or another
   * app. Notes are read a page at a time and each is deflated into the Blob
   * as it is read: memory holds a page of notes (the largest note, when that
   * is larger) and a few MiB of output, never the notebook or the archive.
   * A note changed while the export runs is written as its page read it.
   * Nothing is returned when a read fails: no partial archive reaches a file.
   *
   * Every note is written whole, also one larger than the import takes
   * (`DEFAULT_IMPORT_LIMITS`): such a backup is not importable again as it
   * is, and `reimport_problems` says which note and why, so the user learns
   * it now rather than when restoring. The import's limits are not relaxed
   * for a backup's own notes: nothing in an archive proves it came from an
   * export (its front matter can be written by anyone, a zip bomb's too),
   * and an import holds the notes it read until it writes them, so a larger
   * entry limit would be a larger memory bound for every archive.
   */
  async exportAll(): Promise<NotebookExport> {
    const ids = await this.#notes.noteIdsByCreation({ trashed: false });
    const writer = new ZipBlobWriter();
    const taken = new Set<string>();
    const sizes: ExportedEntry[] = [];
    /** Each stored picture's file name in the export (null: not stored), looked up once. */
    const fileNames = new Map<string, string | null>();
    const names = new ExportPictureNames();
    const fileNameOf = async (attachmentId: string): Promise<string | null> => {
      if (!fileNames.has(attachmentId)) {
        const info = await this.#attachments.info(attachmentId);
        const extension = info ? pictureExtension(info.mime_type) : null;
        fileNames.set(
          attachmentId,
          info && extension !== null ? names.nameOf(attachmentId, info.name, extension) : null,
        );
      }
      return fileNames.get(attachmentId)!;
    };
    /** The pictures the notes link, by id, and the path each is written at. */
    const pictures = new Map<string, string>();
    try {
      await this.#notes.forEachNotePage(ids, async (page) => {
        for (const note of page) {
          if (note.deleted_at !== null) continue;
          const parts = markdownFilePartsFromNote(
            {
              title: note.title,
              folder: joinFolder(EXPORT_ROOT, note.folder),
              ...withNoteId(extraFrontMatterFromBody(note.body), note.note_id),
              tags: note.tags,
              created_at: note.created_at,
              updated_at: note.updated_at,
              ...(note.pinned === true ? { pinned: true } : {}),
            },
            taken,
          );
          const { path, head } = parts;
          // Linked by a path beside the notes, which other apps can follow.
          const linked = await exportedPictureLinks(parts.body, path, fileNameOf);
          const body = linked.body;
          for (const picture of linked.pictures) pictures.set(picture.attachment_id, picture.path);
          const before = writer.bytesWritten;
          writer.add(path, [head, body]);
          sizes.push({
            note_id: note.note_id,
            title: note.title,
            path,
            bytes: utf8Length(head) + utf8Length(body),
            written: writer.bytesWritten - before,
          });
        }
      });
      // One at a time after the notes: memory holds one picture (20 MB at most).
      for (const [attachmentId, path] of pictures) {
        const row = await this.#attachments.get(attachmentId);
        // Deleted while the notes were written: the note's link names a missing file, as it did a missing picture.
        if (!row) continue;
        writer.addStored(path, new Uint8Array(await row.blob.arrayBuffer()));
      }
    } catch (error) {
      writer.abort();
      throw error;
    }
    const date = new Date().toISOString().slice(0, 10);
    return {
      file_name: `notesagent-export-${date}.zip`,
      data: writer.finish(),
      reimport_problems: reimportProblems(sizes),
    };
  }
}

/** A note as written into an export: its entry's size and the archive bytes it took. */
export interface ExportedEntry {
  note_id: string;
  title: string;
  path: string;
  /** UTF-8 bytes of the entry's text. */
  bytes: number;
  /**
   * Archive bytes the entry took: its compressed data and its local header and
   * data descriptor, so the ratio found from it is at most the import's (a few
   * dozen bytes on an entry above the ratio's 1 MiB floor).
   */
  written: number;
}

/**
 * What of an export the import would refuse, by the import's own limits: an
 * entry's size and ratio, the entries' count and total. Path depth and length
 * are not checked: an export's paths are a folder and a title, and the app
 * keeps both within those limits.
 */
export function reimportProblems(
  entries: readonly ExportedEntry[],
  limits: Readonly<ImportLimits> = DEFAULT_IMPORT_LIMITS,
): ReimportProblem[] {
  const problems: ReimportProblem[] = [];
  let total = 0;
  for (const entry of entries) {
    total += entry.bytes;
    const named = { note_id: entry.note_id, title: entry.title, path: entry.path, bytes: entry.bytes };
    if (entry.bytes > limits.max_entry_bytes) {
      problems.push({ reason: 'entry_too_large', ...named, limit: limits.max_entry_bytes });
    } else if (entry.bytes > limits.ratio_floor_bytes && entry.bytes > entry.written * limits.max_ratio) {
      problems.push({ reason: 'ratio_too_high', ...named, limit: limits.max_ratio });
    }
  }
  if (entries.length > limits.max_entries) {
    problems.push({
      reason: 'too_many_entries',
      count: entries.length,
      bytes: total,
      limit: limits.max_entries,
    });
  }
  if (total > limits.max_total_bytes) {
    problems.push({
      reason: 'total_too_large',
      count: entries.length,
      bytes: total,
      limit: limits.max_total_bytes,
    });
  }
  return problems;
}

/** The note's id goes first in its front matter's extra keys, where an import looks for it. */
function withNoteId(
  split: { body: string; extra: Record<string, unknown> },
  noteId: string,
): { body: string; extra: Record<string, unknown> } {
  return { body: split.body, extra: { [NOTE_ID_KEY]: noteId, ...split.extra } };
}

/** Size limits (a zip bomb, an oversized vault) are PAYLOAD_TOO_LARGE; the shape of the archive is IMPORT_ARCHIVE_INVALID. */
const PAYLOAD_REASONS: ReadonlySet<ArchiveFormatErrorReason> = new Set([
  'too_many_entries',
  'entry_too_large',
  'total_too_large',
  'ratio_too_high',
]);

function archiveError(error: unknown): AppError {
  if (error instanceof ArchiveFormatError) {
    const details = {
      reason: error.reason,
      ...(error.path === undefined ? {} : { entry: error.path }),
      ...(error.limit === undefined ? {} : { limit: error.limit }),
    };
    if (PAYLOAD_REASONS.has(error.reason)) return new AppError('PAYLOAD_TOO_LARGE', error.message, details);
    const message =
      error.reason === 'invalid_zip' && error.path === undefined
        ? 'This file is not a readable .zip archive.'
        : error.message;
    return new AppError('IMPORT_ARCHIVE_INVALID', message, details);
  }
  return new AppError('IMPORT_ARCHIVE_INVALID', 'This file is not a readable .zip archive.', {});
}
