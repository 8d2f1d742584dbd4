import { beforeAll, describe, expect, it } from 'vitest';
import { I18nState } from '../i18n/i18n.svelte';
import {
  allowedToolsFor,
  alwaysAllowText,
  coveredToolsText,
  toolHumanName,
  toolsCoveredBy,
} from './tool-choice';

const english = new I18nState();
const chinese = new I18nState();
beforeAll(() => chinese.setLocale('zh-CN'));

const tool = (name: string, permission: string, requires_permission = true) => ({
  name,
  permission,
  requires_permission,
});

/** The built-in tools as the registry lists them, and one plugin tool. */
const TOOLS = [
  tool('rag.search', 'rag.write', false),
  tool('notes.search', 'notes.write', false),
  tool('notes.read', 'notes.write', false),
  tool('notes.create', 'notes.write'),
  tool('notes.update', 'notes.write'),
  tool('notes.organise', 'notes.write'),
  tool('tasks.create', 'notes.write'),
  tool('memory.save', 'memory.write'),
  tool('sample-greeter.greet', 'sample-greeter.tools'),
];

const PLUGINS = {
  plugins: [{ plugin_id: 'sample-greeter', name: 'Sample Greeter' }],
  tools: [{ name: 'sample-greeter.greet', plugin_id: 'sample-greeter', tool_name: 'greet' }],
};

describe('toolsCoveredBy', () => {
  it('is every tool that asks for the permission, not only the one that asked', () => {
    expect(toolsCoveredBy('notes.write', TOOLS)).toEqual([
      'notes.create',
      'notes.update',
      'notes.organise',
      'tasks.create',
    ]);
  });

  it('leaves out tools that share the permission id but never ask', () => {
    expect(toolsCoveredBy('notes.write', TOOLS)).not.toContain('notes.read');
    expect(toolsCoveredBy('calendar.write', TOOLS)).toEqual([]);
  });
});

describe('the words for what "always allow" covers', () => {
  it('names the covered tools by what they do, in the reader’s language', () => {
    expect(coveredToolsText('notes.write', TOOLS, PLUGINS, english)).toBe(
      'Create notes, Edit notes, Move and tag notes, Add to-dos',
    );
    expect(coveredToolsText('notes.write', TOOLS, PLUGINS, chinese)).toBe(
      '新建笔记、编辑笔记、移动笔记和设置标签、添加待办',
    );
  });

  it('names a plugin’s tool by its name and its plugin’s', () => {
    expect(toolHumanName('sample-greeter.greet', PLUGINS, english)).toBe(
      '“greet” from the plugin “Sample Greeter”',
    );
    expect(alwaysAllowText('sample-greeter.tools', TOOLS, PLUGINS, english)).toContain(
      'covers these tools: “greet” from the plugin “Sample Greeter”.',
    );
  });

  it('says the permission and the tools in one sentence', () => {
    expect(alwaysAllowText('memory.write', TOOLS, PLUGINS, english)).toBe(
      'Always allow “Write to the agent’s memory” covers these tools: Remember facts. None of them will ask again, in this run or later ones, until you take it back in Settings → Agent.',
    );
  });

  it('falls back to the permission alone while the tools are not known', () => {
    expect(alwaysAllowText('notes.write', [], PLUGINS, english)).toBe(
      'Always allow: every tool that asks for “Change notes” runs without asking, in this run and later ones, until you take it back in Settings → Agent.',
    );
  });
});

describe('allowedToolsFor', () => {
  it('offers every tool while none is turned off', () => {
    expect(allowedToolsFor(TOOLS, [])).toBeUndefined();
    // A plugin's tool turned off and since removed leaves the rest as they were.
    expect(allowedToolsFor(TOOLS, ['gone-plugin.tool'])).toBeUndefined();
  });

  it('leaves out the tools turned off; a new tool is on', () => {
    const allowed = allowedToolsFor(
      [...TOOLS, tool('new-plugin.tool', 'new-plugin.tools')],
      ['notes.organise'],
    );
    expect(allowed).not.toContain('notes.organise');
    expect(allowed).toContain('notes.create');
    expect(allowed).toContain('new-plugin.tool');
  });

  it('is an empty list when every tool is off: the run is plain chat', () => {
    expect(
      allowedToolsFor(
        TOOLS,
        TOOLS.map((entry) => entry.name),
      ),
    ).toEqual([]);
  });
});
