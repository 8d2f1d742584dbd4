import type { PluginToolDto } from '../../contracts/plugin-types';

/** The last Try of a tool, kept with the tool it was for (the tool may be withdrawn since). */
export interface ToolTry<Outcome extends { ok: boolean } = { ok: boolean }> {
  tool: PluginToolDto;
  outcome: Outcome;
  /** Counts the page's tries: the highest is the latest. */
  order: number;
}

/** A tool's box under its plugin's row. */
export interface ToolTryRow {
  tool: PluginToolDto;
  /** Not published any more: no Try button, only what its last Try said. */
  withdrawn: boolean;
}

/**
 * The plugin's published tools, then the one its latest Try was for if that Try failed and the
 * tool is withdrawn since. A plugin that crashes while a Try runs withdraws its tools at once,
 * and the box with the Try's failure went with them: the user never read why. Older tries of
 * tools withdrawn with it are not what the user is reading about, so they go.
 */
export function toolTryRows(
  pluginId: string,
  published: readonly PluginToolDto[],
  tries: Readonly<Record<string, ToolTry>>,
): ToolTryRow[] {
  const rows = published
    .filter((tool) => tool.plugin_id === pluginId)
    .map((tool) => ({ tool, withdrawn: false }));
  let latest: ToolTry | undefined;
  for (const entry of Object.values(tries)) {
    if (entry.tool.plugin_id === pluginId && (!latest || entry.order > latest.order)) latest = entry;
  }
  if (latest && !latest.outcome.ok && !rows.some((row) => row.tool.name === latest.tool.name)) {
    rows.push({ tool: latest.tool, withdrawn: true });
  }
  return rows;
}

/** The tries left once the user acted on a plugin (restarted, disabled…): its tools' are dropped. */
export function triesWithout<T extends ToolTry>(
  pluginId: string,
  tries: Readonly<Record<string, T>>,
): Record<string, T> {
  return Object.fromEntries(Object.entries(tries).filter(([, entry]) => entry.tool.plugin_id !== pluginId));
}
