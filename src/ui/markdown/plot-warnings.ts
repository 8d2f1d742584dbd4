import { readPlotMessage, type PlotMessageCode } from '../../core/function-plot-messages';
import type { MessageKey, MessageParams } from '../i18n';

/**
 * A function plot's diagnostics (FunctionPlotDiagnostic.message, §12.3) are the
 * English sentences of core/function-plot-messages, strings in the preview and in
 * the export warnings alike. Each is read back into its code and params, so the
 * preview and the export toast say it in the user's language; the names quoted
 * from the note stay as written, and a message of no known kind is shown as it is.
 */
const KEYS: Record<PlotMessageCode, MessageKey> = {
  unexpectedCharacter: 'plot.message.unexpectedCharacter',
  unexpectedToken: 'plot.message.unexpectedToken',
  expectedClosingBracket: 'plot.message.expectedClosingBracket',
  missingClosingBracket: 'plot.message.missingClosingBracket',
  expectedOpeningBracket: 'plot.message.expectedOpeningBracket',
  missingOpeningBracket: 'plot.message.missingOpeningBracket',
  expectedOperand: 'plot.message.expectedOperand',
  missingOperand: 'plot.message.missingOperand',
  nestedTooDeeply: 'plot.message.nestedTooDeeply',
  bracketProduct: 'plot.message.bracketProduct',
  bracketExponent: 'plot.message.bracketExponent',
  unknownName: 'plot.message.unknownName',
  unknownNameOrVariable: 'plot.message.unknownNameOrVariable',
  unknownNameGuess: 'plotHelp.unknownNameGuess',
  unknownFunctionGuess: 'plotHelp.unknownFunctionGuess',
  unknownFunction: 'plotHelp.unknownFunction',
  conditionalHint: 'plotHelp.conditionalHint',
  closingBrace: 'plotHelp.closingBrace',
  missingOperator: 'plotHelp.missingOperator',
  argumentCount: 'plot.message.argumentCount',
  argumentRange: 'plot.message.argumentRange',
  roundDigits: 'plot.message.roundDigits',
  badVariableName: 'plot.message.badVariableName',
  expressionTooLong: 'plot.message.expressionTooLong',
  emptyExpression: 'plot.message.emptyExpression',
  internal: 'plot.message.internal',
  plotTooLong: 'plot.message.plotTooLong',
  parameterSyntax: 'plot.message.parameterSyntax',
  parameterUnsafe: 'plot.message.parameterUnsafe',
  parameterName: 'plot.message.parameterName',
  parameterReserved: 'plot.message.parameterReserved',
  parameterTwice: 'plot.message.parameterTwice',
  parameterValue: 'plot.message.parameterValue',
  tooManyParameters: 'plot.message.tooManyParameters',
  interval: 'plot.message.interval',
  grid: 'plot.message.grid',
  unknownSettingGuess: 'plot.warning.unknownSettingGuess',
  unknownSetting: 'plot.warning.unknownSetting',
  unknownOptionGuess: 'plot.warning.unknownOptionGuess',
  unknownOption: 'plot.warning.unknownOption',
  color: 'plot.warning.color',
  tooManyFunctions: 'plot.message.tooManyFunctions',
  noFunction: 'plot.message.noFunction',
};

/** A plot message in the user's language through `translate` (i18n's `t`), or undefined for one of no known kind. */
export function translatePlotWarning(
  warning: string,
  translate: (key: MessageKey, params: MessageParams) => string,
): string | undefined {
  const message = readPlotMessage(warning);
  return message ? translate(KEYS[message.code], message.params) : undefined;
}
