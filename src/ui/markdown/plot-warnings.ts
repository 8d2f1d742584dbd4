import type { MessageKey, MessageParams } from '../i18n';

/**
 * A function plot's warnings (FunctionPlotDiagnostic.message, §12.3) are English
 * sentences from core/function-plot. These patterns name each kind, so the preview
 * and the export toast can say it in the user's language; the names quoted from
 * the note stay as written, and a warning matching none is shown as it is.
 */
const PATTERNS: ReadonlyArray<{
  pattern: RegExp;
  key: MessageKey;
  params: (match: RegExpExecArray) => MessageParams;
}> = [
  {
    pattern: /^Unknown setting "(.*)" is ignored; did you mean "(.*)"\?$/s,
    key: 'plot.warning.unknownSettingGuess',
    params: ([, name, meant]) => ({ name: name ?? '', meant: meant ?? '' }),
  },
  {
    pattern: /^Unknown setting "(.*)" is ignored\.$/s,
    key: 'plot.warning.unknownSetting',
    params: ([, name]) => ({ name: name ?? '' }),
  },
  {
    pattern: /^Unknown option "(.*)" is ignored; did you mean "(.*)"\?$/s,
    key: 'plot.warning.unknownOptionGuess',
    params: ([, name, meant]) => ({ name: name ?? '', meant: meant ?? '' }),
  },
  {
    pattern: /^Unknown option "(.*)" is ignored; use label: or color:\.$/s,
    key: 'plot.warning.unknownOption',
    params: ([, name]) => ({ name: name ?? '' }),
  },
  {
    pattern: /^Colour "(.*)" is ignored: use #rgb, #rrggbb or a colour name\.$/s,
    key: 'plot.warning.color',
    params: ([, value]) => ({ value: value ?? '' }),
  },
];

/** A plot warning in the user's language through `translate` (i18n's `t`), or undefined for one of no known kind. */
export function translatePlotWarning(
  warning: string,
  translate: (key: MessageKey, params: MessageParams) => string,
): string | undefined {
  for (const { pattern, key, params } of PATTERNS) {
    const match = pattern.exec(warning);
    if (match) return translate(key, params(match));
  }
  return undefined;
}
