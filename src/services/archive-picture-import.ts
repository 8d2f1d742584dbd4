import { AppError } from '../contracts';
import {
  PictureIndex,
  replaceLinks,
  resolvedPictureLinks,
  storedPictureLink,
  type ImageLink,
} from '../core/archive-pictures';
import { readArchivePictures, type ArchivePicture } from '../core/markdown-archive';
import type { ZipSource } from '../core/zip-reader';
import type { AttachmentRepository } from '../db';
import { storeImageOnce } from './image-store';

/** A note of an archive being imported: where it was in the archive, and its text. */
export interface ArchiveNoteText {
  archive_path: string;
  body: string;
}

export interface LinkedPictures {
  /** Each note's text with the pictures it links as `attachment:` links. */
  bodies: string[];
  /** The stored pictures each note links, by attachment id. */
  pictures: string[][];
  /** Pictures this import stored (not those already stored): removed if no written note links them. */
  created: string[];
  /** Archive paths (as written) of the pictures that went in: no longer left out. */
  taken: Set<string>;
}

/** Why a picture file is passed over rather than failing the import. */
const PICTURE_REFUSALS: ReadonlySet<string> = new Set(['VALIDATION_FAILED', 'PAYLOAD_TOO_LARGE']);

/**
 * Stores the archive's pictures the notes link, and links them as stored
 * pictures. Only linked pictures are read, one at a time; a file whose bytes
 * are no PNG, JPEG, GIF or WebP (whatever its name) stays left out and its
 * links stay as written. Everything stored carries the import's job id, so
 * an import that does not complete takes it away again.
 */
export async function importLinkedPictures(
  source: ZipSource,
  candidates: readonly ArchivePicture[],
  notes: readonly ArchiveNoteText[],
  store: AttachmentRepository,
  options: {
    jobId: string;
    signal: AbortSignal;
    onProgress?: (done: number, total: number) => Promise<void>;
  },
): Promise<LinkedPictures> {
  const byPath = new Map<string, ArchivePicture>();
  for (const picture of candidates) if (!byPath.has(picture.path)) byPath.set(picture.path, picture);
  const index = new PictureIndex(byPath.keys());
  const resolved = notes.map(({ archive_path, body }) => resolvedPictureLinks(body, archive_path, index));
  const wanted = new Set(resolved.flatMap((links) => links.map(({ path }) => path)));
  const ids = new Map<string, string>();
  const created: string[] = [];
  const taken = new Set<string>();
  const toRead = candidates.filter(
    (picture) => wanted.has(picture.path) && byPath.get(picture.path) === picture,
  );
  let done = 0;
  for await (const { picture, bytes } of readArchivePictures(source, toRead, { signal: options.signal })) {
    const name = picture.path.slice(picture.path.lastIndexOf('/') + 1);
    try {
      const stored = await storeImageOnce(store, { name, data: bytes }, { importBatch: options.jobId });
      ids.set(picture.path, stored.attachment.attachment_id);
      if (stored.created) created.push(stored.attachment.attachment_id);
      taken.add(picture.raw_path);
    } catch (error) {
      if (!(error instanceof AppError && PICTURE_REFUSALS.has(error.code))) throw error;
    }
    done += 1;
    await options.onProgress?.(done, toRead.length);
  }
  const bodies: string[] = [];
  const pictures: string[][] = [];
  for (const [at, links] of resolved.entries()) {
    const replacements: Array<{ link: ImageLink; text: string }> = [];
    const linked = new Set<string>();
    for (const { link, path } of links) {
      const id = ids.get(path);
      if (id === undefined) continue;
      linked.add(id);
      replacements.push({ link, text: storedPictureLink(link, path, id) });
    }
    bodies.push(replaceLinks(notes[at]!.body, replacements));
    pictures.push([...linked]);
  }
  return { bodies, pictures, created, taken };
}
