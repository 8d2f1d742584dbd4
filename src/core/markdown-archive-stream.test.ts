import { deflateSync, strToU8, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import {
  readZipArchiveChecked,
  readZipArchiveFrom,
  type ArchiveReadProgress,
  type ArchiveReadResult,
} from './markdown-archive';
import { rawZip } from './test-zips';
import { blobSource, bytesSource, type ZipSource } from './zip-reader';

const KIB = 1024;
const MIB = 1024 * KIB;
const ALPHABET = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 \n';

/** Text deflate cannot shrink much (about 3:4), made by a seeded xorshift so runs are repeatable. */
function noise(length: number, seed = 1): string {
  let state = seed >>> 0 || 1;
  const out: string[] = [];
  for (let i = 0; i < length; i++) {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    out.push(ALPHABET[(state >>> 0) % ALPHABET.length]!);
  }
  return out.join('');
}

function zipOf(files: Record<string, string>, level: 0 | 6 = 6): Uint8Array {
  return zipSync(Object.fromEntries(Object.entries(files).map(([path, text]) => [path, strToU8(text)])), {
    level,
  });
}

/** Counts the reads that reach the source, to show small notes share a window. */
function counting(source: ZipSource): { source: ZipSource; reads: () => number } {
  let reads = 0;
  return {
    source: {
      size: source.size,
      read: (offset, length) => {
        reads++;
        return source.read(offset, length);
      },
    },
    reads: () => reads,
  };
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected a rejection');
}

const immediately = () => Promise.resolve();

describe('readZipArchiveFrom: an archive read in steps', () => {
  const big = {
    'vault/a.md': noise(600 * KIB, 1),
    'vault/b.md': noise(900 * KIB, 2),
    'vault/c.md': '# small\n',
  };

  it('gives what the one-piece reader gives, with progress after each step up to the total', async () => {
    const zip = zipOf(big);
    const seen: ArchiveReadProgress[] = [];
    const read = await readZipArchiveFrom(blobSource(new Blob([zip as Uint8Array<ArrayBuffer>])), {
      stepBytes: 128 * KIB,
      pause: immediately,
      onProgress: (progress) => {
        seen.push(progress);
      },
    });
    expect(read).toEqual(readZipArchiveChecked(zip));
    expect(read.files.map((file) => file.content.length)).toEqual([600 * KIB, 900 * KIB, 8]);
    const total = seen[0]!.total;
    // The compressed Markdown bytes: more than half the 1.5 MB of text, since it barely compresses.
    expect(total).toBeGreaterThan(750 * KIB);
    expect(total).toBeLessThan(zip.byteLength);
    expect(seen.every((p) => p.total === total)).toBe(true);
    expect(seen.length).toBeGreaterThanOrEqual(Math.floor(total / (128 * KIB)));
    for (let i = 1; i < seen.length; i++) expect(seen[i]!.read).toBeGreaterThanOrEqual(seen[i - 1]!.read);
    expect(seen.at(-1)).toEqual({ read: total, total });
  });

  it('reads a vault of small notes through a window: a few reads and a few steps, not one per note', async () => {
    const files = Object.fromEntries(
      Array.from({ length: 2000 }, (_, i) => [`vault/n${i}.md`, `# Note ${i}\n\n${noise(200, i + 1)}\n`]),
    );
    const zip = zipOf(files);
    const { source, reads } = counting(bytesSource(zip));
    let steps = 0;
    const read = await readZipArchiveFrom(source, {
      pause: immediately,
      onProgress: () => {
        steps++;
      },
    });
    expect(read.files).toHaveLength(2000);
    expect(read.files[1999]?.content).toBe(files['vault/n1999.md']);
    expect(reads()).toBeLessThan(5);
    expect(steps).toBeLessThan(5);
  });

  it('lets other work in between steps, and stops at the next step once aborted', async () => {
    const zip = zipOf(big);
    const controller = new AbortController();
    const seen: ArchiveReadProgress[] = [];
    let pauses = 0;
    const error = await rejection(
      readZipArchiveFrom(bytesSource(zip), {
        signal: controller.signal,
        stepBytes: 64 * KIB,
        pause: async () => {
          pauses++;
        },
        onProgress: (progress) => {
          seen.push(progress);
          // A cancel arriving while the second note is being read.
          if (progress.read > 700 * KIB) controller.abort();
        },
      }),
    );
    expect(error).toMatchObject({ name: 'AbortError' });
    const total = seen[0]!.total;
    expect(seen.at(-1)!.read).toBeLessThan(total);
    // The abort is honoured at the step it arrived in: no progress after it.
    expect(seen.filter((p) => p.read > 700 * KIB)).toHaveLength(1);
    expect(pauses).toBe(seen.length);
  });

  it('by default yields a macrotask between steps, so a timer (a cancel message) runs mid-read', async () => {
    const zip = zipOf(big, 0);
    const controller = new AbortController();
    let steps = 0;
    const reading = readZipArchiveFrom(bytesSource(zip), {
      signal: controller.signal,
      stepBytes: 64 * KIB,
      onProgress: () => {
        steps++;
      },
    });
    // Not aborted from inside the reader's own callbacks: from a task queued by the outside world.
    setTimeout(() => controller.abort(), 0);
    const error = await rejection(reading);
    expect(error).toMatchObject({ name: 'AbortError' });
    expect(steps).toBeLessThan(Math.ceil(zip.byteLength / (64 * KIB)));
  });

  it('does not start when the signal is already aborted', async () => {
    const controller = new AbortController();
    controller.abort();
    const error = await rejection(readZipArchiveFrom(bytesSource(zipOf(big)), { signal: controller.signal }));
    expect(error).toMatchObject({ name: 'AbortError' });
  });

  describe('corrupt input is refused with the entry and the reason, as the one-piece reader does', () => {
    const both = async (zip: Uint8Array): Promise<[unknown, unknown]> => {
      let syncError: unknown;
      try {
        readZipArchiveChecked(zip);
      } catch (error) {
        syncError = error;
      }
      return [syncError, await rejection(readZipArchiveFrom(bytesSource(zip), { pause: immediately }))];
    };

    it('not a zip at all', async () => {
      const [, error] = await both(strToU8('just some text, no zip here'));
      expect(error).toMatchObject({ name: 'ArchiveFormatError', reason: 'invalid_zip' });
    });

    it('a damaged deflate stream in the middle of a note', async () => {
      const good = deflateSync(strToU8(noise(300 * KIB, 7)));
      const broken = good.slice();
      broken.fill(0xff, 1000, 1400);
      const zip = rawZip([
        { name: 'v/ok.md', data: strToU8('fine') },
        { name: 'v/broken.md', data: broken, method: 8, declared_size: 300 * KIB },
      ]);
      const [syncError, error] = await both(zip);
      expect(error).toMatchObject({ reason: 'invalid_zip', path: 'v/broken.md' });
      expect(error).toMatchObject({ reason: (syncError as { reason: string }).reason });
    });

    it('a truncated archive and an entry whose local header is missing', async () => {
      const zip = zipOf(big);
      const [, truncated] = await both(zip.subarray(0, zip.byteLength - 10));
      expect(truncated).toMatchObject({ reason: 'invalid_zip' });

      const damaged = zip.slice();
      damaged.fill(0, 0, 4); // the first local header's signature
      const [, missing] = await both(damaged);
      expect(missing).toMatchObject({ reason: 'invalid_zip', path: 'vault/a.md' });
      expect((missing as Error).message).toMatch(/local header/);
    });

    it('headers that lie about sizes stop at the limit while inflating', async () => {
      const zeros = deflateSync(new Uint8Array(3 * MIB), { level: 1 });
      const bomb = rawZip([{ name: 'v/bomb.md', data: zeros, method: 8, declared_size: 1000 }]);
      const [syncError, error] = await both(bomb);
      expect(error).toMatchObject({ reason: 'ratio_too_high', path: 'v/bomb.md' });
      expect(error).toEqual(syncError);

      const honest = rawZip([{ name: 'v/big.md', data: zeros, method: 8, declared_size: 3 * MIB }]);
      const limited = await rejection(
        readZipArchiveFrom(bytesSource(honest), { limits: { max_entry_bytes: MIB }, pause: immediately }),
      );
      expect(limited).toMatchObject({ reason: 'entry_too_large', path: 'v/big.md', limit: MIB });
    });
  });

  it('keeps the import report of the one-piece reader', async () => {
    const zip = rawZip([
      { name: 'v/../../up.md', data: strToU8('up') },
      { name: 'v/same.md', data: strToU8('first') },
      { name: 'v/same.md', data: strToU8('second') },
      { name: 'v/bytes.md', data: new Uint8Array([0x61, 0xff]) },
    ]);
    const read: ArchiveReadResult = await readZipArchiveFrom(bytesSource(zip), { pause: immediately });
    expect(read).toEqual(readZipArchiveChecked(zip));
    expect(read.issues.map((issue) => issue.reason)).toEqual([
      'path_outside_archive',
      'duplicate_path',
      'not_utf8',
    ]);
  });
});
