import { beforeAll, describe, expect, it } from 'vitest';
import type { PluginSettingField } from '../../contracts/plugin-types';
import { I18nState } from '../i18n/i18n.svelte';
import { settingsErrorText } from './plugin-settings-errors';

const english = new I18nState();
const chinese = new I18nState();
beforeAll(() => chinese.setLocale('zh-CN'));

// The sample greeter's settings (e2e/plugins/sample-greeter/settings.yaml).
const fields: PluginSettingField[] = [
  { key: 'greeting', label: 'Greeting', type: 'string', required: true, options: [] },
  {
    key: 'excitement',
    label: 'Exclamation marks',
    type: 'number',
    required: false,
    minimum: 0,
    maximum: 5,
    options: [],
  },
  { key: 'api_key', label: 'API key', type: 'secret', required: true, options: [] },
];
const context = { pluginName: 'Sample Greeter', fields };
const refusal = (code: string, details: Record<string, unknown>) => ({
  code,
  message: 'Set the required settings of "sample-greeter" first: greeting.',
  details: { plugin_id: 'sample-greeter', ...details },
});

describe('settingsErrorText', () => {
  it('names the missing settings and secrets by their labels and the plugin by its name', () => {
    const settings = refusal('PLUGIN_SETTINGS_REQUIRED', { keys: ['greeting'] });
    expect(settingsErrorText(settings, context, chinese)).toBe(
      '请先填写插件“Sample Greeter”的必填设置：Greeting。',
    );
    expect(settingsErrorText(settings, context, english)).toBe(
      'Fill in the required settings of “Sample Greeter” first: Greeting.',
    );
    const secrets = refusal('PLUGIN_SECRET_REQUIRED', { keys: ['api_key'] });
    expect(settingsErrorText(secrets, context, chinese)).toBe(
      '请先保存插件“Sample Greeter”的必填密钥：API key。',
    );
  });

  it('says which value is wrong, with a number field’s range', () => {
    expect(
      settingsErrorText(
        refusal('PLUGIN_SETTINGS_FIELD_INVALID', { key: 'excitement', reason: 'is too big' }),
        context,
        chinese,
      ),
    ).toBe('“Exclamation marks”须为 0 到 5 之间的数字。');
    expect(
      settingsErrorText(
        refusal('PLUGIN_SETTINGS_FIELD_INVALID', { key: 'greeting', reason: 'is too long' }),
        context,
        english,
      ),
    ).toBe('The value of “Greeting” is not valid.');
    expect(
      settingsErrorText(refusal('PLUGIN_SECRET_VALUE_INVALID', { key: 'api_key' }), context, chinese),
    ).toBe('请先输入密钥“API key”：不能为空，也不能超过 16 KiB。');
  });

  it('falls back to the keys and the plugin id when the page has not read the settings', () => {
    const settings = refusal('PLUGIN_SETTINGS_REQUIRED', { keys: ['greeting', 'tone'] });
    expect(settingsErrorText(settings, { pluginName: null, fields: [] }, chinese)).toBe(
      '请先填写插件“sample-greeter”的必填设置：greeting、tone。',
    );
  });

  it('leaves other codes, and details it cannot word, to the usual error text', () => {
    expect(settingsErrorText(refusal('PLUGIN_HOST_START_FAILED', {}), context, english)).toBeNull();
    expect(settingsErrorText(refusal('PLUGIN_SETTINGS_REQUIRED', {}), context, english)).toBeNull();
    expect(settingsErrorText(refusal('PLUGIN_SECRET_VALUE_INVALID', {}), context, english)).toBeNull();
  });
});
