import { z } from 'zod';

// Shared field rules, kept internal: the standard's names are the public surface.

/** IDs and names are keys elsewhere (tool_call_id, storage); an empty one is always a bug. */
export const idSchema = z.string().min(1);

/** Unix milliseconds. Not forced to integers: `performance.timeOrigin + performance.now()` is fractional. */
export const timestampSchema = z.number().nonnegative();

export const durationMsSchema = z.number().nonnegative();

export const countSchema = z.number().int().nonnegative();

/** ReAct rounds count from 1 (standard: "从 1 开始"), wherever an iteration appears. */
export const iterationSchema = z.number().int().min(1);
