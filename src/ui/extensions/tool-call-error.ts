import { i18n, type MessageKey, type MessageParams } from '../i18n';
import type { PluginRefusal } from './plugin-refusal';

type Translator = { t(key: MessageKey, params?: MessageParams): string };

/**
 * A tool call refused for its arguments (VALIDATION_FAILED from `src/plugins/mcp-host.ts`,
 * `details.fields` of `{ path, message }` from the tool's JSON Schema), naming each argument
 * and why in the reader's language; null for any other error. The schema's own wording is
 * English, so only the two shapes recognised here are put in words, the rest reads "not valid".
 */
export function toolCallErrorText(refusal: PluginRefusal, translator: Translator = i18n): string | null {
  const { details } = refusal;
  if (typeof details.tool !== 'string') return null;
  const problems = toolCallProblems(refusal, translator);
  if (problems === null) return null;
  return translator.t('plugins.toolCall.invalid', { tool: details.tool, problems });
}

/** The arguments a VALIDATION_FAILED refusal names, each with why, as one phrase; null when it names none. */
export function toolCallProblems(refusal: PluginRefusal, translator: Translator = i18n): string | null {
  const { details } = refusal;
  if (refusal.code !== 'VALIDATION_FAILED' || !Array.isArray(details.fields)) return null;
  const problems: string[] = [];
  for (const field of details.fields as unknown[]) {
    if (typeof field !== 'object' || field === null) continue;
    const { path, message } = field as { path?: unknown; message?: unknown };
    if (typeof path !== 'string') continue;
    problems.push(problemText(argumentName(path), typeof message === 'string' ? message : '', translator));
  }
  return problems.length === 0 ? null : problems.join(translator.t('plugins.toolCall.separator'));
}

/** `/` is the arguments object itself; `/options/0/name` reads `options.0.name`. */
function argumentName(path: string): string {
  return path.split('/').filter(Boolean).join('.');
}

function problemText(argument: string, message: string, translator: Translator): string {
  const missing = /^must have required property '(.+)'$/.exec(message)?.[1];
  if (missing !== undefined) {
    return translator.t('plugins.toolCall.required', {
      argument: argument ? `${argument}.${missing}` : missing,
    });
  }
  if (!argument) return translator.t('plugins.toolCall.rootInvalid');
  const type = /^must be ([a-z]+(?:,[a-z]+)*)$/.exec(message)?.[1];
  if (type !== undefined) return translator.t('plugins.toolCall.type', { argument, type });
  return translator.t('plugins.toolCall.invalidArgument', { argument });
}
