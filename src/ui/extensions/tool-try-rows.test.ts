import { describe, expect, it } from 'vitest';
import type { PluginToolDto } from '../../contracts/plugin-types';
import { toolTryRows, triesWithout } from './tool-try-rows';

const tool = (plugin_id: string, tool_name: string): PluginToolDto => ({
  name: `${plugin_id}.${tool_name}`,
  plugin_id,
  tool_name,
  description: '',
  permission: null,
  input_schema: { type: 'object', properties: {} },
});

const crashes = tool('flaky', 'crashes');
const echo = tool('flaky', 'echo');
const other = tool('other', 'lookup');

describe('the tool boxes under a plugin', () => {
  it('are its published tools, each with a Try', () => {
    expect(toolTryRows('flaky', [echo, other, crashes], {})).toEqual([
      { tool: echo, withdrawn: false },
      { tool: crashes, withdrawn: false },
    ]);
  });

  it('keep the tool whose failed Try withdrew it, so the failure stays on screen', () => {
    const tries = {
      [echo.name]: { tool: echo, outcome: { ok: false }, order: 1 },
      [crashes.name]: { tool: crashes, outcome: { ok: false }, order: 2 },
      [other.name]: { tool: other, outcome: { ok: true }, order: 3 },
    };
    // The plugin crashed during the Try of `crashes`: all of its tools went, only that Try is kept.
    expect(toolTryRows('flaky', [other], tries)).toEqual([{ tool: crashes, withdrawn: true }]);
    // Published again: the box is the tool's usual one.
    expect(toolTryRows('flaky', [echo, crashes], tries)).toEqual([
      { tool: echo, withdrawn: false },
      { tool: crashes, withdrawn: false },
    ]);
    expect(toolTryRows('other', [], tries)).toEqual([]);
  });

  it('drop a withdrawn tool whose last Try succeeded', () => {
    expect(
      toolTryRows('flaky', [], { [echo.name]: { tool: echo, outcome: { ok: true }, order: 1 } }),
    ).toEqual([]);
  });

  it("forget a plugin's tries once the user acts on it, and only its", () => {
    const tries = {
      [crashes.name]: { tool: crashes, outcome: { ok: false }, order: 1 },
      [other.name]: { tool: other, outcome: { ok: true }, order: 2 },
    };
    expect(triesWithout('flaky', tries)).toEqual({ [other.name]: tries[other.name] });
  });
});
