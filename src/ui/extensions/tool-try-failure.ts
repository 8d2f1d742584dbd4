import { i18n, type MessageKey, type MessageParams } from '../i18n';
import type { PluginRefusal } from './plugin-refusal';
import { toolCallProblems } from './tool-call-error';

type Translator = { t(key: MessageKey, params?: MessageParams): string };

/**
 * Why Settings' Try on a plugin tool gave no result, and what to do, from the error's
 * code (§7.7) and the host's `details.reason` (`src/plugins/mcp-host.ts`). Only a tool
 * that ran and reported an error reads as the tool's error: a timeout, a transport that
 * broke, arguments the schema refused or a plugin that stopped each say so.
 */
export function toolTryFailureText(refusal: PluginRefusal | null, translator: Translator = i18n): string {
  if (refusal === null) return translator.t('pluginTools.try.unknown');
  const { code, details } = refusal;
  switch (code) {
    case 'MCP_TOOL_CALL_FAILED':
      return callFailedText(details, translator);
    case 'VALIDATION_FAILED':
      return translator.t('pluginTools.try.invalidArguments', {
        problems: toolCallProblems(refusal, translator) ?? translator.t('plugins.toolCall.rootInvalid'),
      });
    case 'MCP_TOOL_RESULT_TOO_LARGE': {
      const limit = typeof details.limit === 'number' ? Math.round(details.limit / 1024) : 256;
      return translator.t('pluginTools.try.tooLarge', { limit });
    }
    case 'PLUGIN_HOST_UNHEALTHY':
      // The host names the fault that cut off a call it had sent; a plugin already down has none.
      return translator.t(
        typeof details.reason === 'string'
          ? 'pluginTools.try.stoppedWhileRunning'
          : 'pluginTools.try.stopped',
      );
    case 'PLUGIN_HOST_UNAVAILABLE':
      // The host names the status of a plugin that is not running; a transport it cannot reach has none.
      return translator.t(
        typeof details.status === 'string' ? 'pluginTools.try.notRunning' : 'pluginTools.try.unreachable',
      );
    case 'RESOURCE_NOT_FOUND':
      return translator.t('pluginTools.try.toolGone');
    case 'JOB_CANCELLED':
      return translator.t('pluginTools.try.cancelled');
    default:
      return translator.t('pluginTools.try.other', { code });
  }
}

function callFailedText(details: PluginRefusal['details'], translator: Translator): string {
  if (typeof details.tool_message === 'string') {
    return translator.t('pluginReady.toolReportedError', { message: details.tool_message || '—' });
  }
  if (details.reason === 'timeout') return translator.t('pluginTools.try.timeout');
  if (details.reason === 'invalid_result') return translator.t('pluginTools.try.invalidResult');
  if (typeof details.mcp_code === 'number') {
    return translator.t('pluginTools.try.serverRefused', { code: details.mcp_code });
  }
  return translator.t('pluginTools.try.transport');
}
