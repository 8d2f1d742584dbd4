import type { MessageKey, MessageParams } from '../i18n';
import { readMermaidError } from '../../core/markdown/diagram-error-text';
import { translatePlotWarning } from '../markdown/plot-warnings';

/**
 * The exporters' warnings are English sentences (ExportJob.warnings, §10.1, is a
 * list of strings). These patterns name each kind, so the toast can say it in the
 * user's language; a warning matching none is shown as it is. A part quoted from
 * the note or a renderer (a label, a parser's message) stays as written.
 */
type Translate = (key: MessageKey, params: MessageParams) => string;

/**
 * What a plot's parser said, in the user's language where it is one of ours
 * (core/function-plot-messages); another parser's words stay as written.
 */
function parserMessage(message: string, translate: Translate): string {
  return translatePlotWarning(message, translate) ?? message;
}

/**
 * Why a diagram is kept as source, as the preview says it: a sentence in the user's language
 * (the line, and whether the text stops short), never Mermaid's list of expected tokens.
 */
function diagramMessage(code: string, message: string, translate: Translate): string {
  if (code === 'MERMAID_SVG_UNSAFE') return translate('preview.diagramUnsafe', {});
  const error = readMermaidError(message);
  if (!error.syntax) return translate('preview.diagramFailedBare', {});
  if (error.line === undefined) return translate('preview.diagramSyntax', {});
  return translate(error.endsEarly ? 'preview.diagramEndsEarlyAt' : 'preview.diagramSyntaxAt', {
    line: error.line,
  });
}

const PATTERNS: ReadonlyArray<{
  pattern: RegExp;
  key: MessageKey;
  params: (match: RegExpExecArray, translate: Translate) => MessageParams;
}> = [
  {
    pattern: /^(\w+): raw HTML is left out\.$/,
    key: 'export.warning.rawHtml',
    params: ([, format]) => ({ format: format ?? '' }),
  },
  {
    pattern:
      /^(\w+): images that are not stored in the note \(links to the web\) are shown as their alt text\.$/,
    key: 'export.warning.webImage',
    params: ([, format]) => ({ format: format ?? '' }),
  },
  {
    pattern: /^(\w+): images other than PNG and JPEG are shown as their alt text\.$/,
    key: 'export.warning.imageFormat',
    params: ([, format]) => ({ format: format ?? '' }),
  },
  {
    pattern: /^(\w+): images inside tables and list items are shown as their alt text\.$/,
    key: 'export.warning.imageInline',
    params: ([, format]) => ({ format: format ?? '' }),
  },
  {
    pattern: /^(\w+): an image that could not be read is shown as its alt text\.$/,
    key: 'export.warning.imageUnreadable',
    params: ([, format]) => ({ format: format ?? '' }),
  },
  {
    pattern: /^(\w+): a picture that is no longer stored is shown as its alt text\.$/,
    key: 'export.warning.imageMissing',
    params: ([, format]) => ({ format: format ?? '' }),
  },
  {
    pattern: /^(\w+): a table row taller than a page is cut at the page end\.$/,
    key: 'export.warning.tallRow',
    params: ([, format]) => ({ format: format ?? '' }),
  },
  {
    pattern: /^(\w+): Mermaid diagrams are shown as their source\.$/,
    key: 'export.warning.mermaidSource',
    params: ([, format]) => ({ format: format ?? '' }),
  },
  {
    pattern:
      /^(\w+): diagrams and plots are SVG images; Word versions before 2016 show a blank box instead\.$/,
    key: 'export.warning.svgOnly',
    params: ([, format]) => ({ format: format ?? '' }),
  },
  {
    pattern: /^(\w+): a formula could not be typeset \((.*)\); it is shown as its TeX source\.$/s,
    key: 'export.warning.formula',
    params: ([, format, reason]) => ({ format: format ?? '', reason: reason ?? '' }),
  },
  {
    pattern: /^(\w+): a diagram could not be drawn as a picture \((.*)\)\.$/s,
    key: 'export.warning.picture',
    params: ([, format, reason]) => ({ format: format ?? '', reason: reason ?? '' }),
  },
  {
    pattern: /^(\w+): the monospaced font could not be loaded \((.*)\); code is set in the text font\.$/s,
    key: 'export.warning.monoFont',
    params: ([, format, reason]) => ({ format: format ?? '', reason: reason ?? '' }),
  },
  {
    pattern: /^(.+) has no finite value in the domain\.$/s,
    key: 'export.warning.noValue',
    params: ([, label]) => ({ label: label ?? '' }),
  },
  {
    pattern: /^([A-Z_]+): Diagram \(line (\d+)(?:, column \d+)?\) kept as source: (.*)$/s,
    key: 'export.warning.diagramSource',
    params: ([, code, line, message], translate) => ({
      line: line ?? '',
      message: diagramMessage(code ?? '', message ?? '', translate),
    }),
  },
  {
    pattern: /^([A-Z_]+): Diagram kept as source: (.*)$/s,
    key: 'exportToast.diagramSourceUnplaced',
    params: ([, code, message], translate) => ({
      message: diagramMessage(code ?? '', message ?? '', translate),
    }),
  },
  {
    pattern: /^[A-Z_]+: Function plot \(line (\d+)(?:, column \d+)?\) kept as source: (.*)$/s,
    key: 'export.warning.plotSource',
    params: ([, line, message], translate) => ({
      line: line ?? '',
      message: parserMessage(message ?? '', translate),
    }),
  },
  {
    pattern: /^[A-Z_]+: Function plot kept as source: (.*)$/s,
    key: 'export.warning.plotSourceUnplaced',
    params: ([, message], translate) => ({ message: parserMessage(message ?? '', translate) }),
  },
];

/** `warning` in the user's language through `translate` (i18n's `t`), or as it is. */
export function translateWarning(warning: string, translate: Translate): string {
  for (const { pattern, key, params } of PATTERNS) {
    const match = pattern.exec(warning);
    if (match) return translate(key, params(match, translate));
  }
  return translatePlotWarning(warning, translate) ?? warning;
}

/** How many warnings the toast spells out; the rest are behind "Show all". */
export const WARNINGS_IN_TOAST = 3;

/**
 * The toast's message for an export that finished with `warnings`: every one of
 * them in the user's language when there are few, else the first few and how
 * many more. `all` is the whole translated list, for the "Show all" panel.
 */
export function summarizeWarnings(
  file: string,
  warnings: readonly string[],
  translate: (key: MessageKey, params: MessageParams) => string,
): { message: string; all: string[] } {
  const all = warnings.map((warning) => translateWarning(warning, translate));
  const separator = translate('export.warningsJoin', {});
  const afterSentence = translate('export.warningsJoinSentences', {});
  // A warning that ends its sentence ("…？") takes no "；" after it: the next one just follows.
  let list = '';
  for (const [index, warning] of all.slice(0, WARNINGS_IN_TOAST).entries()) {
    if (index > 0) list += endsSentence(list) ? afterSentence : separator;
    list += warning;
  }
  if (all.length > WARNINGS_IN_TOAST) {
    const key = endsSentence(list) ? 'export.warningsMoreAfterSentence' : 'export.warningsMore';
    list = translate(key, { list, more: all.length - WARNINGS_IN_TOAST });
  }
  return { message: translate('export.warningsList', { file, count: all.length, list }), all };
}

function endsSentence(text: string): boolean {
  return /[.。?？!！]$/u.test(text);
}
