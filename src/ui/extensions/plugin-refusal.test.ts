import { beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../../contracts/errors';
import { I18nState } from '../i18n/i18n.svelte';
import {
  permissionLabel,
  pluginErrorNextStep,
  pluginRefusal,
  refusalNextStep,
  refusalText,
  toolProblemText,
  type PluginRefusal,
} from './plugin-refusal';

const english = new I18nState();
const chinese = new I18nState();
beforeAll(() => chinese.setLocale('zh-CN'));

const refusal = (code: string, details: Record<string, unknown>): PluginRefusal => ({
  code,
  message: 'The plugin package was refused: The file is not a zip archive.',
  details,
});

/**
 * Latin words left in a Chinese message once the names it quotes (file, field and
 * permission ids, paths) and the units and formats that have no Chinese name are removed.
 */
function englishWords(text: string, quoted: readonly string[]): string[] {
  let rest = text;
  for (const name of [...quoted].sort((a, b) => b.length - a.length)) rest = rest.split(name).join(' ');
  return (rest.match(/[A-Za-z]{2,}/g) ?? []).filter(
    (word) => !['zip', 'UTF', 'MCP', 'ID', 'KiB', 'MiB'].includes(word),
  );
}

describe('refusalText', () => {
  it('a YAML syntax error names the file, the line and the column in both languages', () => {
    const yaml = refusal('PLUGIN_MANIFEST_INVALID', {
      reason: 'manifest_yaml',
      file: 'plugin.yaml',
      line: 1,
      column: 17,
    });
    expect(refusalText(yaml, english)).toBe(
      'plugin.yaml could not be parsed: syntax error at line 1, column 17.',
    );
    expect(refusalText(yaml, chinese)).toBe('无法解析 plugin.yaml：第 1 行第 17 列有语法错误。');
  });

  it('missing and invalid fields are listed by name, in the reader’s language', () => {
    const fields = refusal('PLUGIN_MANIFEST_INVALID', {
      reason: 'manifest_invalid',
      file: 'plugin.yaml',
      fields: [
        { path: 'version', problem: 'required', message: 'Invalid input: expected string' },
        { path: 'backend', problem: 'required', message: 'Invalid input: expected object' },
        { path: 'plugin_id', problem: 'unknown', message: 'Unrecognized key' },
        {
          path: 'backend.transport',
          problem: 'one_of',
          allowed: ['worker', 'stdio'],
          message: 'Invalid discriminator value',
        },
        { path: 'id', problem: 'invalid', message: 'lower-case letters, digits and dashes' },
      ],
    });
    expect(refusalText(fields, english)).toBe(
      'plugin.yaml has missing or invalid fields: version: required; backend: required; ' +
        'plugin_id: unknown field; backend.transport: must be one of worker, stdio; id: not valid.',
    );
    expect(refusalText(fields, chinese)).toBe(
      'plugin.yaml 中有缺失或无效的字段：version：必填；backend：必填；plugin_id：未知字段；' +
        'backend.transport：必须是 worker、stdio 之一；id：无效。',
    );
  });

  it('a file that is not a zip reads wholly in Chinese, without the core’s English detail', () => {
    const notZip = refusal('PLUGIN_PACKAGE_INVALID', { reason: 'not_zip', problem: 'not_an_archive' });
    expect(refusalText(notZip, chinese)).toBe('该文件不是 zip 压缩包。');
    expect(refusalText(notZip, english)).toBe('The file is not a zip archive.');
  });

  it('words every reason of the package check with no placeholder left and no English in Chinese', () => {
    const details = {
      entry: 'lib/server.js',
      file: 'plugin.yaml',
      path: 'server.js',
      tool: 'other.echo',
      plugin_id: 'demo',
      command: './bin/server',
      limit: 256 * 1024,
      line: 3,
      column: 7,
      fields: [{ path: 'version', problem: 'required', message: 'x' }],
    };
    const reasons = [
      'not_zip',
      'entry_unreadable',
      'path_outside_package',
      'symlink',
      'path_too_deep',
      'name_too_long',
      'duplicate_path',
      'too_many_entries',
      'entry_too_large',
      'total_too_large',
      'ratio_too_high',
      'manifest_missing',
      'manifest_yaml',
      'manifest_too_large',
      'manifest_encoding',
      'manifest_not_mapping',
      'manifest_invalid',
      'reserved_id',
      'tool_namespace',
      'network_permission',
      'server_missing',
      'executable_outside',
    ];
    const quoted = [
      'lib/server.js',
      'plugin.yaml',
      'server.js',
      'other.echo',
      'demo',
      './bin/server',
      'version',
    ];
    for (const reason of reasons) {
      const shown = { reason, ...details };
      const zh = refusalText(refusal('PLUGIN_MANIFEST_INVALID', shown), chinese);
      const en = refusalText(refusal('PLUGIN_MANIFEST_INVALID', shown), english);
      expect({ reason, zh, en }).not.toMatchObject({ zh: expect.stringMatching(/\{\w+\}/) });
      expect({ reason, en }).not.toMatchObject({ en: expect.stringMatching(/\{\w+\}/) });
      expect({ reason, words: englishWords(zh, quoted) }).toEqual({ reason, words: [] });
      // Each reason has its own words, not the code's generic line.
      expect({ reason, zh }).not.toEqual({ reason, zh: '插件清单缺失或无效。' });
    }
    expect(
      refusalText(refusal('PAYLOAD_TOO_LARGE', { reason: 'total_too_large', limit: 64 << 20 }), english),
    ).toBe('The package is larger than 64 MiB when unpacked.');
  });

  it('a reason it does not know (free English text from another check) falls back to the code’s text', () => {
    const command = refusal('PLUGIN_COMMAND_INVALID', { reason: 'the target is not a tool of this plugin' });
    expect(refusalText(command, chinese)).toBe('该插件命令无效。');
    expect(refusalText(command, english)).not.toContain('target');
  });

  it('a known reason whose details lack a value falls back too, rather than show “{entry}”', () => {
    const symlink = refusal('PLUGIN_PACKAGE_INVALID', { reason: 'symlink' });
    expect(refusalText(symlink, chinese)).toBe('该文件不是有效的插件包。');
  });

  it('a syntax error without a position (a refused alias) still names the file', () => {
    const alias = refusal('PLUGIN_MANIFEST_INVALID', { reason: 'manifest_yaml', file: 'plugin.yaml' });
    expect(refusalText(alias, chinese)).toBe('无法解析 plugin.yaml。');
  });

  it('a settings schema’s fields follow the code’s text', () => {
    const settings = refusal('PLUGIN_SETTINGS_SCHEMA_INVALID', {
      plugin_id: 'demo',
      fields: [{ path: 'fields.0.maximum', message: 'a finite number' }],
    });
    expect(refusalText(settings, chinese)).toBe(
      '插件的设置描述无法被本应用使用。 字段：fields.0.maximum：无效。',
    );
  });
});

describe('pluginRefusal', () => {
  it('keeps the code and the structured details, and stays silent for an abort', () => {
    const error = new AppError('PLUGIN_MANIFEST_INVALID', 'plugin.yaml is not valid', {
      reason: 'manifest_invalid',
    });
    expect(pluginRefusal(error)).toEqual({
      code: 'PLUGIN_MANIFEST_INVALID',
      message: 'plugin.yaml is not valid',
      details: { reason: 'manifest_invalid' },
    });
    expect(pluginRefusal(new DOMException('stop', 'AbortError'))).toBeNull();
    expect(pluginRefusal(new Error('boom'))).toMatchObject({ code: 'INTERNAL_ERROR', details: {} });
  });
});

describe('permissionLabel', () => {
  it('names the known permissions in the reader’s language and leaves an unknown id as it is', () => {
    expect(permissionLabel('secrets.use', chinese)).toBe('使用其密钥');
    expect(permissionLabel('notes.read', english)).toBe('Read notes');
    expect(permissionLabel('camera', chinese)).toBe('camera');
  });
});

describe('a plugin whose tools do not match its manifest (MCP_TOOL_SCHEMA_INVALID)', () => {
  it('says the tools were refused and that only the plugin’s author can fix it, in both languages', () => {
    expect(english.errorText('MCP_TOOL_SCHEMA_INVALID', '')).toBe(
      'The plugin’s tools do not match its manifest or cannot be used, so none of them were added.',
    );
    expect(chinese.errorText('MCP_TOOL_SCHEMA_INVALID', '')).toBe(
      '插件提供的工具与其清单不符或无法使用，因此它的工具都没有添加。',
    );
    expect(pluginErrorNextStep('MCP_TOOL_SCHEMA_INVALID', english)).toBe(
      'Only a fixed version of the plugin from its author can solve this: the detail below names the tool and what is wrong with it.',
    );
    expect(pluginErrorNextStep('MCP_TOOL_SCHEMA_INVALID', chinese)).toBe(
      '只有插件作者发布修正后的版本才能解决：下方详情写明了出错的工具及原因。',
    );
  });

  it('adds no next step to an error whose text already says what to do', () => {
    expect(pluginErrorNextStep('PLUGIN_HOST_START_FAILED', english)).toBeNull();
  });
});

describe('toolProblemText', () => {
  // `details` as `checkListedTools` (src/plugins/tool-definitions.ts) gives them.
  const schemaInvalid = {
    plugin_id: 'bad-schema',
    tool: 'lookup',
    problem: 'schema_invalid',
    reason: 'an invalid input schema (schema is invalid: data/properties/word/minLength must be integer)',
  };

  it('names the tool and what is wrong with its schema, in both languages, without the English reason', () => {
    expect(toolProblemText('MCP_TOOL_SCHEMA_INVALID', schemaInvalid, chinese)).toBe(
      '工具“lookup”描述输入参数所用的结构不是有效的 JSON Schema。',
    );
    expect(toolProblemText('MCP_TOOL_SCHEMA_INVALID', schemaInvalid, english)).toBe(
      'The tool “lookup” describes its input with a schema that is not valid JSON Schema.',
    );
    expect(
      toolProblemText('MCP_TOOL_SCHEMA_INVALID', { ...schemaInvalid, problem: 'schema_not_object' }, chinese),
    ).toBe('工具“lookup”的输入参数没有描述为对象。');
  });

  it('says the listed tools differ from the manifest without naming one', () => {
    const details = {
      plugin_id: 'bad-schema',
      problem: 'manifest_mismatch',
      reason: 'missing bad-schema.lookup',
    };
    expect(toolProblemText('MCP_TOOL_SCHEMA_INVALID', details, chinese)).toBe(
      '插件服务列出的工具与其清单声明的工具不一致。',
    );
  });

  it('says nothing for another code, an unknown problem or a problem without its tool', () => {
    expect(toolProblemText('PLUGIN_HOST_START_FAILED', schemaInvalid, english)).toBeNull();
    expect(
      toolProblemText('MCP_TOOL_SCHEMA_INVALID', { ...schemaInvalid, problem: 'novel' }, english),
    ).toBeNull();
    expect(toolProblemText('MCP_TOOL_SCHEMA_INVALID', { problem: 'schema_invalid' }, english)).toBeNull();
  });
});

describe('refusalNextStep', () => {
  const installed = [{ plugin_id: 'sample-greeter', name: 'Sample Greeter', version: '1.0.0' }];

  it('a second install names the plugin in the way and how to replace it, in both languages', () => {
    const second = refusal('PLUGIN_ALREADY_INSTALLED', { plugin_id: 'sample-greeter' });
    expect(refusalNextStep(second, installed, chinese)).toBe(
      '已安装“Sample Greeter” 1.0.0。如要改为安装这个包，请先卸载它：它的设置和密钥会一并删除。',
    );
    expect(refusalNextStep(second, installed, english)).toContain('uninstall it first');
  });

  it('says nothing when the plugin is not in the list or for another refusal', () => {
    expect(
      refusalNextStep(refusal('PLUGIN_ALREADY_INSTALLED', { plugin_id: 'other' }), installed, english),
    ).toBeNull();
    expect(
      refusalNextStep(refusal('PLUGIN_PACKAGE_INVALID', { plugin_id: 'sample-greeter' }), installed, english),
    ).toBeNull();
  });
});
