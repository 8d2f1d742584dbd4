import { readZipDirectory as readDirectory, ZipReadError, type ZipDirectoryEntry } from '../core/zip-reader';
import { PackageReadError } from './package-errors';

export type { ZipDirectoryEntry } from '../core/zip-reader';

/** The shared directory reader, its errors in the package vocabulary. */
export function readZipDirectory(bytes: Uint8Array, maxEntries: number): ZipDirectoryEntry[] {
  try {
    return readDirectory(bytes, maxEntries);
  } catch (error) {
    if (!(error instanceof ZipReadError)) throw error;
    throw new PackageReadError(error.problem, error.message, { limit: error.limit });
  }
}
