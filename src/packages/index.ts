export { DEFAULT_PACKAGE_LIMITS, type PackageLimits } from './package-limits';
export { PackageReadError, type PackageProblem } from './package-errors';
export {
  readFolderPackage,
  readZipPackage,
  type PackageContents,
  type PackageFolderEntry,
} from './read-package';
export { readManifest } from './manifest';
export { StagedPackages } from './staged-packages';
