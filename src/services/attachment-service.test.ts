import { afterEach, describe, expect, it } from 'vitest';
import { AttachmentRepository } from '../db';
import { freshDatabase } from '../db/test-database';
import type { NotesAgentDatabase } from '../db';
import { encodeWav, sine } from '../media/__fixtures__/synthetic-audio';
import { HEADERS } from '../media/__fixtures__/audio-headers';
import { AttachmentService, sha256Hex } from './attachment-service';
import { expectCode } from './test-error-code';

let db: NotesAgentDatabase;
afterEach(async () => db?.delete());

function service(options: ConstructorParameters<typeof AttachmentService>[1] = {}) {
  db = freshDatabase();
  return new AttachmentService(new AttachmentRepository(db), options);
}

const wav = (seconds = 0.5, frequency = 440) =>
  encodeWav({ sampleRate: 16_000, channels: [sine(frequency, seconds, 16_000, 0.2)], encoding: 'pcm16' });

describe('AttachmentService', () => {
  it('stores audio once: the same bytes uploaded again return the stored attachment', async () => {
    const attachments = service();
    const bytes = wav();
    const first = await attachments.upload({ name: 'talk.wav', mime_type: 'audio/x-wav', data: bytes });
    expect(first).toMatchObject({
      name: 'talk.wav',
      mime_type: 'audio/wav',
      size: bytes.byteLength,
      sha256: await sha256Hex(bytes),
    });
    const again = await attachments.upload({
      name: 'copy.wav',
      data: new Blob([bytes as Uint8Array<ArrayBuffer>]),
    });
    expect(again).toEqual(first);
    const other = await attachments.upload({ name: 'other.wav', data: wav(0.5, 220) });
    expect(other.attachment_id).not.toBe(first.attachment_id);
    expect(await db.attachments.count()).toBe(2);

    const blob = await attachments.blob(first.attachment_id);
    expect(blob.type).toBe('audio/wav');
    expect(new Uint8Array(await blob.arrayBuffer())).toEqual(bytes);
    expect(await attachments.get(first.attachment_id)).toEqual(first);
  });

  it('stores the same bytes once even when both uploads arrive at the same time', async () => {
    const attachments = service();
    const bytes = wav();
    const [a, b] = await Promise.all([
      attachments.upload({ name: 'a.wav', data: bytes }),
      attachments.upload({ name: 'b.wav', data: bytes.slice() }),
    ]);
    expect(a.attachment_id).toBe(b.attachment_id);
    expect(await db.attachments.count()).toBe(1);
  });

  it('takes the type from the bytes, not from the name', async () => {
    const attachments = service();
    const stored = await attachments.upload({ name: 'voice.wav', data: HEADERS.oggOpus });
    expect(stored.mime_type).toBe('audio/ogg');
  });

  it('refuses what is not audio with UNSUPPORTED_AUDIO_FORMAT, and stores nothing', async () => {
    const attachments = service();
    await expectCode(
      attachments.upload({ name: 'picture.png', mime_type: 'image/png', data: HEADERS.png }),
      'UNSUPPORTED_AUDIO_FORMAT',
      /not audio in a supported format/,
    );
    await expectCode(
      attachments.upload({ name: 'song.mp3', data: new TextEncoder().encode('just some text') }),
      'UNSUPPORTED_AUDIO_FORMAT',
      /marked as MP3, but its content is not MP3/,
    );
    expect(await db.attachments.count()).toBe(0);
  });

  it('refuses empty and invalid input with VALIDATION_FAILED, and oversized files with PAYLOAD_TOO_LARGE', async () => {
    const attachments = service({ maxBytes: 1000 });
    await expectCode(
      attachments.upload({ name: 'a.wav', data: new Uint8Array() }),
      'VALIDATION_FAILED',
      /empty/,
    );
    await expectCode(attachments.upload({ name: '', data: wav() }), 'VALIDATION_FAILED');
    await expectCode(
      attachments.upload({ name: 'a.wav', data: 'not bytes' } as unknown as Parameters<
        AttachmentService['upload']
      >[0]),
      'VALIDATION_FAILED',
    );
    await expectCode(attachments.upload({ name: 'a.wav', data: wav(1) }), 'PAYLOAD_TOO_LARGE');
    expect(await db.attachments.count()).toBe(0);
  });

  it('answers ATTACHMENT_NOT_FOUND for unknown ids and VALIDATION_FAILED for paths', async () => {
    const attachments = service();
    await expectCode(attachments.get('attachment_missing'), 'ATTACHMENT_NOT_FOUND');
    await expectCode(attachments.blob('attachment_missing'), 'ATTACHMENT_NOT_FOUND');
    await expectCode(attachments.delete('attachment_missing'), 'ATTACHMENT_NOT_FOUND');
    await expectCode(attachments.get('../secrets/key'), 'VALIDATION_FAILED');
  });

  it('deletes an attachment, but not while work still reads it (STATE_CONFLICT)', async () => {
    let busy = true;
    const attachments = service({ inUse: async () => busy });
    const stored = await attachments.upload({ name: 'talk.wav', data: wav() });
    await expectCode(attachments.delete(stored.attachment_id), 'STATE_CONFLICT', /still queued or running/);
    busy = false;
    await attachments.delete(stored.attachment_id);
    await expectCode(attachments.get(stored.attachment_id), 'ATTACHMENT_NOT_FOUND');
  });
});
