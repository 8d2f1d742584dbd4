import type { AgentToolSpec } from '../tool-registry';
import { notesOrganiseTool } from './notes-organise';
import { notesTools } from './notes-tools';
import { mathEvaluateTool, memorySaveTool, ragSearchTool, timeNowTool } from './other-tools';
import type { BuiltInToolPorts } from './ports';
import { taskTools } from './task-tools';

export { MathExpressionError, evaluateExpression } from './math-expression';
export { appendBlock, checklistLines, parseChecklist, replaceBlock, type ChecklistItem } from './note-edits';
export { notesOrganiseTool } from './notes-organise';
export { NOTES_WRITE_PERMISSION, notesTools } from './notes-tools';
export { mathEvaluateTool, memorySaveTool, ragSearchTool, timeNowTool } from './other-tools';
export type * from './ports';
export { taskTools } from './task-tools';
export { unifiedDiff } from './unified-diff';

/**
 * The built-in tools: rag.search, notes.search/read/list/create/update/organise,
 * tasks.create/list, memory.save, math.evaluate, time.now.
 */
export function createBuiltInTools(ports: BuiltInToolPorts): AgentToolSpec[] {
  return [
    ragSearchTool(ports.search),
    ...notesTools(ports.notes),
    notesOrganiseTool(ports.notes),
    ...taskTools(ports.notes),
    memorySaveTool(ports.memory, ports.clock, ports.newId),
    mathEvaluateTool,
    timeNowTool(ports.clock),
  ];
}
