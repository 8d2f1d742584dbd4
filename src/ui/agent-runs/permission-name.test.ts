import { beforeAll, describe, expect, it } from 'vitest';
import { I18nState } from '../i18n/i18n.svelte';
import { permissionName, permissionQuestion, toolName } from './permission-name';

const english = new I18nState();
const chinese = new I18nState();
beforeAll(() => chinese.setLocale('zh-CN'));

describe('permissionName', () => {
  it('names the built-in permissions in the reader’s language', () => {
    expect(permissionName('notes.write', english)).toBe('Change notes');
    expect(permissionName('notes.write', chinese)).toBe('修改笔记');
    expect(permissionName('memory.write', chinese)).toBe('写入智能体记忆');
    expect(permissionName('network', chinese)).toBe('访问网络');
  });

  it('names a plugin’s default tool permission by the plugin', () => {
    expect(permissionName('sample-greeter.tools', english)).toBe(
      'Use the tools of the plugin “sample-greeter”',
    );
    expect(permissionName('sample-greeter.tools', chinese)).toBe('使用插件“sample-greeter”的工具');
  });

  it('keeps an id it has no words for as it is', () => {
    expect(permissionName('calendar.write', chinese)).toBe('calendar.write');
    expect(permissionName('.tools', english)).toBe('.tools');
  });
});

describe('toolName', () => {
  const names = {
    plugins: [
      { plugin_id: 'word-counter', name: 'Word Counter' },
      { plugin_id: 'sample-greeter', name: 'Sample Greeter' },
    ],
    tools: [
      { name: 'word-counter.count', plugin_id: 'word-counter', tool_name: 'count', title: 'Count words' },
      { name: 'sample-greeter.greet', plugin_id: 'sample-greeter', tool_name: 'greet' },
    ],
  };

  it('names a plugin tool by its title and its plugin, in the reader’s language', () => {
    expect(toolName('word-counter.count', names, english)).toBe(
      '“Count words” from the plugin “Word Counter”',
    );
    expect(toolName('word-counter.count', names, chinese)).toBe('插件“Word Counter”的“Count words”');
  });

  it('falls back to the tool’s MCP name when it gave no title', () => {
    expect(toolName('sample-greeter.greet', names, chinese)).toBe('插件“Sample Greeter”的“greet”');
  });

  it('still names the plugin of a tool it no longer publishes (a run replayed after a disable)', () => {
    expect(toolName('sample-greeter.wave', names, english)).toBe('“wave” from the plugin “Sample Greeter”');
  });

  it('keeps built-in tools and tools of unknown plugins as their id', () => {
    expect(toolName('notes.create', names, chinese)).toBe('notes.create');
    expect(toolName('gone.lookup', { plugins: [], tools: [] }, english)).toBe('gone.lookup');
  });
});

describe('permissionName with the installed plugins', () => {
  it('names a plugin’s default permission by the plugin’s name, its id once it is gone', () => {
    const names = { plugins: [{ plugin_id: 'sample-greeter', name: 'Sample Greeter' }] };
    expect(permissionName('sample-greeter.tools', chinese, names)).toBe(
      chinese.t('agent.permission.name.pluginTools', { plugin: 'Sample Greeter' }),
    );
    expect(permissionName('gone.tools', english, names)).toBe('Use the tools of the plugin “gone”');
  });
});

describe('permissionQuestion', () => {
  const names = {
    plugins: [{ plugin_id: 'word-counter', name: 'Word Counter' }],
    tools: [
      { name: 'word-counter.count', plugin_id: 'word-counter', tool_name: 'count', title: 'Count words' },
    ],
  };

  it('asks about the action first, in the reader’s language, with no id in it', () => {
    const edit = {
      tool: 'notes.update',
      permission: 'notes.write',
      action: { kind: 'note_replace' as const, title: 'Plan' },
    };
    expect(permissionQuestion(edit, english)).toBe('Allow the agent to edit the note “Plan”?');
    expect(permissionQuestion(edit, chinese)).toBe('允许智能体修改笔记“Plan”吗？');
    const create = {
      tool: 'notes.create',
      permission: 'notes.write',
      action: { kind: 'note_create' as const, title: 'Summary' },
    };
    expect(permissionQuestion(create, english)).toBe('Allow the agent to create the note “Summary”?');
    const tasks = {
      tool: 'tasks.create',
      permission: 'notes.write',
      action: { kind: 'tasks_add' as const, title: 'Week', count: 2 },
    };
    expect(permissionQuestion(tasks, english)).not.toMatch(/tasks\.create|notes\.write/);
  });

  it('names a tool without a preview as a person knows it, after the question’s start', () => {
    const question = permissionQuestion(
      { tool: 'word-counter.count', permission: 'word-counter.tools', action: null },
      english,
      names,
    );
    expect(question).toBe(
      'Allow the agent to use “Count words” from the plugin “Word Counter” (Use the tools of the plugin “Word Counter”)?',
    );
    expect(
      permissionQuestion({ tool: 'memory.save', permission: 'memory.write', action: null }, english),
    ).toMatch(/^Allow the agent to use memory\.save \(/);
  });
});
