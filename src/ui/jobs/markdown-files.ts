const MARKDOWN_EXTENSION = /\.(md|markdown)$/i;

/**
 * Files worth importing from a picked folder: Markdown by extension, not inside
 * hidden folders (`.git`, `.obsidian`, `.trash`) and not hidden themselves.
 */
export function isImportableMarkdownPath(path: string): boolean {
  const parts = path.split(/[\\/]/).filter((part) => part !== '');
  const name = parts.at(-1);
  if (name === undefined || !MARKDOWN_EXTENSION.test(name)) return false;
  return !parts.some((part) => part.startsWith('.'));
}
