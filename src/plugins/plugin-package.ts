import { YAMLError } from 'yaml';
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
  type PackageProblem,
} from '../packages';
import { manifestFieldProblems } from '../packages/manifest-fields';
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

/**
 * `details.reason` of a refused package: the UI words each one itself, in the
 * reader's language, from the reason and the structured details beside it
 * (`entry`, `limit`, `file`, `line`, `column`, `fields`, ...), so no English
 * sentence of the core has to reach a Chinese screen.
 */
export type PluginRefusalReason =
  | 'not_zip'
  | 'entry_unreadable'
  | Exclude<PackageProblem, 'not_an_archive' | 'manifest_missing' | 'manifest_invalid'>
  | 'manifest_missing'
  | 'manifest_yaml'
  | 'manifest_too_large'
  | 'manifest_encoding'
  | 'manifest_not_mapping'
  | 'manifest_invalid'
  | 'reserved_id'
  | 'tool_namespace'
  | 'network_permission'
  | 'server_missing'
  | 'executable_outside';

type RefusalCode =
  | 'PLUGIN_PACKAGE_INVALID'
  | 'PAYLOAD_TOO_LARGE'
  | 'PLUGIN_MANIFEST_INVALID'
  | 'PLUGIN_SETTINGS_SCHEMA_INVALID'
  | 'PLUGIN_COMMAND_INVALID';

function refusal(
  code: RefusalCode,
  reason: PluginRefusalReason,
  message: string,
  details: Record<string, unknown> = {},
): AppError {
  return new AppError(code, message, { reason, ...details });
}

/** Size and bomb limits are 413 PAYLOAD_TOO_LARGE; paths, links and bad archives PLUGIN_PACKAGE_INVALID. */
export function packageProblem(error: PackageReadError): AppError {
  const details = { problem: error.problem, entry: error.entry, limit: error.limit };
  // The reader says not_an_archive both for a file that is no zip at all and for one
  // entry it cannot inflate (encrypted, damaged, an unknown method): different fixes.
  const reason =
    error.problem !== 'not_an_archive'
      ? error.problem
      : error.entry === null
        ? 'not_zip'
        : 'entry_unreadable';
  if (SIZE_PROBLEMS.has(error.problem)) {
    return refusal('PAYLOAD_TOO_LARGE', reason, `The plugin package is too large: ${error.message}`, details);
  }
  return refusal(
    'PLUGIN_PACKAGE_INVALID',
    reason,
    `The plugin package was refused: ${error.message}`,
    details,
  );
}

/**
 * A package YAML file (the manifest, its settings or command list) that is
 * absent or unreadable, told apart by what the reader found: a syntax error
 * keeps the parser's line and column, which is what the author needs to fix it.
 */
function fileRefusal(
  code: 'PLUGIN_MANIFEST_INVALID' | 'PLUGIN_SETTINGS_SCHEMA_INVALID' | 'PLUGIN_COMMAND_INVALID',
  file: string,
  error: PackageReadError,
): AppError {
  const refuse = (reason: PluginRefusalReason, message: string, extra: Record<string, unknown> = {}) =>
    refusal(code, reason, message, { file, path: file, problem: error.problem, ...extra });
  if (error.problem === 'manifest_missing') {
    return refuse('manifest_missing', `The package has no ${file} at its root.`);
  }
  if (error.limit !== null) {
    return refuse('manifest_too_large', `${file} is larger than ${error.limit} bytes.`, {
      limit: error.limit,
    });
  }
  const cause = error.cause;
  // The reader wraps the parser's error: YAMLError (with its position), or the
  // ReferenceError of a refused alias; a TypeError is the strict UTF-8 decoder.
  if (cause instanceof YAMLError || cause instanceof SyntaxError || cause instanceof ReferenceError) {
    const position = cause instanceof YAMLError ? cause.linePos?.[0] : undefined;
    const where = position ? ` at line ${position.line}, column ${position.col}` : '';
    return refuse(
      'manifest_yaml',
      `${file} could not be parsed${where}: ${firstLine(cause.message)}`,
      position ? { line: position.line, column: position.col } : {},
    );
  }
  if (cause instanceof TypeError) return refuse('manifest_encoding', `${file} is not UTF-8 text.`);
  return refuse('manifest_not_mapping', `${file} must hold a mapping of fields.`);
}

/** The parser's message repeats the source with a caret below it; the first line says it all. */
function firstLine(message: string): string {
  return message.split('\n', 1)[0]!.replace(/ at line \d+, column \d+:?$/, '');
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
  let raw: Record<string, unknown>;
  try {
    raw = readManifest(pkg, PLUGIN_MANIFEST_FILE);
  } catch (error) {
    if (error instanceof PackageReadError)
      throw fileRefusal('PLUGIN_MANIFEST_INVALID', PLUGIN_MANIFEST_FILE, error);
    throw error;
  }
  const parsed = pluginManifestSchema.safeParse(raw);
  if (!parsed.success) {
    const fields = manifestFieldProblems(raw, parsed.error.issues);
    throw refusal(
      'PLUGIN_MANIFEST_INVALID',
      'manifest_invalid',
      `${PLUGIN_MANIFEST_FILE} is not valid: ${fields.map((field) => `${field.path}: ${field.problem}`).join('; ')}.`,
      { file: PLUGIN_MANIFEST_FILE, fields },
    );
  }
  const manifest = parsed.data;
  if (RESERVED_PLUGIN_IDS.has(manifest.id)) {
    throw refusal('PLUGIN_MANIFEST_INVALID', 'reserved_id', `The plugin id "${manifest.id}" is reserved.`, {
      plugin_id: manifest.id,
    });
  }
  const badTool = manifest.contributes.tools.find(
    (tool) =>
      !/^[A-Za-z][\w-]{0,47}$/.test(tool.slice(manifest.id.length + 1)) ||
      !tool.startsWith(`${manifest.id}.`),
  );
  if (badTool !== undefined) {
    throw refusal(
      'PLUGIN_MANIFEST_INVALID',
      'tool_namespace',
      `The tool "${badTool}" is not in the plugin's namespace.`,
      { tool: badTool, plugin_id: manifest.id },
    );
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
    if (error instanceof PackageReadError) throw fileRefusal(code, path, error);
    throw error;
  }
}

function runtimeFiles(pkg: PackageContents, manifest: PluginManifest): Record<string, Uint8Array> {
  const files: Record<string, Uint8Array> = {};
  const backend = manifest.backend;
  if (backend.transport === 'streamable_http' && !manifest.permissions.includes('network')) {
    throw refusal(
      'PLUGIN_MANIFEST_INVALID',
      'network_permission',
      'A plugin with a remote MCP server must declare the network permission.',
      { plugin_id: manifest.id },
    );
  }
  if (backend.transport === 'worker') {
    const bytes = pkg.files.get(backend.entry);
    if (!bytes) {
      throw refusal(
        'PLUGIN_MANIFEST_INVALID',
        'server_missing',
        `The package has no server module "${backend.entry}".`,
        { path: backend.entry },
      );
    }
    files[backend.entry] = bytes;
  }
  if (backend.transport === 'stdio' && backend.command.includes('/')) {
    // A path executable must be a file of this package (§7.1).
    const relative = backend.command.replace(/^\.\//, '');
    if (relative.startsWith('/') || relative.split('/').includes('..') || !pkg.files.has(relative)) {
      throw refusal(
        'PLUGIN_MANIFEST_INVALID',
        'executable_outside',
        'The server executable must be a file inside the plugin package.',
        { command: backend.command },
      );
    }
  }
  return files;
}
