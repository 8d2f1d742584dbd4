import { strFromU8, unzipSync } from 'fflate';
import { afterEach, describe, expect, it } from 'vitest';
import { freshDatabase } from '../../db/test-database';
import { createCoreApi } from '../../services/core-api';
import { inProcessPluginWorker } from '../__fixtures__/in-process-worker';
import { connectPluginWorker } from '../worker-connector';
import { EXAMPLE_PLUGIN_FILES, EXAMPLE_PLUGIN_FILE_NAME, examplePluginZip } from './example-package';

const cores: Array<ReturnType<typeof createCoreApi>> = [];
afterEach(async () => {
  for (const core of cores.splice(0)) {
    for (const plugin of (await core.api.plugins.list()).items) await core.api.plugins.disable(plugin);
    core.dispose();
    await core.idle();
  }
});

function core() {
  const created = createCoreApi(freshDatabase(), {
    indexDebounceMs: 0,
    plugins: { worker: (code, permissions) => connectPluginWorker(inProcessPluginWorker, code, permissions) },
  });
  cores.push(created);
  return created.api;
}

const count = async (api: ReturnType<typeof core>, text: string) => {
  const outcome = await api.plugins.callTool({ name: 'example-word-count.count', arguments: { text } });
  return (outcome as { content: Array<{ text: string }> }).content[0]?.text;
};

describe('the example plugin', () => {
  it('is a folder holding the commented plugin.yaml and server.js, the same bytes every time', () => {
    const entries = unzipSync(examplePluginZip());
    const files = Object.keys(entries).filter((name) => !name.endsWith('/'));
    expect(files.sort()).toEqual(['example-word-count/plugin.yaml', 'example-word-count/server.js']);
    expect(strFromU8(entries['example-word-count/plugin.yaml']!)).toBe(EXAMPLE_PLUGIN_FILES['plugin.yaml']);
    expect(EXAMPLE_PLUGIN_FILES['plugin.yaml']).toContain('# ');
    expect(examplePluginZip()).toEqual(examplePluginZip());
  });

  it('downloads from the core, installs as it is with no grant, setting or secret, and its tool counts words', async () => {
    const api = core();
    const file = await api.plugins.examplePackage();
    expect(file.file_name).toBe(EXAMPLE_PLUGIN_FILE_NAME);
    const { package_id } = await api.plugins.stagePackage({ name: file.file_name, bytes: file.data });
    const installed = await api.plugins.install({ package_id });
    expect(installed).toMatchObject({ plugin_id: 'example-word-count', state: 'installed' });
    expect((await api.plugins.enable({ plugin_id: 'example-word-count' })).state).toBe('enabled');
    expect((await api.plugins.tools()).items.map((tool) => tool.title)).toEqual(['Count words']);
    // Each Chinese character is a word, as Chinese word counts go; English words by letters.
    expect(await count(api, '进程调度 and round-robin threads')).toBe('7 words');
    expect(await count(api, "It's 2 o'clock.")).toBe('3 words');
    expect(await count(api, '')).toBe('0 words');
  });
});
