import type { AttachChatImageInput, AttachmentDto } from '../contracts';
import type { AttachmentRepository } from '../db';
import { storeImage, storedImage } from './image-store';

/**
 * Pictures pasted, dropped or picked into a note. Stored in the attachment store
 * (by content: the same picture twice is one attachment) and linked from the
 * note as `![alt](attachment:<id>)`; the preview asks for the bytes by id.
 */
export class NoteImageService {
  readonly #store: AttachmentRepository;

  constructor(store: AttachmentRepository) {
    this.#store = store;
  }

  /** PNG, JPEG, GIF or WebP up to 20 MB; anything else is refused before it is stored. */
  attach(input: AttachChatImageInput): Promise<AttachmentDto> {
    return storeImage(this.#store, input);
  }

  /** The picture's bytes, typed, for the preview's object URL. */
  blob(attachmentId: string): Promise<Blob> {
    return storedImage(this.#store, attachmentId);
  }
}
