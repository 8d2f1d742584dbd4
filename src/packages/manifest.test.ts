import { describe, expect, it } from 'vitest';
import { ManifestReadError, manifestProblemDetails, readManifest } from './manifest';
import { PackageReadError } from './package-errors';
import { readFolderPackage } from './read-package';

const pkg = (files: Record<string, string | Uint8Array>) =>
  readFolderPackage(
    'p',
    Object.entries(files).map(([path, value]) => ({
      path,
      bytes: typeof value === 'string' ? new TextEncoder().encode(value) : value,
    })),
  );

function refusalOf(run: () => unknown): ManifestReadError {
  try {
    run();
  } catch (error) {
    if (error instanceof ManifestReadError) return error;
    throw error;
  }
  throw new Error('the manifest was accepted');
}

describe('manifest refusals keep where and why', () => {
  it('a YAML syntax error keeps its line and column, as details and in the message', () => {
    const refused = refusalOf(() =>
      readManifest(pkg({ 'theme.yaml': 'theme_id: sepia\nname: [unclosed\n', 'x.css': '' }), 'theme.yaml'),
    );
    // Still the reader's problem, for callers that only know those.
    expect(refused).toBeInstanceOf(PackageReadError);
    expect(refused.problem).toBe('manifest_invalid');
    expect(manifestProblemDetails(refused)).toEqual({
      reason: 'manifest_yaml',
      file: 'theme.yaml',
      line: expect.any(Number),
      column: expect.any(Number),
    });
    expect(refused.message).toMatch(/^theme\.yaml could not be parsed at line \d+, column \d+: /);
    expect(refused.message).not.toContain('\n');
  });

  it('an unclosed bracket is placed on its own line, where the closing one is missing', () => {
    for (const text of [
      'theme_id: sepia\nname: [unclosed\n',
      'theme_id: sepia\nname: [unclosed\nversion: 1.0.0\n',
    ]) {
      const refused = refusalOf(() => readManifest(pkg({ 'theme.yaml': text }), 'theme.yaml'));
      expect(manifestProblemDetails(refused)).toMatchObject({ reason: 'manifest_yaml', line: 2, column: 16 });
    }
  });

  it('a duplicate key is placed at the second one', () => {
    const refused = refusalOf(() => readManifest(pkg({ 'theme.yaml': 'a: 1\na: 2\n' }), 'theme.yaml'));
    expect(manifestProblemDetails(refused)).toMatchObject({ reason: 'manifest_yaml', line: 2, column: 1 });
  });

  it('a refused alias and broken JSON are syntax errors without a place', () => {
    const laughs = 'a: &a [x, x]\nb: [*a, *a]\n';
    expect(
      manifestProblemDetails(refusalOf(() => readManifest(pkg({ 'theme.yaml': laughs }), 'theme.yaml'))),
    ).toEqual({ reason: 'manifest_yaml', file: 'theme.yaml' });
    expect(
      manifestProblemDetails(refusalOf(() => readManifest(pkg({ 'plugin.json': '{"id"' }), 'plugin.json'))),
    ).toEqual({ reason: 'manifest_yaml', file: 'plugin.json' });
  });

  it('tells a missing file, a list, and bytes that are not UTF-8 apart', () => {
    const reasonOf = (files: Record<string, string | Uint8Array>) =>
      manifestProblemDetails(refusalOf(() => readManifest(pkg({ 'x.css': '', ...files }), 'theme.yaml')))
        .reason;
    expect(reasonOf({})).toBe('manifest_missing');
    expect(reasonOf({ 'theme.yaml': '- 1\n- 2\n' })).toBe('manifest_not_mapping');
    expect(reasonOf({ 'theme.yaml': new Uint8Array([0x6e, 0x3a, 0xff]) })).toBe('manifest_encoding');
  });

  it('has nothing to add to other errors', () => {
    expect(manifestProblemDetails(new PackageReadError('symlink', 'a link'))).toEqual({});
    expect(manifestProblemDetails(new Error('x'))).toEqual({});
  });
});
