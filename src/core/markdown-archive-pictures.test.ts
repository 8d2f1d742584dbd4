import { deflateSync, strToU8, unzipSync, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import {
  readArchivePictures,
  readZipArchiveFrom,
  withPicturesTaken,
  type ArchivePicture,
} from './markdown-archive';
import { ZipBlobWriter } from './markdown-archive-writer';
import { rawZip } from './test-zips';
import { blobSource, bytesSource } from './zip-reader';

const MIB = 1024 * 1024;
const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3, 4]);

async function pictureBytes(
  source: ReturnType<typeof bytesSource>,
  pictures: readonly ArchivePicture[],
  limits = {},
) {
  const read: Record<string, number[]> = {};
  for await (const { picture, bytes } of readArchivePictures(source, pictures, { limits })) {
    read[picture.path] = [...bytes];
  }
  return read;
}

describe('pictures in an archive', () => {
  it('lists the pictures a note could link, still as left out, without inflating them', async () => {
    const zip = zipSync({
      'vault/a.md': strToU8('![](img/p.png)'),
      'vault/img/p.png': PNG,
      'vault/img/p.jpeg': PNG,
      'vault/../evil/q.webp': PNG,
      'vault/img/vector.svg': strToU8('<svg/>'),
      'vault/doc.pdf': strToU8('%PDF'),
      'vault/.obsidian/icon.png': PNG,
      'vault/empty.gif': new Uint8Array(0),
    });
    const read = await readZipArchiveFrom(bytesSource(zip));
    expect(read.files.map((file) => file.path)).toEqual(['vault/a.md']);
    expect(read.pictures.map((picture) => [picture.path, picture.raw_path])).toEqual([
      ['vault/img/p.png', 'vault/img/p.png'],
      ['vault/img/p.jpeg', 'vault/img/p.jpeg'],
      ['vault/evil/q.webp', 'vault/../evil/q.webp'],
    ]);
    // Until a note takes them, every file that is no note is reported as left out.
    expect(read.left_out).toBe(6);
    expect(read.issues.filter((issue) => issue.reason === 'not_markdown').map((issue) => issue.path)).toEqual(
      [
        'vault/img/p.png',
        'vault/img/p.jpeg',
        'vault/../evil/q.webp',
        'vault/img/vector.svg',
        'vault/doc.pdf',
        'vault/empty.gif',
      ],
    );
    const bytes = await pictureBytes(bytesSource(zip), read.pictures);
    expect(bytes['vault/img/p.png']).toEqual([...PNG]);
    expect(Object.keys(bytes)).toHaveLength(3);
  });

  it('leaves out pictures above the picture limit, declared or inflated, and those past the total', async () => {
    const big = new Uint8Array(2 * MIB).fill(7);
    const zip = rawZip([
      { name: 'a.md', data: strToU8('x') },
      { name: 'declared-big.png', data: PNG, declared_size: 3 * MIB },
      { name: 'lying.png', data: deflateSync(big), method: 8, declared_size: 100 },
      { name: 'ok.png', data: PNG },
      { name: 'second.png', data: PNG },
    ]);
    const limits = { max_picture_bytes: 1 * MIB, max_total_bytes: PNG.byteLength };
    const read = await readZipArchiveFrom(bytesSource(zip), { limits });
    expect(read.pictures.map((picture) => picture.path)).toEqual(['lying.png', 'ok.png', 'second.png']);
    // The lying entry inflates past what it declared and is passed over; the total holds one PNG.
    expect(Object.keys(await pictureBytes(bytesSource(zip), read.pictures, limits))).toEqual(['ok.png']);
  });

  it('stops between pictures when the import is cancelled', async () => {
    const zip = zipSync({ 'a.md': strToU8('x'), 'p.png': PNG, 'q.png': PNG });
    const read = await readZipArchiveFrom(bytesSource(zip));
    const controller = new AbortController();
    const seen: string[] = [];
    await expect(async () => {
      for await (const { picture } of readArchivePictures(bytesSource(zip), read.pictures, {
        signal: controller.signal,
      })) {
        seen.push(picture.path);
        controller.abort();
      }
    }).rejects.toMatchObject({ name: 'AbortError' });
    expect(seen).toEqual(['p.png']);
  });

  it('takes pictures that went in back from the left-out files', () => {
    const issues = [
      { path: 'a.png', reason: 'not_markdown', action: 'skipped' as const },
      { path: 'b.png', reason: 'not_markdown', action: 'skipped' as const },
      { path: 'c.md', reason: 'not_utf8', action: 'repaired' as const },
    ];
    expect(withPicturesTaken({ issues, left_out: 1500 }, new Set(['a.png', 'c.md']))).toEqual({
      issues: [issues[1], issues[2]],
      left_out: 1498,
    });
    expect(withPicturesTaken({ issues, left_out: 2 }, new Set())).toEqual({ issues, left_out: 2 });
  });
});

describe('ZipBlobWriter.addStored', () => {
  it('stores bytes as they are, beside deflated notes, readable by any unzip', async () => {
    const writer = new ZipBlobWriter();
    writer.add('NotesAgent/a.md', ['![](attachments/p.png)']);
    writer.addStored('NotesAgent/attachments/p.png', PNG);
    expect(() => writer.addStored('NotesAgent/attachments/p.png', PNG)).toThrow(/Two files share the path/);
    const blob = writer.finish();
    const bytes = new Uint8Array(await blob.arrayBuffer());
    expect([...unzipSync(bytes)['NotesAgent/attachments/p.png']!]).toEqual([...PNG]);
    const read = await readZipArchiveFrom(blobSource(blob));
    expect(read.pictures.map((picture) => picture.entry.method)).toEqual([0]);
  });
});
