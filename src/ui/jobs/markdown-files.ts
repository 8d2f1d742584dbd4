import { PICTURE_EXTENSION } from '../../core/archive-pictures';

const MARKDOWN_EXTENSION = /\.(md|markdown)$/i;

function visibleName(path: string, extension: RegExp): boolean {
  const parts = path.split(/[\\/]/).filter((part) => part !== '');
  const name = parts.at(-1);
  if (name === undefined || !extension.test(name)) return false;
  return !parts.some((part) => part.startsWith('.'));
}

/**
 * Files worth importing from a picked folder: Markdown by extension, not inside
 * hidden folders (`.git`, `.obsidian`, `.trash`) and not hidden themselves.
 */
export function isImportableMarkdownPath(path: string): boolean {
  return visibleName(path, MARKDOWN_EXTENSION);
}

/**
 * Pictures of a picked folder a note may link (the core reads only the
 * linked ones): handed over as the files themselves, not read by the page.
 */
export function isImportablePicturePath(path: string): boolean {
  return visibleName(path, PICTURE_EXTENSION);
}
