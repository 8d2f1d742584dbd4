import { AppError } from '../contracts/errors';
import {
  pluginManifestSchema,
  type PluginManifest,
  type SettingsSchemaFile,
} from '../contracts/plugins-schemas';
import {
  PackageReadError,
  readFolderPackage,
  readManifest,
  readZipPackage,
  type PackageContents,
  type PackageFolderEntry,
} from '../packages';
import { parseCommands, type PluginCommand } from './commands';
import { EMPTY_SETTINGS_SCHEMA, parseSettingsSchema } from './plugin-settings';

export const PLUGIN_MANIFEST_FILE = 'plugin.yaml';

/** Plugin ids that would shadow the built-in tool namespaces. */
export const RESERVED_PLUGIN_IDS: ReadonlySet<string> = new Set([
  'notes',
  'tasks',
  'memory',
  'rag',
  'math',
  'time',
  'agent',
  'plugin',
  'plugins',
  'mcp',
]);

const SIZE_PROBLEMS = new Set(['too_many_entries', 'entry_too_large', 'total_too_large', 'ratio_too_high']);

/** Size and bomb limits are 413 PAYLOAD_TOO_LARGE; paths, links and bad archives PLUGIN_PACKAGE_INVALID. */
export function packageProblem(error: PackageReadError): AppError {
  const details = { problem: error.problem, entry: error.entry, limit: error.limit };
  if (SIZE_PROBLEMS.has(error.problem)) {
    return new AppError('PAYLOAD_TOO_LARGE', `The plugin package is too large: ${error.message}`, details);
  }
  return new AppError('PLUGIN_PACKAGE_INVALID', `The plugin package was refused: ${error.message}`, details);
}

/** A picked .zip (`bytes`) or folder (`entries`), with the package reader's refusals as contract errors. */
export function readPluginPackage(
  source: { name: string; bytes: Uint8Array } | { name: string; entries: readonly PackageFolderEntry[] },
): PackageContents {
  try {
    return 'bytes' in source
      ? readZipPackage(source.name, source.bytes)
      : readFolderPackage(source.name, source.entries);
  } catch (error) {
    if (error instanceof PackageReadError) throw packageProblem(error);
    throw error;
  }
}

/** What an install keeps of a package: its checked contributions and the files its runtime needs. */
export interface CheckedPluginPackage {
  manifest: PluginManifest;
  settings: SettingsSchemaFile;
  commands: PluginCommand[];
  /** The worker server module, by package path; nothing else of the package is kept. */
  files: Record<string, Uint8Array>;
}

/**
 * §7.1: the manifest, its settings schema and command list, checked together:
 * no reserved id, tools in the plugin's namespace, a remote server only with
 * the network permission, a path executable only inside the package.
 */
export function checkPluginPackage(pkg: PackageContents): CheckedPluginPackage {
  const manifest = parseManifest(pkg);
  const settings = manifest.contributes.settings
    ? parseSettingsSchema(
        readPackageFile(pkg, manifest.contributes.settings, 'PLUGIN_SETTINGS_SCHEMA_INVALID'),
        manifest.id,
      )
    : EMPTY_SETTINGS_SCHEMA;
  const commands = manifest.contributes.commands
    ? parseCommands(readPackageFile(pkg, manifest.contributes.commands, 'PLUGIN_COMMAND_INVALID'), {
        pluginId: manifest.id,
        permissions: manifest.permissions,
        settings,
      })
    : [];
  return { manifest, settings, commands, files: runtimeFiles(pkg, manifest) };
}

function parseManifest(pkg: PackageContents): PluginManifest {
  let raw: unknown;
  try {
    raw = readManifest(pkg, PLUGIN_MANIFEST_FILE);
  } catch (error) {
    if (error instanceof PackageReadError) {
      throw new AppError('PLUGIN_MANIFEST_INVALID', `The package has no readable ${PLUGIN_MANIFEST_FILE}.`, {
        problem: error.problem,
      });
    }
    throw error;
  }
  const parsed = pluginManifestSchema.safeParse(raw);
  if (!parsed.success) {
    throw new AppError('PLUGIN_MANIFEST_INVALID', `${PLUGIN_MANIFEST_FILE} is not valid.`, {
      fields: parsed.error.issues
        .slice(0, 10)
        .map((issue) => ({ path: issue.path.map(String).join('.'), message: issue.message })),
    });
  }
  const manifest = parsed.data;
  if (RESERVED_PLUGIN_IDS.has(manifest.id)) {
    throw new AppError('PLUGIN_MANIFEST_INVALID', `The plugin id "${manifest.id}" is reserved.`, {
      plugin_id: manifest.id,
    });
  }
  const badTool = manifest.contributes.tools.find(
    (tool) =>
      !/^[A-Za-z][\w-]{0,47}$/.test(tool.slice(manifest.id.length + 1)) ||
      !tool.startsWith(`${manifest.id}.`),
  );
  if (badTool !== undefined) {
    throw new AppError('PLUGIN_MANIFEST_INVALID', `The tool "${badTool}" is not in the plugin's namespace.`, {
      tool: badTool,
    });
  }
  return manifest;
}

function readPackageFile(
  pkg: PackageContents,
  path: string,
  code: 'PLUGIN_SETTINGS_SCHEMA_INVALID' | 'PLUGIN_COMMAND_INVALID',
): unknown {
  try {
    return readManifest(pkg, path);
  } catch (error) {
    if (error instanceof PackageReadError)
      throw new AppError(code, `The package file "${path}" is missing or not valid.`, {
        path,
        problem: error.problem,
      });
    throw error;
  }
}

function runtimeFiles(pkg: PackageContents, manifest: PluginManifest): Record<string, Uint8Array> {
  const files: Record<string, Uint8Array> = {};
  const backend = manifest.backend;
  if (backend.transport === 'streamable_http' && !manifest.permissions.includes('network')) {
    throw new AppError(
      'PLUGIN_MANIFEST_INVALID',
      'A plugin with a remote MCP server must declare the network permission.',
      { plugin_id: manifest.id },
    );
  }
  if (backend.transport === 'worker') {
    const bytes = pkg.files.get(backend.entry);
    if (!bytes) {
      throw new AppError('PLUGIN_MANIFEST_INVALID', `The package has no server module "${backend.entry}".`, {
        path: backend.entry,
      });
    }
    files[backend.entry] = bytes;
  }
  if (backend.transport === 'stdio' && backend.command.includes('/')) {
    // A path executable must be a file of this package (§7.1).
    const relative = backend.command.replace(/^\.\//, '');
    if (relative.startsWith('/') || relative.split('/').includes('..') || !pkg.files.has(relative)) {
      throw new AppError(
        'PLUGIN_MANIFEST_INVALID',
        'The server executable must be a file inside the plugin package.',
        { command: backend.command },
      );
    }
  }
  return files;
}
