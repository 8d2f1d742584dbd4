import { unzipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { readZipArchive } from './markdown-archive';
import { ZipBlobWriter } from './markdown-archive-writer';

const bytesOf = async (blob: Blob) => new Uint8Array(await blob.arrayBuffer());
const text = (bytes: Uint8Array | undefined) => new TextDecoder().decode(bytes);

describe('ZipBlobWriter', () => {
  it('writes files from text parts that unzip and import back as they were', async () => {
    const writer = new ZipBlobWriter();
    writer.add('NotesAgent/a.md', ['---\ntitle: a\n---\n', 'Body of a, 进程调度 😀\n']);
    writer.add('NotesAgent/课程/b.md', ['', '']);
    const blob = writer.finish();
    expect(blob.type).toBe('application/zip');
    const files = unzipSync(await bytesOf(blob));
    expect(text(files['NotesAgent/a.md'])).toBe('---\ntitle: a\n---\nBody of a, 进程调度 😀\n');
    expect(text(files['NotesAgent/课程/b.md'])).toBe('');
    // The app's own reader takes it too (sizes come from the central directory).
    expect(readZipArchive(await bytesOf(blob)).map((file) => file.path)).toEqual([
      'NotesAgent/a.md',
      'NotesAgent/课程/b.md',
    ]);
  });

  it('keeps a surrogate pair whole across encode slices', async () => {
    const writer = new ZipBlobWriter({ sliceChars: 3 });
    const body = 'ab😀cd😀😀e'.repeat(50);
    writer.add('x.md', [body]);
    expect(text(unzipSync(await bytesOf(writer.finish()))['x.md'])).toBe(body);
  });

  it('holds at most a flush of output in memory however large a file is', async () => {
    const writer = new ZipBlobWriter({ flushBytes: 64 * 1024, sliceChars: 16 * 1024 });
    // Text deflate cannot shrink much: seeded noise, several MiB of output.
    let state = 7;
    const characters: string[] = [];
    for (let i = 0; i < 1_500_000; i++) {
      state ^= state << 13;
      state ^= state >>> 17;
      state ^= state << 5;
      characters.push(String.fromCharCode(33 + ((state >>> 0) % 90)));
    }
    const body = characters.join('');
    writer.add('noise.md', [body]);
    const blob = writer.finish();
    expect(blob.size).toBeGreaterThan(1_000_000);
    // One flush plus the chunk that crossed it (a deflate step over one slice).
    expect(writer.peakPendingBytes).toBeLessThan(64 * 1024 + 64 * 1024);
    expect(text(unzipSync(await bytesOf(blob))['noise.md'])).toBe(body);
  });

  it('refuses a second file of one path, and cannot be used once finished or aborted', () => {
    const writer = new ZipBlobWriter();
    writer.add('a.md', ['x']);
    expect(() => writer.add('a.md', ['y'])).toThrow(expect.objectContaining({ reason: 'duplicate_path' }));
    writer.finish();
    expect(() => writer.add('b.md', ['y'])).toThrow();
    const aborted = new ZipBlobWriter();
    aborted.add('a.md', ['x']);
    aborted.abort();
    expect(() => aborted.finish()).toThrow();
  });
});
