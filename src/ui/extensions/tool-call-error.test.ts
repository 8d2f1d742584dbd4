import { beforeAll, describe, expect, it } from 'vitest';
import { I18nState } from '../i18n/i18n.svelte';
import type { PluginRefusal } from './plugin-refusal';
import { toolCallErrorText } from './tool-call-error';

const english = new I18nState();
const chinese = new I18nState();
beforeAll(() => chinese.setLocale('zh-CN'));

const refused = (fields: unknown, code = 'VALIDATION_FAILED'): PluginRefusal => ({
  code,
  message: 'Invalid arguments for word-counter.count.',
  details: { tool: 'word-counter.count', fields },
});

describe('toolCallErrorText', () => {
  it('names a missing required argument in both languages', () => {
    const error = refused([{ path: '/', message: "must have required property 'text'" }]);
    expect(toolCallErrorText(error, english)).toBe(
      'The tool “word-counter.count” did not run: the argument “text” is required.',
    );
    expect(toolCallErrorText(error, chinese)).toBe('工具“word-counter.count”没有运行：缺少必填参数“text”。');
  });

  it('names a nested argument of the wrong type, and one it cannot explain', () => {
    const error = refused([
      { path: '/options/0', message: "must have required property 'name'" },
      { path: '/limit', message: 'must be integer' },
      { path: '/text', message: 'must NOT have more than 2000 characters' },
    ]);
    expect(toolCallErrorText(error, english)).toBe(
      'The tool “word-counter.count” did not run: the argument “options.0.name” is required; ' +
        'the argument “limit” must be of type integer; the argument “text” is not valid.',
    );
    // The schema's English wording never reaches a Chinese screen.
    expect(toolCallErrorText(error, chinese)).not.toMatch(/must|characters/);
  });

  it('says the arguments as a whole are wrong when the issue has no argument', () => {
    const error = refused([{ path: '/', message: 'must NOT have additional properties' }]);
    expect(toolCallErrorText(error, chinese)).toBe('工具“word-counter.count”没有运行：参数整体无效。');
  });

  it('leaves other errors, and a refusal without fields, to the generic text', () => {
    expect(toolCallErrorText(refused([], 'PLUGIN_HOST_UNAVAILABLE'), english)).toBeNull();
    expect(toolCallErrorText(refused(undefined), english)).toBeNull();
    expect(toolCallErrorText(refused([{ message: 'x' }]), english)).toBeNull();
  });
});
