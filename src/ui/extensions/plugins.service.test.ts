// Installing from Settings → Plugins against the real core services, in-thread over
// fake-indexeddb: a refusal is kept for the page to show, and nothing is left installed.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { zipSync, type Zippable } from 'fflate';
import { afterAll, beforeEach, describe, expect, it, vi } from 'vitest';

vi.mock('../api/core-client', async () =>
  (await import('../../services/test-core')).coreClientDouble({}, { jobEvents: false }),
);

const { core } = await import('../api/core-client');
const { testCore } = (await import('../api/core-client')) as unknown as {
  testCore: { close: () => Promise<void> };
};
const { installPluginFile, uninstallPlugin } = await import('./plugins.service');
const { pluginsState } = await import('./plugins.svelte');
const { toasts } = await import('../toasts/toasts.svelte');
const { confirmation } = await import('../dialogs/confirm.svelte');

const SAMPLE_DIR = join(process.cwd(), 'e2e/plugins/sample-greeter');

/** The sample greeter zipped as users ship it, with files replaced or removed (undefined). */
function sampleZip(overrides: Record<string, string | undefined> = {}): File {
  const files: Zippable = {};
  for (const name of readdirSync(SAMPLE_DIR))
    files[name] = new Uint8Array(readFileSync(join(SAMPLE_DIR, name)));
  for (const [name, text] of Object.entries(overrides)) {
    if (text === undefined) delete files[name];
    else files[name] = new TextEncoder().encode(text);
  }
  return new File([zipSync({ 'sample-greeter': files })], 'sample-greeter.zip', { type: 'application/zip' });
}

afterAll(() => testCore.close());

beforeEach(async () => {
  for (const plugin of (await core.plugins.list()).items) {
    vi.spyOn(confirmation, 'ask').mockResolvedValueOnce(true);
    await uninstallPlugin(plugin.plugin_id, plugin.name);
  }
  pluginsState.reset();
  toasts.reset();
});

describe('installPluginFile', () => {
  it('keeps a YAML syntax error as a refusal with its line and column, and installs nothing', async () => {
    await installPluginFile(sampleZip({ 'plugin.yaml': 'id: sample-greeter\nplugin_id: [oops' }));
    expect(pluginsState.refusal).toMatchObject({
      code: 'PLUGIN_MANIFEST_INVALID',
      details: { reason: 'manifest_yaml', file: 'plugin.yaml', line: 2, column: 17 },
    });
    expect(pluginsState.installing).toBe(false);
    expect(pluginsState.plugins).toEqual([]);
    expect((await core.plugins.list()).items).toEqual([]);
    expect((await core.plugins.tools()).items).toEqual([]);
  });

  it('names the missing fields of plugin.yaml', async () => {
    await installPluginFile(sampleZip({ 'plugin.yaml': 'id: sample-greeter\nname: Sample' }));
    expect(pluginsState.refusal?.details).toMatchObject({
      reason: 'manifest_invalid',
      fields: [
        expect.objectContaining({ path: 'version', problem: 'required' }),
        expect.objectContaining({ path: 'backend', problem: 'required' }),
      ],
    });
    expect((await core.plugins.list()).items).toEqual([]);
  });

  it('refuses a file that is not a zip, then clears the refusal on the next attempt, which installs', async () => {
    await installPluginFile(new File(['hello'], 'notes.txt'));
    expect(pluginsState.refusal).toMatchObject({
      code: 'PLUGIN_PACKAGE_INVALID',
      details: { reason: 'not_zip' },
    });

    const installing = installPluginFile(sampleZip());
    // Cleared as the attempt starts, not when it ends.
    expect(pluginsState.refusal).toBeNull();
    expect(pluginsState.installing).toBe(true);
    await installing;
    expect(pluginsState.refusal).toBeNull();
    expect(pluginsState.plugins.map((plugin) => plugin.plugin_id)).toEqual(['sample-greeter']);
  });

  it('a second install of the same plugin is refused inline and leaves the first one as it was', async () => {
    await installPluginFile(sampleZip());
    await installPluginFile(sampleZip());
    expect(pluginsState.refusal).toMatchObject({ code: 'PLUGIN_ALREADY_INSTALLED' });
    expect((await core.plugins.list()).items).toMatchObject([
      { plugin_id: 'sample-greeter', state: 'permission_required' },
    ]);
  });
});
