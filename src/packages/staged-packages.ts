import { newId } from '../core/ids';
import type { PackageContents } from './read-package';

/**
 * Packages the user picked but has not installed yet, by opaque id (the
 * contract's temporary handle: never a path). Held in memory and bounded: an
 * abandoned pick is dropped oldest first, and a reload forgets them all.
 */
export class StagedPackages {
  readonly #packages = new Map<string, PackageContents>();
  readonly #capacity: number;

  constructor(capacity = 8) {
    this.#capacity = capacity;
  }

  stage(pkg: PackageContents): string {
    const id = newId('pkg');
    this.#packages.set(id, pkg);
    while (this.#packages.size > this.#capacity) {
      const oldest = this.#packages.keys().next().value as string;
      this.#packages.delete(oldest);
    }
    return id;
  }

  get(id: string): PackageContents | undefined {
    return this.#packages.get(id);
  }

  drop(id: string): void {
    this.#packages.delete(id);
  }
}
