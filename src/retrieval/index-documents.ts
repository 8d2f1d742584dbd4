import type { IndexSource } from '../db';
import type { FullTextDocument } from './full-text-index';

/**
 * The id of the one document that stands for a note with a title and no text:
 * without it such a note could not be found at all. Block ids never contain `:`.
 */
export function titleDocumentId(noteId: string): string {
  return `${noteId}:title`;
}

/**
 * The blocks of a note as the indexes take them; rules and empty blocks have
 * nothing to find. A note with a title but no text is indexed by its title.
 */
export function documentsOf(source: IndexSource): FullTextDocument[] {
  const { note, blocks } = source;
  const documents = blocks
    .filter((block) => block.type !== 'rule' && block.text.trim() !== '')
    .map((block) => ({
      block_id: block.block_id,
      note_id: note.note_id,
      text: block.text,
      title: note.title,
      folder: note.folder,
      tags: note.tags,
    }));
  if (documents.length > 0 || note.title.trim() === '') return documents;
  return [
    {
      block_id: titleDocumentId(note.note_id),
      note_id: note.note_id,
      text: note.title,
      title: note.title,
      folder: note.folder,
      tags: note.tags,
    },
  ];
}
