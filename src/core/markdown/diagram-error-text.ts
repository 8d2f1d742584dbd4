import { readPlotMessage, type PlotMessageCode } from '../function-plot-messages';

/** The languages an exported document is written in. */
export type DocumentLanguage = 'en' | 'zh-CN';

/** What a Mermaid error message says, read for a person: where, and whether the text just stopped short. */
export interface MermaidErrorSummary {
  /** Mermaid's parser refused the text (as opposed to a renderer or loading failure). */
  syntax: boolean;
  /** The line of the block (1-based) when the parser gave one. */
  line?: number;
  /** The parser reached the end of the block still expecting more (an arrow with no target). */
  endsEarly: boolean;
  /**
   * The parser met a bracket or quote while still inside a node's label (`A[x(t)]`,
   * `A[a[1]]`, `A[say "hi"]`): the label needs double quotes around it.
   */
  labelNeedsQuotes?: boolean;
  /** Mermaid's own words, for those who want them (the token list, without the line). */
  detail: string;
}

// The one-line form mermaid-blocks writes for every parse failure: "Parse error on line 2: Expecting …".
const PARSE_ERROR = /^(?:Parse|Lexical) error on line (\d+)[:.]?\s*([\s\S]*)$/;

/** Reads the message of a failed diagram (the preview's and the export's: the same text). */
export function readMermaidError(message: string): MermaidErrorSummary {
  const text = message.trim();
  const parse = PARSE_ERROR.exec(text);
  if (!parse) return { syntax: false, endsEarly: false, detail: text };
  const detail = (parse[2] ?? '').trim();
  const line = Number(parse[1]);
  return {
    syntax: true,
    ...(line > 0 && { line }),
    endsEarly: /\bgot 'EOF'/.test(detail),
    // Mermaid (flowchart) expects a shape's closing bracket (SQE, PE, DIAMOND_STOP…) and got something else.
    ...(/\bExpecting\b[\s\S]*'SQE'[\s\S]*'DIAMOND_STOP'[\s\S]*\bgot '(?!EOF')/.test(detail) && {
      labelNeedsQuotes: true,
    }),
    detail,
  };
}

/** A message to show: a sentence in the document's language, and the tool's own words as detail. */
export interface DiagramErrorText {
  summary: string;
  /** Empty when the summary already says everything. */
  detail: string;
}

interface Phrases {
  syntaxAt: (line: number) => string;
  syntax: string;
  endsEarlyAt: (line: number) => string;
  failed: string;
  unsafe: string;
  plotFailed: string;
  plotFailedBare: string;
  details: string;
  labelHint: string;
}

/**
 * The sentences an exported document carries. The export runs in the core, away from the UI's
 * catalogs: these say the same as the preview's (preview.diagramSyntax*, plot.failed), which a
 * test keeps in step.
 */
const PHRASES: Readonly<Record<DocumentLanguage, Phrases>> = {
  en: {
    syntaxAt: (line) => `This diagram has a syntax error on line ${line}.`,
    syntax: 'This diagram has a syntax error.',
    endsEarlyAt: (line) =>
      `This diagram has a syntax error on line ${line}: it ends where more was expected.`,
    failed: 'Diagram could not be rendered.',
    unsafe: 'The diagram was removed by the sanitizer.',
    plotFailed: 'Plot could not be drawn:',
    plotFailedBare: 'Plot could not be drawn.',
    details: 'Details',
    labelHint:
      'A node label with ( ), [ ], { } or quotes needs double quotes around it: A["x(t)"]; inside them write a quote as #quot;.',
  },
  'zh-CN': {
    syntaxAt: (line) => `此图表第 ${line} 行有语法错误。`,
    syntax: '此图表有语法错误。',
    endsEarlyAt: (line) => `此图表第 ${line} 行有语法错误：内容不完整，后面还应有内容。`,
    failed: '图表无法渲染。',
    unsafe: '图表含有不安全的内容，已被清理器移除。',
    plotFailed: '函数图像无法绘制：',
    plotFailedBare: '函数图像无法绘制。',
    details: '详细信息',
    labelHint: '节点文字含有 ( )、[ ]、{ } 或引号时，请用双引号括起来：A["x(t)"]；其中的引号写作 #quot;。',
  },
};

/**
 * The Chinese sentences of core/function-plot-messages, by code (the UI catalog's
 * plot.message.* entries; a test checks they are the same).
 */
export const PLOT_MESSAGES_ZH: Readonly<Partial<Record<PlotMessageCode, string>>> = {
  unexpectedCharacter: '公式中不能使用字符“{character}”。',
  unexpectedToken: '此处不应出现“{found}”。',
  expectedClosingBracket: '“{found}”之前缺少“)”。',
  missingClosingBracket: '末尾缺少“)”。',
  expectedOpeningBracket: '{name} 后面应为“(”，而不是“{found}”。',
  missingOpeningBracket: '{name} 后面缺少“(”。',
  expectedOperand: '“{found}”之前缺少数字、名称或“(”。',
  missingOperand: '公式在此结束，但后面还应有数字、名称或“(”。',
  nestedTooDeeply: '公式嵌套层数过多。',
  bracketProduct: '“/”或“%”后面的乘积请加括号，例如 1/(2x) 或 (1/2)x。',
  bracketExponent: '指数请加括号，例如 e^(2x) 或 (e^2)x。',
  unknownName: '未知名称“{name}”。可用函数：{functions}；常量：{constants}。',
  unknownNameOrVariable: '未知名称“{name}”。可用函数：{functions}；常量：{constants}；变量：{variables}。',
  argumentCount: '{name}() 需要 {count} 个参数，实际为 {got} 个。',
  argumentRange: '{name}() 需要 {min} 到 {max} 个参数，实际为 {got} 个。',
  roundDigits: 'round() 的小数位数应为 0 到 15 的整数。',
  badVariableName: '“{name}”不能用作变量名。',
  expressionTooLong: '公式超过 {max} 个字符。',
  emptyExpression: '公式为空。',
  internal: '无法读取该公式。',
  plotTooLong: '函数图像超过 {max} 个字符。',
  parameterSyntax: '参数请写成“名称 = 数字”，例如“a = 2”。',
  parameterUnsafe: '“{name}”不能用作参数名。',
  parameterName: '“{name}”不是合法的参数名：以字母开头，后接字母、数字或 _（最多 32 个）。',
  parameterReserved: '“{name}”是保留名称，不能用作参数。',
  parameterTwice: '参数“{name}”声明了两次。',
  parameterValue: '参数“{name}”需要一个有限的数字，而不是“{value}”。',
  tooManyParameters: '一个函数图像最多声明 {max} 个参数。',
  interval: '{setting} 需要两个数字，小的在前，例如“-5, 5”。',
  grid: 'grid 只能是 true 或 false。',
  tooManyFunctions: '一个函数图像最多绘制 {max} 个函数。',
  noFunction: '图像中没有要绘制的函数，例如“y = sin(x)”。',
  unknownNameGuess: '未知名称“{name}”；是否想写 {meant}？',
  unknownFunctionGuess: '未知函数“{name}”；是否想写 {meant}？',
  unknownFunction: '未知函数“{name}”。可用函数：{functions}。',
  conditionalHint: '条件请用 piecewise 书写，例如 piecewise(x < 0, 0, x)，不能用“?”和“:”。',
  closingBrace: '花括号没有闭合。',
  missingOperator: '请在“{before}”和“{found}”之间加“*”。',
};

function fill(template: string, params: Readonly<Record<string, string | number>>): string {
  return template.replace(/\{(\w+)\}/g, (match, name: string) => {
    const value = params[name];
    return value === undefined ? match : String(value);
  });
}

/** The summary of a Mermaid failure in `language`: the line when the parser gave one. */
export function mermaidErrorSummary(summary: MermaidErrorSummary, language: DocumentLanguage): string {
  const phrases = PHRASES[language];
  if (!summary.syntax) return phrases.failed;
  const said =
    summary.line === undefined
      ? phrases.syntax
      : summary.endsEarly
        ? phrases.endsEarlyAt(summary.line)
        : phrases.syntaxAt(summary.line);
  if (!summary.labelNeedsQuotes) return said;
  return language === 'en' ? `${said} ${phrases.labelHint}` : `${said}${phrases.labelHint}`;
}

/** How to write a node label that holds brackets or quotes, in `language`. */
export function mermaidLabelHint(language: DocumentLanguage): string {
  return PHRASES[language].labelHint;
}

/** The word for the expandable part holding the tool's own message. */
export function detailsLabel(language: DocumentLanguage): string {
  return PHRASES[language].details;
}

/**
 * A failed diagram or plot of an exported document, in the document's language. The
 * parser's words stay available as detail; a plot's message is one of ours and is translated.
 */
export function visualErrorText(
  kind: 'mermaid' | 'function_plot',
  code: string,
  message: string,
  language: DocumentLanguage,
): DiagramErrorText {
  const phrases = PHRASES[language];
  if (kind === 'mermaid') {
    if (code === 'MERMAID_SVG_UNSAFE') return { summary: phrases.unsafe, detail: '' };
    const summary = readMermaidError(message);
    return { summary: mermaidErrorSummary(summary, language), detail: summary.detail };
  }
  const said = message.trim();
  if (language === 'en') return { summary: `${phrases.plotFailed} ${said}`, detail: '' };
  const plot = readPlotMessage(said);
  const template = plot && PLOT_MESSAGES_ZH[plot.code];
  if (plot && template) return { summary: `${phrases.plotFailed}${fill(template, plot.params)}`, detail: '' };
  return { summary: phrases.plotFailedBare, detail: said };
}

/** The language an exported document is in: Chinese as soon as its text has Chinese characters. */
export function documentLanguage(text: string): DocumentLanguage {
  return /[\u4e00-\u9fff]/.test(text) ? 'zh-CN' : 'en';
}
