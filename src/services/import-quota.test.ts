import Dexie from 'dexie';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { EventEnvelope } from '../contracts';
import { markdownFileFromNote, writeZipArchive } from '../core/markdown-archive';
import { testCore } from './test-core';

let current: ReturnType<typeof testCore>;
afterEach(async () => {
  vi.restoreAllMocks();
  await current?.close();
});

function zipOf(count: number): Uint8Array {
  const taken = new Set<string>();
  const files = Array.from({ length: count }, (_, i) =>
    markdownFileFromNote(
      { title: `Note ${i}`, folder: 'vault', body: `# ${i}\n\nbody ${i}\n`, tags: [], extra: {} },
      taken,
    ),
  );
  return writeZipArchive(files);
}

const quotaAbort = () =>
  new Dexie.AbortError('Transaction aborted', new DOMException('Quota exceeded.', 'QuotaExceededError'));

describe('import at the storage quota', () => {
  it('fails with STORAGE_QUOTA_EXCEEDED (not "cancelled") and leaves no note or archive behind', async () => {
    current = testCore();
    const { api, db } = current;
    const bulkAdd = db.blocks.bulkAdd.bind(db.blocks);
    let batches = 0;
    // The first batch lands; the second finds the disk full.
    vi.spyOn(db.blocks, 'bulkAdd').mockImplementation((...args: Parameters<typeof bulkAdd>) =>
      ++batches >= 2 ? Dexie.Promise.reject(quotaAbort()) : bulkAdd(...args),
    );
    const job = await api.archive.importZip({ data: zipOf(60), file_name: 'vault.zip' });
    const events: EventEnvelope[] = [];
    await api.events.subscribe(job.job_id, 0, (event) => events.push(event)).closed;
    const last = events.at(-1)!;
    expect(last.event).toBe('Failed');
    expect(last.data).toMatchObject({ error: { code: 'STORAGE_QUOTA_EXCEEDED' } });
    const stored = await api.jobs.get(job.job_id);
    expect(stored.status).toBe('failed');
    expect(stored.error?.code).toBe('STORAGE_QUOTA_EXCEEDED');
    expect((await api.notes.list({ limit: 10 })).items).toEqual([]);
    expect(await db.attachments.count()).toBe(0);
  });

  it('refuses the upload itself with STORAGE_QUOTA_EXCEEDED when the archive cannot be stored', async () => {
    current = testCore();
    const { api, db } = current;
    vi.spyOn(db.attachments, 'add').mockImplementation(() => Dexie.Promise.reject(quotaAbort()));
    await expect(api.archive.importZip({ data: zipOf(3), file_name: 'vault.zip' })).rejects.toMatchObject({
      code: 'STORAGE_QUOTA_EXCEEDED',
    });
    expect((await api.jobs.list({})).items).toEqual([]);
  });
});
