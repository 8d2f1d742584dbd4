import { zipSync, type Zippable } from 'fflate';
import { afterEach, describe, expect, it } from 'vitest';
import { AppError, type ErrorCode } from '../contracts';
import { SecretsVault, SettingsRepository, ThemeRepository, type NotesAgentDatabase } from '../db';
import { freshDatabase } from '../db/test-database';
import { readFolderPackage, readManifest, readZipPackage } from '../packages';
import { SettingsService } from './settings-service';
import { ThemeService, type ThemeServiceOptions } from './theme-service';

const encoder = new TextEncoder();
const text = (value: string) => encoder.encode(value);
const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 73, 72, 68, 82]);
const WOFF2 = new Uint8Array([0x77, 0x4f, 0x46, 0x32, 0, 1, 0, 0]);

function manifestYaml(overrides: Record<string, string> = {}): string {
  const fields: Record<string, string> = {
    theme_id: 'paper',
    name: 'Paper',
    version: '1.2.0',
    author: 'Ada',
    description: 'Warm paper tones',
    min_app_version: '0.1.0',
    is_dark: 'false',
    css_entry: 'theme.css',
    preview: 'preview.png',
    ...overrides,
  };
  return Object.entries(fields)
    .filter(([, value]) => value !== '')
    .map(([key, value]) => `${key}: ${value}`)
    .join('\n');
}

const PAPER_CSS = `:root { --color-bg: #fbf7ee; --color-text: #3b3326; }
@font-face { font-family: 'Paper Serif'; src: url(fonts/serif.woff2) format('woff2'); }
.markdown-preview h1 { font-family: 'Paper Serif', serif; background: url(images/grain.png); }`;

function paperFiles(overrides: Zippable = {}): Zippable {
  return {
    'theme.yaml': text(manifestYaml()),
    'theme.css': text(PAPER_CSS),
    'preview.png': PNG,
    'fonts/serif.woff2': WOFF2,
    'images/grain.png': PNG,
    ...overrides,
  };
}

function zipOf(files: Zippable): Uint8Array {
  return zipSync({ 'paper-theme': files });
}

let db: NotesAgentDatabase;
let themes: ThemeService;
let settings: SettingsService;
let clockTick = 0;

function createService(overrides: Partial<ThemeServiceOptions> = {}): ThemeService {
  return new ThemeService({
    themes: new ThemeRepository(db),
    settings,
    appVersion: '0.1.0',
    now: () => `2026-12-01T10:00:0${clockTick++ % 10}.000Z`,
    ...overrides,
  });
}

function setUp(overrides: Partial<ThemeServiceOptions> = {}): void {
  db = freshDatabase();
  settings = new SettingsService(new SettingsRepository(db), new SecretsVault(db));
  themes = createService(overrides);
}

afterEach(async () => db?.delete());

async function failure(promise: Promise<unknown>): Promise<AppError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error('expected a failure');
}

async function expectCode(promise: Promise<unknown>, code: ErrorCode): Promise<AppError> {
  const error = await failure(promise);
  expect(error.code, error.message).toBe(code);
  return error;
}

async function stage(files: Zippable = paperFiles()): Promise<string> {
  return themes.selectPackage({ kind: 'zip', name: 'paper-theme.zip', bytes: zipOf(files) });
}

describe('ThemeService.selectPackage', () => {
  it('stages a zip or a folder behind an opaque id', async () => {
    setUp();
    const fromZip = await stage();
    const fromFolder = await themes.selectPackage({
      kind: 'folder',
      name: 'paper-theme',
      entries: Object.entries(paperFiles()).map(([path, bytes]) => ({
        path: `paper-theme/${path}`,
        bytes: bytes as Uint8Array,
      })),
    });
    expect(fromZip).not.toBe(fromFolder);
    expect((await themes.inspectPackage(fromFolder)).manifest.theme_id).toBe('paper');
  });

  it('refuses input that is not a picked package', async () => {
    setUp();
    await expectCode(themes.selectPackage({ kind: 'url', name: 'x' } as never), 'VALIDATION_FAILED');
  });

  it('maps the package reader problems to the theme codes', async () => {
    setUp();
    await expectCode(
      themes.selectPackage({ kind: 'zip', name: 'x.zip', bytes: text('not a zip') }),
      'IMPORT_ARCHIVE_INVALID',
    );
    const escape = await expectCode(
      themes.selectPackage({
        kind: 'folder',
        name: 'x',
        entries: [{ path: '../outside/theme.css', bytes: text('a{}') }],
      }),
      'THEME_RESOURCE_OUTSIDE_PACKAGE',
    );
    expect(escape.details.problem).toBe('path_outside_package');

    setUp({
      packages: {
        readZip: (name, bytes) => readZipPackage(name, bytes, { max_total_bytes: 64 }),
        readFolder: (name, entries) => readFolderPackage(name, entries),
        readManifest,
      },
    });
    const large = await expectCode(stage(), 'PAYLOAD_TOO_LARGE');
    expect(large.details).toMatchObject({ problem: 'total_too_large', limit: 64 });
  });
});

describe('ThemeService.inspectPackage', () => {
  it('returns the checked manifest, a preview and the checked CSS', async () => {
    setUp();
    const id = await stage();
    const inspection = await themes.inspectPackage(id);
    expect(inspection).toMatchObject({
      package_id: id,
      manifest: {
        theme_id: 'paper',
        name: 'Paper',
        version: '1.2.0',
        author: 'Ada',
        description: 'Warm paper tones',
        min_app_version: '0.1.0',
        is_dark: false,
        css_entry: 'theme.css',
        preview: 'preview.png',
      },
      warnings: [],
      compatible: true,
    });
    expect(inspection.preview_url).toMatch(/^data:image\/png;base64,/);
    // Tokens and note styles first, the package's CSS after, resources inlined.
    expect(inspection.preview_css).toContain('--color-code-bg');
    expect(inspection.preview_css).toContain('--color-bg:#fbf7ee');
    expect(inspection.preview_css).toContain('url(data:font/woff2;base64,');
    expect(inspection.preview_css).not.toContain('fonts/serif.woff2');
  });

  it('reports an app that is too old as incompatible, with a warning', async () => {
    setUp();
    const id = await stage(paperFiles({ 'theme.yaml': text(manifestYaml({ min_app_version: '2.0.0' })) }));
    const inspection = await themes.inspectPackage(id);
    expect(inspection.compatible).toBe(false);
    expect(inspection.warnings).toEqual(['This theme needs app version 2.0.0 or later (this is 0.1.0).']);
  });

  it('answers THEME_PACKAGE_NOT_FOUND for an id that was never staged', async () => {
    setUp();
    await expectCode(themes.inspectPackage('pkg_missing'), 'THEME_PACKAGE_NOT_FOUND');
    await expectCode(themes.inspectPackage(''), 'VALIDATION_FAILED');
  });

  it.each([
    ['theme_id', { theme_id: 'Bad Id!' }],
    ['version', { version: 'one' }],
    ['min_app_version', { min_app_version: 'latest' }],
    ['is_dark', { is_dark: 'maybe' }],
    ['css_entry', { css_entry: 'theme.scss' }],
    ['name', { name: '' }],
    ['author', { author: '' }],
    ['extra', { extra: 'field' }],
  ])('refuses a manifest with a bad %s', async (field, overrides) => {
    setUp();
    const id = await stage(paperFiles({ 'theme.yaml': text(manifestYaml(overrides)) }));
    const error = await expectCode(themes.inspectPackage(id), 'THEME_MANIFEST_INVALID');
    expect((error.details.fields as Array<{ path: string }>)[0]!.path).toBe(field);
  });

  it('says where theme.yaml has a syntax error, and which named file the package lacks', async () => {
    setUp();
    const broken = await stage(paperFiles({ 'theme.yaml': text('theme_id: paper\nname: [unclosed\n') }));
    const syntax = await expectCode(themes.inspectPackage(broken), 'THEME_MANIFEST_INVALID');
    expect(syntax.details).toMatchObject({
      reason: 'manifest_yaml',
      file: 'theme.yaml',
      line: expect.any(Number),
      column: expect.any(Number),
    });
    const withoutPreview = paperFiles();
    delete withoutPreview['preview.png'];
    const noPreview = await stage(withoutPreview);
    const missing = await expectCode(themes.inspectPackage(noPreview), 'THEME_MANIFEST_INVALID');
    expect(missing.details).toMatchObject({
      reason: 'file_missing',
      field: 'preview',
      path: 'preview.png',
    });
  });

  it('refuses a package without theme.yaml, or one that takes a built-in id', async () => {
    setUp();
    const files = paperFiles();
    delete files['theme.yaml'];
    await expectCode(themes.inspectPackage(await stage(files)), 'THEME_MANIFEST_INVALID');
    const builtin = await stage(paperFiles({ 'theme.yaml': text(manifestYaml({ theme_id: 'dark' })) }));
    await expectCode(themes.inspectPackage(builtin), 'THEME_MANIFEST_INVALID');
  });

  it('refuses entries and resources that leave the package', async () => {
    setUp();
    const entry = await stage(
      paperFiles({ 'theme.yaml': text(manifestYaml({ css_entry: '../theme.css' })) }),
    );
    await expectCode(themes.inspectPackage(entry), 'THEME_RESOURCE_OUTSIDE_PACKAGE');
    const resource = await stage(paperFiles({ 'theme.css': text('a { background: url(../../x.png) }') }));
    await expectCode(themes.inspectPackage(resource), 'THEME_RESOURCE_OUTSIDE_PACKAGE');
  });

  it('refuses unsafe CSS with the line and what was found', async () => {
    setUp();
    const id = await stage(
      paperFiles({ 'theme.css': text(':root { --x: 1 }\n@\\69mport "https://evil.example/x.css";') }),
    );
    const error = await expectCode(themes.inspectPackage(id), 'THEME_CSS_UNSAFE');
    expect(error.details).toMatchObject({ reason: 'import', line: 2, found: '@import' });
  });

  it('checks resource and preview types from their bytes', async () => {
    setUp();
    const disguised = await stage(
      paperFiles({ 'images/grain.png': text('<html><script>alert(1)</script>') }),
    );
    const error = await expectCode(themes.inspectPackage(disguised), 'THEME_CSS_UNSAFE');
    expect(error.details).toMatchObject({ reason: 'resource_type', found: 'images/grain.png' });
    const preview = await stage(paperFiles({ 'preview.png': WOFF2 }));
    await expectCode(themes.inspectPackage(preview), 'THEME_MANIFEST_INVALID');
  });
});

describe('ThemeService install, list, enable, disable, uninstall', () => {
  it('installs a checked package, lists it after the built-ins and forgets the staged copy', async () => {
    setUp();
    const id = await stage();
    const installed = await themes.install(id);
    expect(installed).toEqual({
      theme_id: 'paper',
      name: 'Paper',
      version: '1.2.0',
      author: 'Ada',
      description: 'Warm paper tones',
      is_dark: false,
      builtin: false,
      enabled: false,
      installed_at: expect.stringMatching(/^2026-12-01T10:00:0\d\.000Z$/),
    });
    expect((await themes.list()).map((theme) => [theme.theme_id, theme.builtin, theme.enabled])).toEqual([
      ['light', true, false],
      ['dark', true, false],
      ['paper', false, false],
    ]);
    await expectCode(themes.inspectPackage(id), 'THEME_PACKAGE_NOT_FOUND');
  });

  it('refuses an incompatible package and stores nothing', async () => {
    setUp();
    const id = await stage(paperFiles({ 'theme.yaml': text(manifestYaml({ min_app_version: '9.0.0' })) }));
    const error = await expectCode(themes.install(id), 'THEME_PACKAGE_INCOMPATIBLE');
    expect(error.status).toBe(409);
    expect(await db.themes.count()).toBe(0);
  });

  it('refuses a second install of the same theme id', async () => {
    setUp();
    await themes.install(await stage());
    const error = await expectCode(themes.install(await stage()), 'THEME_ALREADY_INSTALLED');
    expect(error.details).toMatchObject({ theme_id: 'paper', installed_version: '1.2.0' });
    expect(await db.themes.count()).toBe(1);
  });

  it('refuses unsafe packages at install too, storing nothing', async () => {
    setUp();
    const id = await stage(paperFiles({ 'theme.css': text('a { width: expression(alert(1)) }') }));
    await expectCode(themes.install(id), 'THEME_CSS_UNSAFE');
    await expectCode(themes.install('pkg_gone'), 'THEME_PACKAGE_NOT_FOUND');
    expect(await db.themes.count()).toBe(0);
  });

  it('lets a storage failure through and leaves the package staged to retry', async () => {
    setUp();
    const repository = new ThemeRepository(db);
    let failNext = true;
    const flaky = Object.assign(Object.create(repository) as ThemeRepository, {
      add: async (row: Parameters<ThemeRepository['add']>[0]) => {
        if (failNext) {
          failNext = false;
          throw new AppError('STORAGE_QUOTA_EXCEEDED', 'The browser has run out of storage space.');
        }
        return repository.add(row);
      },
    });
    themes = createService({ themes: flaky });
    const id = await stage();
    await expectCode(themes.install(id), 'STORAGE_QUOTA_EXCEEDED');
    expect(await db.themes.count()).toBe(0);
    expect((await themes.install(id)).theme_id).toBe('paper');
  });

  it('enables one theme at a time; the enabled package is what the app shows, across a restart', async () => {
    setUp();
    await themes.install(await stage());
    expect(await themes.active()).toEqual({ theme_id: 'system', is_dark: null, css: null });

    const enabled = await themes.enable('paper');
    expect(enabled).toMatchObject({ theme_id: 'paper', enabled: true });
    const active = await themes.active();
    expect(active).toMatchObject({ theme_id: 'paper', is_dark: false });
    expect(active.css).toContain('--color-bg:#fbf7ee');
    expect(active.css).toContain('[data-secure-ui] {');

    // No code background of its own: the built-in code colours stand, nothing is added.
    expect(active.css).not.toContain('Code colours the theme left out');

    // A new service over the same database: what a reload sees.
    const afterReload = createService();
    expect((await afterReload.active()).theme_id).toBe('paper');
    expect(
      (await afterReload.list()).filter((theme) => theme.enabled).map((theme) => theme.theme_id),
    ).toEqual(['paper']);
  });

  it('gives a theme stored before code colours followed its code background readable ones', async () => {
    setUp();
    const darkCode = `${PAPER_CSS}\n:root { --color-code-bg: #282c34; }`;
    await themes.install(await stage(paperFiles({ 'theme.css': text(darkCode) })));
    // As an older version stored it: the theme's CSS without the filled-in colours.
    const stored = (await db.themes.get('paper'))!;
    expect(stored.css).toContain('Code colours the theme left out');
    await db.themes.update('paper', { css: stored.css.replace(/\/\* Code colours[^]*?\n}\n/, '') });
    await themes.enable('paper');

    const css = (await themes.active()).css!;
    // Dark code background in a light theme: the dark set (github-dark's comment grey), before the theme's rules.
    expect(css.indexOf('--code-comment: #8b949e')).toBeGreaterThanOrEqual(0);
    expect(css.indexOf('--code-comment')).toBeLessThan(css.indexOf('--color-code-bg:#282c34'));
  });

  it('enabling a built-in turns the package off and records the choice in the settings', async () => {
    setUp();
    await themes.install(await stage());
    await themes.enable('paper');
    expect(await themes.enable('dark')).toMatchObject({ theme_id: 'dark', builtin: true, enabled: true });
    expect((await settings.get()).theme).toBe('dark');
    expect(await themes.active()).toEqual({ theme_id: 'dark', is_dark: true, css: null });
    expect((await themes.list()).filter((theme) => theme.enabled).map((theme) => theme.theme_id)).toEqual([
      'dark',
    ]);
  });

  it('disabling falls back to the built-in choice; a built-in falls back to the system', async () => {
    setUp();
    await themes.install(await stage());
    await settings.update({ theme: 'light' });
    await themes.enable('paper');
    await themes.disable('paper');
    expect(await themes.active()).toEqual({ theme_id: 'light', is_dark: false, css: null });
    // Disabling one that is off changes nothing.
    await themes.disable('paper');
    await themes.disable('light');
    expect(await themes.active()).toEqual({ theme_id: 'system', is_dark: null, css: null });
  });

  it('answers THEME_NOT_FOUND and VALIDATION_FAILED for unknown and malformed ids', async () => {
    setUp();
    await expectCode(themes.enable('nope'), 'THEME_NOT_FOUND');
    await expectCode(themes.disable('nope'), 'THEME_NOT_FOUND');
    await expectCode(themes.uninstall('nope'), 'THEME_NOT_FOUND');
    await expectCode(themes.getThemeCss('nope'), 'THEME_NOT_FOUND');
    await expectCode(themes.enable('../etc'), 'VALIDATION_FAILED');
  });

  it('protects the built-in themes from uninstall', async () => {
    setUp();
    const error = await expectCode(themes.uninstall('light'), 'THEME_BUILTIN_PROTECTED');
    expect(error.status).toBe(409);
    await expectCode(themes.uninstall('dark'), 'THEME_BUILTIN_PROTECTED');
    expect((await themes.list()).map((theme) => theme.theme_id)).toEqual(['light', 'dark']);
  });

  it('uninstalling the enabled theme brings back the built-in', async () => {
    setUp();
    await themes.install(await stage());
    await themes.enable('paper');
    await themes.uninstall('paper');
    expect(await themes.active()).toEqual({ theme_id: 'system', is_dark: null, css: null });
    expect(await db.themes.count()).toBe(0);
    // Installable again afterwards.
    expect((await themes.install(await stage())).theme_id).toBe('paper');
  });
});

describe('ThemeService.getThemeCss (for exports)', () => {
  it('gives one self-contained stylesheet for a built-in or an installed theme', async () => {
    setUp();
    const dark = await themes.getThemeCss('dark');
    expect(dark.is_dark).toBe(true);
    expect(dark.css).toContain('color-scheme: dark');
    expect(dark.css).toContain('.markdown-preview pre');

    await themes.install(await stage());
    const paper = await themes.getThemeCss('paper');
    expect(paper).toMatchObject({ theme_id: 'paper', is_dark: false });
    expect(paper.css).toContain('--color-bg:#fbf7ee');
    expect(paper.css.indexOf('--color-bg:#fbf7ee')).toBeGreaterThan(
      paper.css.indexOf('.markdown-preview pre'),
    );
  });
});
