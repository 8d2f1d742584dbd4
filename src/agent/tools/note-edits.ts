import { AppError } from '../../contracts';
import { parseBlocks } from '../../core/blocks';
import type { NoteBlockRef } from './ports';

/** Pure Markdown edits behind `notes.update` and `tasks.*`. */

const LINE_BREAK = /\r\n|\n|\r/;

function eolOf(body: string): string {
  return body.includes('\r\n') ? '\r\n' : '\n';
}

/** Blank lines around the text removed, indentation of its first line kept. */
function cleanBlockText(text: string): string {
  return text.replace(/^(?:[ \t]*(?:\r\n|\n|\r))+/, '').trimEnd();
}

export interface EditResult {
  body: string;
  /** 0-based line where the new text starts in the new body. */
  startLine: number;
  /** Lines the new text occupies. */
  lineCount: number;
}

/** Appends `text` as new block(s) at the end, separated by one blank line. */
export function appendBlock(body: string, text: string): EditResult {
  const block = cleanBlockText(text);
  const eol = eolOf(body);
  const lineCount = block.split(LINE_BREAK).length;
  const head = body.trimEnd();
  if (head === '') return { body: `${block}${eol}`, startLine: 0, lineCount };
  const startLine = head.split(LINE_BREAK).length + 1;
  return { body: `${head}${eol}${eol}${block}${eol}`, startLine, lineCount };
}

/**
 * Replaces the lines of `block` with `text`. The block must still be what the
 * caller read (its text at its lines); otherwise the note changed meanwhile.
 */
export function replaceBlock(body: string, block: NoteBlockRef, text: string): EditResult {
  const eol = eolOf(body);
  const lines = body.split(LINE_BREAK);
  const current = lines.slice(block.start_line, block.end_line + 1).join('\n');
  if (
    block.end_line >= lines.length ||
    current.trimEnd() !== block.text.split(LINE_BREAK).join('\n').trimEnd()
  ) {
    throw new AppError('NOTE_VERSION_CONFLICT', 'The block changed since the note was read; read it again.', {
      block_id: block.block_id,
    });
  }
  const replacement = cleanBlockText(text).split(LINE_BREAK);
  const next = [...lines.slice(0, block.start_line), ...replacement, ...lines.slice(block.end_line + 1)];
  return { body: next.join(eol), startLine: block.start_line, lineCount: replacement.length };
}

export interface ChecklistItem {
  text: string;
  done: boolean;
  /** 0-based line in the note body. */
  line: number;
}

const CHECKLIST_ITEM = /^\s*(?:[-*+]|\d{1,9}[.)])\s+\[([ xX])\]\s+(.*)$/;

/** `- [ ]` / `- [x]` items of the note's list blocks (never inside code blocks). */
export function parseChecklist(body: string): ChecklistItem[] {
  const lines = body.split(LINE_BREAK);
  const items: ChecklistItem[] = [];
  for (const block of parseBlocks(body)) {
    if (block.type !== 'list') continue;
    for (let line = block.start_line; line <= block.end_line; line++) {
      const match = CHECKLIST_ITEM.exec(lines[line] ?? '');
      if (match) items.push({ text: (match[2] ?? '').trim(), done: match[1] !== ' ', line });
    }
  }
  return items;
}

/** One checklist line per task: single-line, without a checkbox the model may have added. */
export function checklistLines(tasks: readonly string[]): string[] {
  return tasks.map(
    (task) =>
      `- [ ] ${task
        .replace(/\s+/g, ' ')
        .replace(/^\s*(?:[-*+]\s+)?(?:\[[ xX]?\]\s*)?/, '')
        .trim()}`,
  );
}
