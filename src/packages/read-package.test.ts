import { zipSync, type Zippable } from 'fflate';
import { describe, expect, it } from 'vitest';
import {
  PackageReadError,
  StagedPackages,
  readFolderPackage,
  readManifest,
  readZipPackage,
  type PackageProblem,
} from './index';

const text = (value: string): Uint8Array => new TextEncoder().encode(value);
const SYMLINK_ATTRS = (0o120777 << 16) >>> 0;

function problemOf(run: () => unknown): {
  problem: PackageProblem;
  entry: string | null;
  limit: number | null;
} {
  try {
    run();
  } catch (error) {
    if (error instanceof PackageReadError)
      return { problem: error.problem, entry: error.entry, limit: error.limit };
    throw error;
  }
  throw new Error('expected a PackageReadError');
}

/** Rewrites the uncompressed size the central directory declares for the first entry. */
function patchDeclaredSize(zip: Uint8Array, size: number): Uint8Array {
  const copy = zip.slice();
  const view = new DataView(copy.buffer);
  const eocd = copy.byteLength - 22;
  const directory = view.getUint32(eocd + 16, true);
  view.setUint32(directory + 24, size, true);
  return copy;
}

describe('readZipPackage', () => {
  it('reads every file, strips a single top-level folder and keeps bytes exact', () => {
    const zip = zipSync({
      'my-theme/theme.yaml': text('theme_id: sepia\n'),
      'my-theme/css/main.css': text('body { color: #333 }'),
      'my-theme/preview.png': new Uint8Array([137, 80, 78, 71]),
      'my-theme/empty/': new Uint8Array(0),
    });
    const pkg = readZipPackage('my-theme.zip', zip);
    expect([...pkg.files.keys()].sort()).toEqual(['css/main.css', 'preview.png', 'theme.yaml']);
    expect(new TextDecoder().decode(pkg.files.get('css/main.css'))).toBe('body { color: #333 }');
    expect(pkg.name).toBe('my-theme.zip');
  });

  it('keeps paths as they are when files sit at the root', () => {
    const pkg = readZipPackage(
      'p.zip',
      zipSync({ 'plugin.yaml': text('a: 1'), 'server/main.js': text('x') }),
    );
    expect([...pkg.files.keys()].sort()).toEqual(['plugin.yaml', 'server/main.js']);
  });

  it('refuses what is not a zip', () => {
    expect(problemOf(() => readZipPackage('x.zip', text('not a zip at all, just text')))).toMatchObject({
      problem: 'not_an_archive',
    });
    expect(problemOf(() => readZipPackage('x.zip', new Uint8Array(0))).problem).toBe('not_an_archive');
  });

  it.each([
    ['../escape.css', 'path_outside_package'],
    ['a/../../escape.css', 'path_outside_package'],
    ['/etc/passwd', 'path_outside_package'],
    ['C:/Windows/win.ini', 'path_outside_package'],
    ['..\\windows.css', 'path_outside_package'],
  ] as const)('refuses the entry %s (%s)', (name, problem) => {
    const zip = zipSync({ 'theme.yaml': text('a: 1'), [name]: text('x') });
    expect(problemOf(() => readZipPackage('x.zip', zip))).toMatchObject({ problem });
  });

  it('refuses symbolic links', () => {
    const zip = zipSync({
      'theme.yaml': text('a: 1'),
      'link.css': [text('/etc/passwd'), { os: 3, attrs: SYMLINK_ATTRS }],
    } as Zippable);
    expect(problemOf(() => readZipPackage('x.zip', zip))).toEqual({
      problem: 'symlink',
      entry: 'link.css',
      limit: null,
    });
  });

  it('refuses too many entries, deep paths and long names before inflating', () => {
    const many: Zippable = {};
    for (let index = 0; index < 11; index += 1) many[`f${index}.css`] = text('x');
    expect(problemOf(() => readZipPackage('x.zip', zipSync(many), { max_entries: 10 }))).toMatchObject({
      problem: 'too_many_entries',
      limit: 10,
    });
    const deep = zipSync({ 'a/b/c/d/e.css': text('x') });
    expect(problemOf(() => readZipPackage('x.zip', deep, { max_path_depth: 4 }))).toMatchObject({
      problem: 'path_too_deep',
      entry: 'a/b/c/d/e.css',
    });
    const long = zipSync({ [`${'n'.repeat(40)}.css`]: text('x') });
    expect(problemOf(() => readZipPackage('x.zip', long, { max_name_length: 30 })).problem).toBe(
      'name_too_long',
    );
  });

  it('refuses an oversized entry, an oversized total and a bomb-like ratio from the directory', () => {
    const zeros = new Uint8Array(3 * 1024 * 1024);
    const bomb = zipSync({ 'zeros.bin': zeros }, { level: 9 });
    expect(problemOf(() => readZipPackage('x.zip', bomb, { max_entry_bytes: 1024 * 1024 }))).toMatchObject({
      problem: 'entry_too_large',
      entry: 'zeros.bin',
      limit: 1024 * 1024,
    });
    expect(problemOf(() => readZipPackage('x.zip', bomb)).problem).toBe('ratio_too_high');
    const two = zipSync({ 'a.bin': new Uint8Array(600), 'b.bin': new Uint8Array(600) });
    expect(problemOf(() => readZipPackage('x.zip', two, { max_total_bytes: 1000 }))).toMatchObject({
      problem: 'total_too_large',
      limit: 1000,
    });
  });

  it('stops inflating at the limit when the directory lies about an entry size', () => {
    const honest = zipSync({ 'zeros.bin': new Uint8Array(2 * 1024 * 1024) });
    const lying = patchDeclaredSize(honest, 100);
    expect(problemOf(() => readZipPackage('x.zip', lying, { max_entry_bytes: 1024 * 1024 }))).toMatchObject({
      problem: 'entry_too_large',
      entry: 'zeros.bin',
    });
    // Under the limits, a size that does not match its header is still refused.
    expect(problemOf(() => readZipPackage('x.zip', lying)).problem).toBe('not_an_archive');
  });

  it('refuses two entries that normalise to the same path', () => {
    // fflate's object form cannot hold duplicates: build two archives' worth of names that collide.
    const zip = zipSync({ 'a/./b.css': text('1'), 'a/b.css': text('2') });
    expect(problemOf(() => readZipPackage('x.zip', zip))).toMatchObject({
      problem: 'duplicate_path',
      entry: 'a/b.css',
    });
  });

  it('reads stored (uncompressed) entries', () => {
    const zip = zipSync({ 'theme.css': [text('p{}'), { level: 0 }] } as Zippable);
    expect(new TextDecoder().decode(readZipPackage('x.zip', zip).files.get('theme.css'))).toBe('p{}');
  });

  it('refuses damaged deflate data', () => {
    const zip = zipSync({ 'a.css': text('a'.repeat(5000)) });
    const damaged = zip.slice();
    const start = 30 + 'a.css'.length;
    damaged.set(new Uint8Array(20).fill(0xff), start);
    expect(problemOf(() => readZipPackage('x.zip', damaged)).problem).toBe('not_an_archive');
  });
});

describe('readFolderPackage', () => {
  it('applies the same path and size rules to a picked folder', () => {
    const pkg = readFolderPackage('theme', [
      { path: 'theme/theme.yaml', bytes: text('a: 1') },
      { path: 'theme/main.css', bytes: text('p{}') },
    ]);
    expect([...pkg.files.keys()].sort()).toEqual(['main.css', 'theme.yaml']);
    expect(problemOf(() => readFolderPackage('t', [{ path: 't/../x', bytes: text('') }])).problem).toBe(
      'path_outside_package',
    );
    expect(
      problemOf(() =>
        readFolderPackage('t', [{ path: 'big', bytes: new Uint8Array(11) }], { max_entry_bytes: 10 }),
      ).problem,
    ).toBe('entry_too_large');
    expect(
      problemOf(() =>
        readFolderPackage('t', [
          { path: 'a', bytes: text('1') },
          { path: './a', bytes: text('2') },
        ]),
      ).problem,
    ).toBe('duplicate_path');
  });
});

describe('readManifest', () => {
  const pkg = (files: Record<string, string>) =>
    readFolderPackage(
      'p',
      Object.entries(files).map(([path, value]) => ({ path, bytes: text(value) })),
    );

  it('parses YAML and JSON manifests into plain objects', () => {
    expect(
      readManifest(pkg({ 'theme.yaml': 'theme_id: sepia\nis_dark: false\n', 'x.css': '' }), 'theme.yaml'),
    ).toEqual({
      theme_id: 'sepia',
      is_dark: false,
    });
    expect(readManifest(pkg({ 'plugin.json': '{"id":"p"}', 'x.js': '' }), 'plugin.json')).toEqual({
      id: 'p',
    });
  });

  it('says which manifest is missing or broken', () => {
    expect(problemOf(() => readManifest(pkg({ 'a.css': '', 'b.css': '' }), 'theme.yaml'))).toMatchObject({
      problem: 'manifest_missing',
      entry: 'theme.yaml',
    });
    expect(
      problemOf(() => readManifest(pkg({ 'theme.yaml': 'a: [1', 'x.css': '' }), 'theme.yaml')).problem,
    ).toBe('manifest_invalid');
    expect(
      problemOf(() => readManifest(pkg({ 'theme.yaml': '- 1\n- 2\n', 'x.css': '' }), 'theme.yaml')).problem,
    ).toBe('manifest_invalid');
    expect(
      problemOf(() => readManifest(pkg({ 'theme.yaml': 'a: 1\na: 2\n', 'x.css': '' }), 'theme.yaml')).problem,
    ).toBe('manifest_invalid');
  });

  it('refuses YAML aliases (billion laughs)', () => {
    const laughs = 'a: &a [x, x]\nb: &b [*a, *a]\nc: [*b, *b]\n';
    expect(
      problemOf(() => readManifest(pkg({ 'theme.yaml': laughs, 'x.css': '' }), 'theme.yaml')).problem,
    ).toBe('manifest_invalid');
  });
});

describe('StagedPackages', () => {
  it('hands out opaque ids, forgets the oldest beyond its capacity, and drops on request', () => {
    const staged = new StagedPackages(2);
    const make = (name: string) => ({ name, files: new Map<string, Uint8Array>() });
    const first = staged.stage(make('a'));
    const second = staged.stage(make('b'));
    expect(first).toMatch(/^pkg_[0-9a-f]{32}$/);
    expect(staged.get(first)?.name).toBe('a');
    staged.stage(make('c'));
    expect(staged.get(first)).toBeUndefined();
    expect(staged.get(second)?.name).toBe('b');
    staged.drop(second);
    expect(staged.get(second)).toBeUndefined();
  });
});
