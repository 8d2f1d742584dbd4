import { AppError } from '../contracts';

/**
 * The error code a promise rejects with, for service tests: a rejection that is
 * not an `AppError`, or no rejection at all, fails the test instead.
 */
export async function codeOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof AppError) return error.code;
    throw error;
  }
  throw new Error('expected a rejection');
}
