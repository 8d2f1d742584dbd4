import {
  AppError,
  MAX_CHAT_IMAGE_BYTES,
  opaqueIdSchema,
  parseInput,
  type AttachChatImageInput,
  type AttachmentDto,
  type CHAT_IMAGE_MIME_TYPES,
} from '../contracts';
import { attachChatImageSchema } from '../contracts/chat-schemas';
import type { AttachmentRepository } from '../db';
import { sha256Hex, toDto } from './attachment-service';

/** The image format from the first bytes: the name and the browser's type are not trusted. */
export function sniffImageType(bytes: Uint8Array): (typeof CHAT_IMAGE_MIME_TYPES)[number] | null {
  const starts = (...values: number[]) => values.every((value, index) => bytes[index] === value);
  if (starts(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return 'image/png';
  if (starts(0xff, 0xd8, 0xff)) return 'image/jpeg';
  if (starts(0x47, 0x49, 0x46, 0x38)) return 'image/gif';
  const ascii = (from: number, to: number) => String.fromCharCode(...bytes.subarray(from, to));
  if (bytes.length >= 12 && ascii(0, 4) === 'RIFF' && ascii(8, 12) === 'WEBP') return 'image/webp';
  return null;
}

/**
 * Stores a picture (a chat message's or a note's) in the attachment store. The
 * bytes decide the type: PNG, JPEG, GIF or WebP, never SVG, which can carry
 * script when its blob URL is opened on its own. Equal bytes are stored once.
 */
export async function storeImage(
  store: AttachmentRepository,
  input: AttachChatImageInput,
): Promise<AttachmentDto> {
  return (await storeImageOnce(store, input)).attachment;
}

/**
 * storeImage, saying whether the bytes were new (`created`); an import names
 * its job (`importBatch`) so what it stored goes if it does not complete.
 */
export async function storeImageOnce(
  store: AttachmentRepository,
  input: AttachChatImageInput,
  options: { importBatch?: string } = {},
): Promise<{ attachment: AttachmentDto; created: boolean }> {
  const { name, data } = parseInput(attachChatImageSchema, input, 'This image cannot be attached.');
  const size = data instanceof Blob ? data.size : data.byteLength;
  if (size === 0) {
    throw new AppError('VALIDATION_FAILED', 'The image is empty.', {
      fields: [{ path: 'data', message: 'the image is empty' }],
    });
  }
  if (size > MAX_CHAT_IMAGE_BYTES) {
    throw new AppError('PAYLOAD_TOO_LARGE', 'The image is larger than 20 MB.', {
      size,
      limit: MAX_CHAT_IMAGE_BYTES,
    });
  }
  const bytes = data instanceof Blob ? new Uint8Array(await data.arrayBuffer()) : data;
  const mimeType = sniffImageType(bytes);
  if (!mimeType) {
    throw new AppError('VALIDATION_FAILED', 'This file is not a PNG, JPEG, GIF or WebP image.', {
      fields: [{ path: 'data', message: 'not a PNG, JPEG, GIF or WebP image' }],
    });
  }
  const blob = new Blob([bytes as Uint8Array<ArrayBuffer>], { type: mimeType });
  const { attachment, created } = await store.putOnce(blob, {
    name,
    mime_type: mimeType,
    sha256: await sha256Hex(bytes),
    ...(options.importBatch === undefined ? {} : { importBatch: options.importBatch }),
  });
  return { attachment: toDto(attachment), created };
}

/** A stored picture's bytes; any other attachment (audio, an export) is not found here. */
export async function storedImage(store: AttachmentRepository, attachmentId: string): Promise<Blob> {
  const id = parseInput(opaqueIdSchema, attachmentId);
  const row = await store.get(id);
  if (!row || !row.mime_type.startsWith('image/')) {
    throw new AppError('ATTACHMENT_NOT_FOUND', 'This image does not exist.', { attachment_id: id });
  }
  return row.blob;
}

/** Base64 without FileReader (not in every worker) and without one giant argument list. */
export function base64Of(bytes: Uint8Array): string {
  let binary = '';
  for (let at = 0; at < bytes.length; at += 0x8000)
    binary += String.fromCharCode(...bytes.subarray(at, at + 0x8000));
  return btoa(binary);
}
