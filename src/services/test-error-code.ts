import { expect } from 'vitest';
import { AppError, type ErrorCode } from '../contracts';

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

/** Expects `promise` to reject with an `AppError` of `code` (and a message matching `message`); returns it. */
export async function expectCode(
  promise: Promise<unknown>,
  code: string,
  message?: RegExp,
): Promise<AppError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(AppError);
  expect((error as AppError).code).toBe(code);
  if (message) expect((error as AppError).message).toMatch(message);
  return error as AppError;
}

/** How a promise settles, as a value to compare: its `AppError` code, 'resolved' or 'other'. */
export async function errorCode(promise: Promise<unknown>): Promise<ErrorCode | 'resolved' | 'other'> {
  try {
    await promise;
    return 'resolved';
  } catch (error) {
    return error instanceof AppError ? error.code : 'other';
  }
}
