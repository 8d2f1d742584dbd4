import { beforeAll, describe, expect, it } from 'vitest';
import { I18nState } from '../i18n/i18n.svelte';
import { permissionName } from './permission-name';

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
