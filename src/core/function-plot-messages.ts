import type { ExpressionErrorCode } from './expression';

/**
 * Every sentence a function-plot block's diagnostics say, by code. The English
 * text is what FunctionPlotDiagnostic.message and the export warnings carry (both
 * are strings by contract); the UI reads a sentence back into its code and params
 * (readPlotMessage) and says it in the user's language. One table serves both
 * ways, so the two cannot drift apart. The sentences name no position: the
 * diagnostic's line and column are the one place for it.
 */
const TEMPLATES = {
  unexpectedCharacter: 'Unexpected character "{character}".',
  unexpectedToken: 'Unexpected "{found}".',
  expectedClosingBracket: 'Expected ")" but found "{found}".',
  missingClosingBracket: 'Expected ")" but found the end of the expression.',
  expectedOpeningBracket: 'Expected "(" after {name} but found "{found}".',
  missingOpeningBracket: 'Expected "(" after {name} but found the end of the expression.',
  expectedOperand: 'Expected a number, a name or "(" but found "{found}".',
  missingOperand: 'Expected a number, a name or "(" but found the end of the expression.',
  nestedTooDeeply: 'The expression is nested too deeply.',
  bracketProduct: 'Write the product after "/" or "%" in brackets, e.g. 1/(2x) or (1/2)x.',
  bracketExponent: 'Write the exponent in brackets, e.g. e^(2x) or (e^2)x.',
  unknownNameGuess: 'Unknown name "{name}"; did you mean {meant}?',
  unknownFunctionGuess: 'Unknown function "{name}"; did you mean {meant}?',
  unknownFunction: 'Unknown function "{name}". Known functions: {functions}.',
  conditionalHint: 'Write a condition with piecewise, e.g. piecewise(x < 0, 0, x), not "?" and ":".',
  closingBrace: 'A curly bracket is not closed.',
  missingOperator: 'Put "*" between "{before}" and "{found}".',
  // Before unknownName, whose pattern would also take this one's text.
  unknownNameOrVariable:
    'Unknown name "{name}". Known functions: {functions}; constants: {constants}; variables: {variables}.',
  unknownName: 'Unknown name "{name}". Known functions: {functions}; constants: {constants}.',
  // Before argumentCount, whose {count} would also take "1 to 2".
  argumentRange: '{name}() takes {min} to {max} argument(s), got {got}.',
  argumentCount: '{name}() takes {count} argument(s), got {got}.',
  roundDigits: 'round() takes 0 to 15 whole decimal digits.',
  badVariableName: '"{name}" cannot be a variable name.',
  expressionTooLong: 'The expression is longer than {max} characters.',
  emptyExpression: 'The expression is empty.',
  internal: 'The expression could not be read.',
  plotTooLong: 'The plot is longer than {max} characters.',
  parameterSyntax: 'Write a parameter as "name = number", e.g. "a = 2".',
  parameterUnsafe: '"{name}" cannot be a parameter name.',
  parameterName: '"{name}" is not a parameter name: a letter, then letters, digits or _ (at most 32).',
  parameterReserved: '"{name}" is reserved and cannot be a parameter.',
  parameterTwice: 'Parameter "{name}" is declared twice.',
  parameterValue: 'Parameter "{name}" needs a finite number, not "{value}".',
  tooManyParameters: 'A plot declares at most {max} parameters.',
  interval: '{setting} needs two numbers, low before high: "-5, 5".',
  grid: 'grid is true or false.',
  unknownSettingGuess: 'Unknown setting "{name}" is ignored; did you mean "{meant}"?',
  unknownSetting: 'Unknown setting "{name}" is ignored.',
  unknownOptionGuess: 'Unknown option "{name}" is ignored; did you mean "{meant}"?',
  unknownOption: 'Unknown option "{name}" is ignored; use label: or color:.',
  color: 'Colour "{value}" is ignored: use #rgb, #rrggbb or a colour name.',
  tooManyFunctions: 'A plot draws at most {max} functions.',
  noFunction: 'The plot has no function to draw, such as "y = sin(x)".',
} as const satisfies Record<ExpressionErrorCode, string> & Record<string, string>;

export type PlotMessageCode = keyof typeof TEMPLATES;
export type PlotMessageParams = Readonly<Record<string, string | number>>;

export interface PlotMessage {
  code: PlotMessageCode;
  params: PlotMessageParams;
}

export const PLOT_MESSAGE_CODES = Object.keys(TEMPLATES) as PlotMessageCode[];

/** The English sentence of `code` with `params` filled in. */
export function formatPlotMessage(code: PlotMessageCode, params: PlotMessageParams = {}): string {
  return TEMPLATES[code].replace(/\{(\w+)\}/g, (match, name: string) => {
    const value = params[name];
    return value === undefined ? match : String(value);
  });
}

const PLACEHOLDER = /\{(\w+)\}/g;

// Each template as a pattern capturing its params. Quoted parts are taken as
// they are (lazily), so a name the user typed may itself hold quotes or dots.
const READERS = PLOT_MESSAGE_CODES.map((code) => {
  const template: string = TEMPLATES[code];
  const names = Array.from(template.matchAll(PLACEHOLDER), (match) => match[1] ?? '');
  const pattern = template
    .split(PLACEHOLDER)
    .map((part, index) => (index % 2 === 1 ? '(.*?)' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('');
  return { code, names, pattern: new RegExp(`^${pattern}$`, 's') };
});

/** The code and params of a sentence formatPlotMessage wrote, or undefined for any other text. */
export function readPlotMessage(text: string): PlotMessage | undefined {
  for (const { code, names, pattern } of READERS) {
    const match = pattern.exec(text);
    if (!match) continue;
    const params: Record<string, string> = {};
    names.forEach((name, index) => (params[name] = match[index + 1] ?? ''));
    return { code, params };
  }
  return undefined;
}
