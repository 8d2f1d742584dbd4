/** A message is a template, or plural forms chosen by `Intl.PluralRules` on `params.count`. */
export type PluralMessage = { readonly one?: string; readonly other: string };
export type Message = string | PluralMessage;
export type MessageParams = Readonly<Record<string, string | number>>;

const pluralRulesCache = new Map<string, Intl.PluralRules>();

function pluralCategory(locale: string, count: number): Intl.LDMLPluralRule {
  let rules = pluralRulesCache.get(locale);
  if (!rules) {
    rules = new Intl.PluralRules(locale);
    pluralRulesCache.set(locale, rules);
  }
  return rules.select(count);
}

/** Replaces `{name}` with `params.name`; unknown placeholders stay visible so a bug shows. */
export function interpolate(template: string, params: MessageParams = {}): string {
  return template.replace(/\{(\w+)\}/g, (match, name: string) => {
    const value = params[name];
    return value === undefined ? match : String(value);
  });
}

export function formatMessage(message: Message, locale: string, params: MessageParams = {}): string {
  if (typeof message === 'string') return interpolate(message, params);
  const count = params.count;
  const form =
    typeof count === 'number' && pluralCategory(locale, count) === 'one' && message.one !== undefined
      ? message.one
      : message.other;
  return interpolate(form, params);
}

/** Looks `key` up in `dictionary`, then in `fallback`, then returns the key itself. */
export function translate<K extends string>(
  dictionary: Partial<Record<K, Message>>,
  fallback: Partial<Record<K, Message>>,
  locale: string,
  key: K,
  params?: MessageParams,
): string {
  const message = dictionary[key] ?? fallback[key];
  return message === undefined ? key : formatMessage(message, locale, params);
}
