import { displayPath, rangeLabel, symbolOutline } from '../prompts/format-code';
import type { CommandOf, DocumentSymbol, IdeLocation } from '../protocol';
import type { IdeServices } from './ide-callback-client';

// The unit-test flow's use of the IDE call-backs: the file's symbol outline,
// and where the symbols used inside the function are defined. Every step is
// optional: whatever the plugin does not answer is left out of the prompt.

const MAX_LOOKUPS = 6;
const MAX_LOCATIONS_PER_SYMBOL = 3;

export interface UnitTestContext {
  /** Markdown for the prompt's "Context from the IDE" section; empty when the IDE gave nothing. */
  text: string;
  /** Call-backs that were answered, for logs and tests. */
  answered: string[];
  /** Call-backs that failed (not supported, timed out, bad answer). */
  failed: string[];
}

function findSymbol(symbols: readonly DocumentSymbol[], name: string, depth = 0): DocumentSymbol | undefined {
  if (depth > 8) return undefined;
  for (const symbol of symbols) {
    if (symbol.name === name) return symbol;
    const inner = symbol.children && findSymbol(symbol.children, name, depth + 1);
    if (inner) return inner;
  }
  return undefined;
}

function describeLocations(locations: IdeLocation[]): string {
  return locations
    .slice(0, MAX_LOCATIONS_PER_SYMBOL)
    .map((location) => `${displayPath(location.abspath)} ${rangeLabel(location.range)}`)
    .join('; ');
}

export async function gatherUnitTestContext(
  command: CommandOf<'exec_unittest_code'>,
  ide: IdeServices,
  signal: AbortSignal,
): Promise<UnitTestContext> {
  const result: UnitTestContext = { text: '', answered: [], failed: [] };
  // The protocol gives a project-relative `file_path`; the plugin resolves it.
  const abspath = command.file_path;
  if (!abspath) return result;

  let symbols: DocumentSymbol[];
  try {
    symbols = await ide.call('get_document_symbols', { abspath }, signal);
    result.answered.push('get_document_symbols');
  } catch {
    // A plugin that cannot list symbols will not answer the rest either: stop here
    // instead of waiting for more time-outs.
    result.failed.push('get_document_symbols');
    return result;
  }
  const sections: string[] = [];
  const outline = symbolOutline(symbols);
  if (outline) sections.push(`Outline of \`${displayPath(abspath)}\`:\n${outline}`);

  const target = command.function_name ? findSymbol(symbols, command.function_name) : undefined;
  const lookups = (target?.children ?? []).filter((child) => child.range).slice(0, MAX_LOOKUPS);
  const lines = await Promise.all(
    lookups.map(async (symbol) => {
      const position = { abspath, line: symbol.range!.start.line, character: symbol.range!.start.character };
      const [definitions, typeDefinitions] = await Promise.allSettled([
        ide.call('find_def_locations', position, signal),
        ide.call('find_type_def_locations', position, signal),
      ]);
      const parts: string[] = [];
      for (const [name, outcome, label] of [
        ['find_def_locations', definitions, 'defined at'],
        ['find_type_def_locations', typeDefinitions, 'type defined at'],
      ] as const) {
        if (outcome.status === 'rejected') {
          result.failed.push(name);
          continue;
        }
        result.answered.push(name);
        if (outcome.value.length) parts.push(`${label} ${describeLocations(outcome.value)}`);
      }
      return parts.length ? `- ${symbol.name} (${String(symbol.kind)}): ${parts.join('; ')}` : undefined;
    }),
  );
  const found = lines.filter((line): line is string => line !== undefined);
  if (found.length) sections.push(`Symbols used in \`${command.function_name}\`:\n${found.join('\n')}`);
  result.text = sections.join('\n\n');
  return result;
}
