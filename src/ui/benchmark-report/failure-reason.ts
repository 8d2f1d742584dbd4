import type { MessageKey } from '../i18n';

/** One part of a case's failure reason: a message to translate, or the service's own text. */
export type ReasonPart = { key: MessageKey; params: Record<string, string> } | { key: null; text: string };

/**
 * The benchmark service writes a case's failure reason as English phrases joined
 * by "; " (it also runs in Node, where there is no UI language, and exports
 * carry it as is). The report translates each phrase it knows; one it does not
 * (a provider's own error text, say) is shown as written.
 */
const PATTERNS: ReadonlyArray<readonly [RegExp, MessageKey, readonly string[]]> = [
  [/^no results$/, 'bench.reason.noResults', []],
  [/^expected block not retrieved$/, 'bench.reason.notRetrieved', []],
  [/^answer failed: (.*)$/s, 'bench.reason.answerFailed', ['error']],
  [/^the answer cited no source$/, 'bench.reason.citedNone', []],
  [/^the answer did not cite the expected block$/, 'bench.reason.citedOther', []],
  [
    /^token budget exceeded: the run was stopped at (\d+) of (\d+) tokens$/,
    'bench.reason.budgetStopped',
    ['tokens', 'budget'],
  ],
  [/^token budget exceeded: (\d+) > (\d+)$/, 'bench.reason.budgetExceeded', ['tokens', 'budget']],
  [/^run (\w+) \(([A-Z_]+): (.*)\)$/s, 'bench.reason.runEndedCode', ['status', 'code', 'message']],
  [/^run (\w+)$/, 'bench.reason.runEnded', ['status']],
  [/^expected tools not called: (.*)$/, 'bench.reason.toolsMissing', ['tools']],
  [/^tasks_created: expected (\d+), got (\d+)$/, 'bench.reason.tasksCreated', ['expected', 'actual']],
  [/^notes_created: expected (\d+), got (\d+)$/, 'bench.reason.notesCreated', ['expected', 'actual']],
  [/^citation_required: no note was searched or read successfully$/, 'bench.reason.noCitation', []],
  [/^answer does not contain "(.*)"$/s, 'bench.reason.answerMissing', ['text']],
  // Not a failure but a metric's "skipped" reason, written the same way.
  [/^no answer model was chosen$/, 'bench.reason.noAnswerModel', []],
];

export function reasonParts(reason: string): ReasonPart[] {
  return reason
    .split('; ')
    .filter((part) => part !== '')
    .map((part) => {
      for (const [pattern, key, names] of PATTERNS) {
        const match = pattern.exec(part);
        if (!match) continue;
        const params: Record<string, string> = {};
        names.forEach((name, index) => (params[name] = match[index + 1] ?? ''));
        return { key, params };
      }
      return { key: null, text: part };
    });
}

/** The reason in the UI's language; `separator` joins the parts as that language punctuates. */
export function translateReason(
  reason: string,
  translate: (key: MessageKey, params: Record<string, string>) => string,
  separator: string,
): string {
  return reasonParts(reason)
    .map((part) => (part.key === null ? part.text : translate(part.key, part.params)))
    .join(separator);
}
