import { ExpressionError, evaluateExpression as evaluateShared } from '../../core/expression';

/**
 * `math.evaluate` speaks the app's one arithmetic language (core/expression), the
 * same whitelist grammar function plots use. This module keeps the tool's own
 * error class so callers can tell a bad expression from a failing tool.
 */

export { MAX_EXPRESSION_LENGTH } from '../../core/expression';

export class MathExpressionError extends Error {
  override readonly name = 'MathExpressionError';
  /** 0-based character offset of the problem in the expression. */
  readonly position: number;

  constructor(message: string, position: number) {
    super(message);
    this.position = position;
  }
}

/** Evaluates an arithmetic expression; throws MathExpressionError on anything else. */
export function evaluateExpression(expression: string): number {
  try {
    return evaluateShared(expression);
  } catch (error) {
    if (error instanceof ExpressionError) throw new MathExpressionError(error.message, error.position);
    throw error;
  }
}
