import { parse as parseYaml } from 'yaml';
import type { PackageContents } from './read-package';
import { PackageReadError } from './package-errors';

/** Manifests are small; a larger one is a mistake or an attack on the YAML parser. */
const MAX_MANIFEST_BYTES = 256 * 1024;

/**
 * The parsed manifest (YAML for `.yaml`/`.yml`, JSON otherwise). Shape checks
 * belong to the caller's schema: this only guarantees a plain object.
 */
export function readManifest(pkg: PackageContents, fileName: string): Record<string, unknown> {
  const bytes = pkg.files.get(fileName);
  if (bytes === undefined) {
    throw new PackageReadError('manifest_missing', `${pkg.name} has no ${fileName} at its root.`, {
      entry: fileName,
    });
  }
  if (bytes.byteLength > MAX_MANIFEST_BYTES) {
    throw new PackageReadError('manifest_invalid', `${fileName} is larger than 256 KiB.`, {
      entry: fileName,
      limit: MAX_MANIFEST_BYTES,
    });
  }
  let value: unknown;
  try {
    const text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    value = /\.ya?ml$/i.test(fileName)
      ? parseYaml(text, { maxAliasCount: 0, uniqueKeys: true })
      : JSON.parse(text);
  } catch (cause) {
    throw new PackageReadError(
      'manifest_invalid',
      `${fileName} could not be read: ${cause instanceof Error ? cause.message : String(cause)}`,
      { entry: fileName, cause },
    );
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new PackageReadError('manifest_invalid', `${fileName} must hold a mapping of fields.`, {
      entry: fileName,
    });
  }
  return value as Record<string, unknown>;
}
