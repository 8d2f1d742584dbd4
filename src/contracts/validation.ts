import { z } from 'zod';
import { ERROR_CODES, type ErrorCode } from './error-codes';
import { AppError } from './errors';
import { isoUtcPattern } from './time';

// Schemas live apart from the error class so the page can use AppError without
// loading zod; validation happens in the worker.
export const errorEnvelopeSchema = z.object({
  error: z.object({
    code: z.enum(ERROR_CODES as [ErrorCode, ...ErrorCode[]]),
    message: z.string().min(1),
    details: z.record(z.string(), z.unknown()).default({}),
  }),
});

/** zod issues as safe details: field paths and messages, never the input values. */
export function validationError(error: z.ZodError, message = 'The request is not valid.'): AppError {
  const fields = error.issues.map((issue) => ({
    path: issue.path.map(String).join('.'),
    message: issue.message,
  }));
  return new AppError('VALIDATION_FAILED', message, { fields });
}

/** Parse input against a schema; failure is a VALIDATION_FAILED AppError. */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown, message?: string): z.output<S> {
  const result = schema.safeParse(input);
  if (!result.success) throw validationError(result.error, message);
  return result.data;
}

export const eventEnvelopeSchema = z
  .object({
    id: z.number().int().nonnegative(),
    sequence: z.number().int().nonnegative(),
    event: z.string().min(1),
    resource_id: z.string().min(1),
    data: z.unknown(),
    timestamp: z.string().regex(isoUtcPattern),
  })
  .refine((envelope) => envelope.id === envelope.sequence, {
    message: 'id must equal sequence',
    path: ['id'],
  });
