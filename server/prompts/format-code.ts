import type { DocumentSymbol, TextRange } from '../protocol';

// Pure helpers that turn the protocol's code fields into Markdown for a prompt.

const FENCE_LANGUAGES: Record<string, string> = {
  py: 'python',
  ts: 'typescript',
  tsx: 'tsx',
  js: 'javascript',
  jsx: 'jsx',
  mjs: 'javascript',
  java: 'java',
  kt: 'kotlin',
  go: 'go',
  rs: 'rust',
  c: 'c',
  h: 'c',
  cc: 'cpp',
  cpp: 'cpp',
  hpp: 'cpp',
  cs: 'csharp',
  rb: 'ruby',
  php: 'php',
  swift: 'swift',
  scala: 'scala',
  sh: 'bash',
  sql: 'sql',
  lua: 'lua',
  dart: 'dart',
};

/** Plugins on Windows send `example\\game.py`; models read forward slashes more reliably. */
export function displayPath(path: string): string {
  return path.replace(/\\+/g, '/');
}

export function fenceLanguage(path: string): string {
  const extension = /\.([A-Za-z0-9]+)$/.exec(path)?.[1]?.toLowerCase();
  return (extension && FENCE_LANGUAGES[extension]) ?? '';
}

/**
 * A fenced block that the code itself cannot close: the fence is one backtick
 * longer than the longest run inside the text (CommonMark's rule).
 */
export function codeBlock(text: string, path = ''): string {
  const longestRun = Math.max(0, ...(text.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(Math.max(3, longestRun + 1));
  return `${fence}${fenceLanguage(path)}\n${text.replace(/\n$/, '')}\n${fence}`;
}

/** Positions as the IDE sent them (LSP-style, 0-based), labelled so the model does not guess. */
export function rangeLabel(range: TextRange | undefined): string {
  if (!range) return '';
  const { start, end } = range;
  return `${start.line}:${start.character}-${end.line}:${end.character}`;
}

const MAX_OUTLINE_DEPTH = 6;
const MAX_OUTLINE_LINES = 200;

/** An indented outline of a symbol tree, bounded in depth and length whatever the plugin sent. */
export function symbolOutline(symbols: readonly DocumentSymbol[]): string {
  const lines: string[] = [];
  const walk = (nodes: readonly DocumentSymbol[], depth: number) => {
    for (const node of nodes) {
      if (lines.length >= MAX_OUTLINE_LINES) return;
      const where = node.range ? ` [${rangeLabel(node.range)}]` : '';
      lines.push(`${'  '.repeat(depth)}- ${node.name} (${String(node.kind)})${where}`);
      if (node.children && depth + 1 < MAX_OUTLINE_DEPTH) walk(node.children, depth + 1);
    }
  };
  walk(symbols, 0);
  return lines.join('\n');
}
