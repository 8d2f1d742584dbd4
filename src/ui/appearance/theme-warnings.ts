import type { MessageKey } from '../i18n';

/**
 * The theme checker writes its warnings in English (it also runs where there
 * is no UI language). The settings page shows each one it knows in the UI's
 * language; one it does not know is shown as written.
 */
const PATTERNS: ReadonlyArray<readonly [RegExp, MessageKey, readonly string[]]> = [
  [/^Line (\d+): CSS that could not be parsed was ignored\.$/, 'themes.warn.unparsed', ['line']],
  [/^Line (\d+): @(\S+) is not supported and was ignored\.$/, 'themes.warn.atRule', ['line', 'rule']],
  [/^Line (\d+): a selector that could not be parsed was ignored\.$/, 'themes.warn.selector', ['line']],
  [
    /^This theme needs app version (\S+) or later \(this is (\S+)\)\.$/,
    'themes.warn.version',
    ['version', 'current'],
  ],
];

export function themeWarningText(
  warning: string,
  translate: (key: MessageKey, params: Record<string, string>) => string,
): string {
  for (const [pattern, key, names] of PATTERNS) {
    const match = pattern.exec(warning);
    if (!match) continue;
    const params: Record<string, string> = {};
    names.forEach((name, index) => (params[name] = match[index + 1] ?? ''));
    return translate(key, params);
  }
  return warning;
}

/** The theme.yaml fields a refusal names (its `details.fields`), each once, in order. */
export function refusedFields(details: unknown): string[] {
  const fields = (details as { fields?: unknown } | null | undefined)?.fields;
  if (!Array.isArray(fields)) return [];
  const paths = fields.flatMap((field) => {
    const path = (field as { path?: unknown } | null)?.path;
    return typeof path === 'string' && path !== '' ? [path] : [];
  });
  return [...new Set(paths)];
}
