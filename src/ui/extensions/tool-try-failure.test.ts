import { describe, expect, it } from 'vitest';
import { en } from '../i18n/en';
import { zhCN } from '../i18n/zh-cn';
import { interpolate } from '../i18n/translate';
import type { MessageKey, MessageParams } from '../i18n';
import type { PluginRefusal } from './plugin-refusal';
import { toolTryFailureText } from './tool-try-failure';

const translator = (dictionary: Record<string, unknown>) => ({
  t: (key: MessageKey, params?: MessageParams) => interpolate(dictionary[key] as string, params),
});
const english = translator(en);
const chinese = translator(zhCN);

const refusal = (code: string, details: Record<string, unknown> = {}): PluginRefusal => ({
  code,
  message: 'English detail',
  details,
});

describe('why a Try gave no result', () => {
  it("is the tool's own error only when the tool ran and reported one", () => {
    expect(
      toolTryFailureText(refusal('MCP_TOOL_CALL_FAILED', { tool_message: 'no index yet' }), english),
    ).toBe('The tool ran and reported an error: no index yet');
  });

  it.each([
    ['a timeout', refusal('MCP_TOOL_CALL_FAILED', { reason: 'timeout' }), 'time limit'],
    [
      'an answer that is not a tool result',
      refusal('MCP_TOOL_CALL_FAILED', { reason: 'invalid_result' }),
      'not with an MCP tool result',
    ],
    [
      "a result the server's own SDK refused (-32602)",
      refusal('MCP_TOOL_CALL_FAILED', { mcp_code: -32602, reason: 'invalid_result' }),
      'not with an MCP tool result',
    ],
    [
      'a JSON-RPC error from the server',
      refusal('MCP_TOOL_CALL_FAILED', { mcp_code: -32602 }),
      'MCP error (-32602)',
    ],
    ['a transport failure', refusal('MCP_TOOL_CALL_FAILED', { plugin_id: 'p' }), 'did not reach'],
    [
      'arguments the schema refused',
      refusal('VALIDATION_FAILED', {
        tool: 'p.t',
        fields: [{ path: '/', message: "must have required property 'doi'" }],
      }),
      'the argument “doi” is required',
    ],
    ['arguments refused without names', refusal('VALIDATION_FAILED', { tool: 'p.t' }), 'input schema'],
    ['a plugin that stopped', refusal('PLUGIN_HOST_UNHEALTHY', { plugin_id: 'p' }), 'stopped working'],
    [
      'a plugin that crashed while the tool ran',
      refusal('PLUGIN_HOST_UNHEALTHY', { plugin_id: 'p', reason: 'exited' }),
      'stopped while running the tool',
    ],
    ['a plugin not running', refusal('PLUGIN_HOST_UNAVAILABLE', { status: 'stopped' }), 'not running'],
    [
      'an unreachable server',
      refusal('PLUGIN_HOST_UNAVAILABLE', { reason: 'unreachable' }),
      'could not be reached',
    ],
    ['a result too large', refusal('MCP_TOOL_RESULT_TOO_LARGE', { limit: 262_144 }), '256 KiB'],
    ['a tool no longer offered', refusal('RESOURCE_NOT_FOUND', { tool: 'p.t' }), 'no longer offers'],
    ['another code', refusal('INTERNAL_ERROR'), 'INTERNAL_ERROR'],
  ])('names %s, not a tool error', (_case, failure, words) => {
    const text = toolTryFailureText(failure, english);
    expect(text).toContain(words);
    expect(text).not.toContain('reported an error');
  });

  it('says each cause in Chinese too, each differently', () => {
    const failures = [
      refusal('MCP_TOOL_CALL_FAILED', { reason: 'timeout' }),
      refusal('MCP_TOOL_CALL_FAILED', {}),
      refusal('VALIDATION_FAILED', {}),
      refusal('PLUGIN_HOST_UNHEALTHY'),
      refusal('PLUGIN_HOST_UNHEALTHY', { reason: 'exited' }),
      refusal('PLUGIN_HOST_UNAVAILABLE', { status: 'stopped' }),
    ];
    const texts = failures.map((failure) => toolTryFailureText(failure, chinese));
    expect(new Set(texts).size).toBe(failures.length);
    for (const text of texts) expect(text).toMatch(/[\u4e00-\u9fff]/);
    expect(toolTryFailureText(null, chinese)).toBe('没有运行：工具应答之前出了问题。请重试。');
  });
});
