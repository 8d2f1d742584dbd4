import {
  AppError,
  opaqueIdSchema,
  parseInput,
  uploadAttachmentSchema,
  type AttachmentDto,
  type UploadAttachmentInput,
} from '../contracts';
import type { AttachmentInfo, AttachmentRepository } from '../db';
import { sniffAudioFormat } from '../media';

/** Audio larger than this is refused: decoding it would need several times as much memory. */
export const MAX_ATTACHMENT_BYTES = 512 * 1024 * 1024;

const attachmentIdSchema = opaqueIdSchema;

/** An attachment row as callers see it (audio, chat and note pictures alike). */
export function toDto(info: AttachmentInfo): AttachmentDto {
  return {
    attachment_id: info.attachment_id,
    name: info.name,
    mime_type: info.mime_type,
    size: info.size,
    sha256: info.sha256 ?? null,
    created_at: info.created_at,
  };
}

function notFound(attachmentId: string): AppError {
  return new AppError('ATTACHMENT_NOT_FOUND', 'This attachment does not exist.', {
    attachment_id: attachmentId,
  });
}

export async function sha256Hex(bytes: Uint8Array): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', bytes as Uint8Array<ArrayBuffer>);
  return Array.from(new Uint8Array(digest), (byte) => byte.toString(16).padStart(2, '0')).join('');
}

export interface AttachmentServiceOptions {
  /** Refuses to delete an attachment that work in progress still reads (say, a queued transcription). */
  inUse?: (attachmentId: string) => Promise<boolean>;
  /** Default MAX_ATTACHMENT_BYTES; tests lower it. */
  maxBytes?: number;
}

/**
 * Audio attachments (§5: stored once, referred to by id). Uploads are checked
 * before anything is stored: size, then the bytes must be audio of a supported
 * format (sniffed, not trusted from the name); the same bytes uploaded again
 * return the attachment already stored.
 */
export class AttachmentService {
  readonly #attachments: AttachmentRepository;
  readonly #inUse: (attachmentId: string) => Promise<boolean>;
  readonly #maxBytes: number;

  constructor(attachments: AttachmentRepository, options: AttachmentServiceOptions = {}) {
    this.#attachments = attachments;
    this.#inUse = options.inUse ?? (async () => false);
    this.#maxBytes = options.maxBytes ?? MAX_ATTACHMENT_BYTES;
  }

  async upload(input: UploadAttachmentInput): Promise<AttachmentDto> {
    const { name, mime_type, data } = parseInput(
      uploadAttachmentSchema,
      input,
      'This file cannot be attached.',
    );
    const size = data instanceof Blob ? data.size : data.byteLength;
    if (size === 0) {
      throw new AppError('VALIDATION_FAILED', 'The file is empty.', {
        fields: [{ path: 'data', message: 'the file is empty' }],
      });
    }
    if (size > this.#maxBytes) {
      const megabytes = Math.floor(this.#maxBytes / (1024 * 1024));
      throw new AppError('PAYLOAD_TOO_LARGE', `The audio file is larger than ${megabytes} MB.`, {
        size,
        limit: this.#maxBytes,
      });
    }
    const bytes = data instanceof Blob ? new Uint8Array(await data.arrayBuffer()) : data;
    const format = sniffAudioFormat(bytes, { mime_type: mime_type || null, name });
    const sha256 = await sha256Hex(bytes);
    // The sniffed container's MIME type, not the caller's: the player needs the true one.
    const blob = new Blob([bytes as Uint8Array<ArrayBuffer>], { type: format.mime_type });
    const { attachment } = await this.#attachments.putOnce(blob, {
      name,
      mime_type: format.mime_type,
      sha256,
    });
    return toDto(attachment);
  }

  async get(attachmentId: string): Promise<AttachmentDto> {
    const id = parseInput(attachmentIdSchema, attachmentId);
    const info = await this.#attachments.info(id);
    if (!info) throw notFound(id);
    return toDto(info);
  }

  /** The bytes, typed, for an object URL (the page plays the audio with it). */
  async blob(attachmentId: string): Promise<Blob> {
    const id = parseInput(attachmentIdSchema, attachmentId);
    const row = await this.#attachments.get(id);
    if (!row) throw notFound(id);
    return row.blob.type === row.mime_type ? row.blob : new Blob([row.blob], { type: row.mime_type });
  }

  async delete(attachmentId: string): Promise<void> {
    const id = parseInput(attachmentIdSchema, attachmentId);
    if (!(await this.#attachments.info(id))) throw notFound(id);
    if (await this.#inUse(id)) {
      throw new AppError(
        'STATE_CONFLICT',
        'A transcription of this audio is still queued or running. Cancel it before deleting the audio.',
        { attachment_id: id },
      );
    }
    await this.#attachments.delete(id);
  }
}
