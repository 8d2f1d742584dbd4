import { strToU8, zipSync } from 'fflate';
import manifest from './plugin.yaml?raw';
import server from './server.js?raw';

/** The example plugin's files as a user would unpack them: a folder with plugin.yaml at its top. */
export const EXAMPLE_PLUGIN_FILES: Readonly<Record<string, string>> = {
  'plugin.yaml': manifest,
  'server.js': server,
};

export const EXAMPLE_PLUGIN_FILE_NAME = 'notesagent-example-plugin.zip';

/**
 * The example plugin as a package the app installs as it is (Settings → Plugins
 * offers it to download): its files under one folder, as users zip a plugin.
 */
export function examplePluginZip(): Uint8Array {
  const folder: Record<string, Uint8Array> = {};
  for (const [name, text] of Object.entries(EXAMPLE_PLUGIN_FILES)) folder[name] = strToU8(text);
  // A fixed time keeps the download the same bytes every time.
  return zipSync({ 'example-word-count': folder }, { mtime: new Date(1980, 0, 1) });
}
