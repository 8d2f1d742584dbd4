import { afterEach, describe, expect, it } from 'vitest';
import { MAX_CHAT_IMAGE_BYTES, type EventEnvelope } from '../contracts';
import { testCore } from './test-core';

// 1 × 1 pixel, a real PNG (the HTML exporter embeds it as it is).
const PNG = Uint8Array.from(
  atob('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=='),
  (character) => character.charCodeAt(0),
);

let core: ReturnType<typeof testCore>;
afterEach(async () => {
  await core?.idle();
  await core?.close();
});

async function settled(jobId: string): Promise<EventEnvelope[]> {
  const seen: EventEnvelope[] = [];
  await core.api.events.subscribe(jobId, 0, (event) => seen.push(event)).closed;
  return seen;
}

describe('pictures in notes', () => {
  it('stores a picture once, typed by its bytes, and serves it by id', async () => {
    core = testCore();
    const first = await core.api.noteImages.attach({
      name: '白板.png',
      mime_type: '',
      data: new Blob([PNG]),
    });
    expect(first).toMatchObject({ name: '白板.png', mime_type: 'image/png', size: PNG.length });
    const again = await core.api.noteImages.attach({ name: 'copy.jpg', mime_type: 'image/jpeg', data: PNG });
    expect(again.attachment_id).toBe(first.attachment_id);
    const blob = await core.api.noteImages.blob(first.attachment_id);
    expect(blob.type).toBe('image/png');
    expect(new Uint8Array(await blob.arrayBuffer())).toEqual(PNG);
    expect(await core.db.attachments.count()).toBe(1);
  });

  it('refuses what is not a raster picture, empty and oversized files, and stores nothing', async () => {
    core = testCore();
    const svg = new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg"><script/></svg>');
    await expect(core.api.noteImages.attach({ name: 'a.svg', data: svg })).rejects.toMatchObject({
      code: 'VALIDATION_FAILED',
    });
    await expect(core.api.noteImages.attach({ name: 'a.png', data: new Uint8Array() })).rejects.toMatchObject(
      { code: 'VALIDATION_FAILED' },
    );
    const huge = new Uint8Array(MAX_CHAT_IMAGE_BYTES + 1);
    huge.set(PNG);
    await expect(core.api.noteImages.attach({ name: 'big.png', data: huge })).rejects.toMatchObject({
      code: 'PAYLOAD_TOO_LARGE',
      details: { limit: MAX_CHAT_IMAGE_BYTES },
    });
    expect(await core.db.attachments.count()).toBe(0);
  });

  it('answers an unknown picture with ATTACHMENT_NOT_FOUND and a path for an id with VALIDATION_FAILED', async () => {
    core = testCore();
    await expect(core.api.noteImages.blob('attachment_missing')).rejects.toMatchObject({
      code: 'ATTACHMENT_NOT_FOUND',
    });
    await expect(core.api.noteImages.blob('../etc/passwd')).rejects.toMatchObject({
      code: 'VALIDATION_FAILED',
    });
  });

  it('embeds stored pictures in an exported file and says which are gone', async () => {
    core = testCore();
    const picture = await core.api.noteImages.attach({ name: '板书.png', data: PNG });
    const note = await core.api.notes.create({
      title: '第三讲',
      body: `# 第三讲\n\n![板书](attachment:${picture.attachment_id})\n\n![已删除](attachment:attachment_gone)\n`,
    });
    const job = await core.api.exports.create({
      source: { type: 'note', note_id: note.note_id },
      format: 'html',
    });
    expect((await settled(job.job_id)).at(-1)?.event).toBe('Completed');
    const done = await core.api.exports.get(job.job_id);
    expect(done.warnings).toEqual(['HTML: a picture that is no longer stored is shown as its alt text.']);
    const html = new TextDecoder().decode((await core.api.exports.file(job.job_id)).data);
    expect(html).toContain(
      `<img src="data:image/png;base64,${btoa(String.fromCharCode(...PNG))}" alt="板书" />`,
    );
    expect(html).toContain('[已删除]');
    expect(html).not.toContain('attachment:');
  });
});
