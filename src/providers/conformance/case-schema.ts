import { readFileSync, readdirSync } from 'node:fs';
import { z } from 'zod';
import { ERROR_CODES, type ErrorCode } from '../../contracts';
import {
  metonaErrorCodeSchema,
  metonaFinishReasonSchema,
  metonaRequestSchema,
  metonaStreamEventTypeSchema,
  type MetonaRequest,
} from '../../ir';

/** Capabilities a case can require and a target can have (contract §8.1 names where they exist). */
export const capabilitySchema = z.enum(['chat', 'streaming', 'tool_calling', 'reasoning', 'vision']);
export type Capability = z.infer<typeof capabilitySchema>;

/**
 * One behaviour, in the contract's §8.3 form (`id`, `capabilities`,
 * `request_fixture`, `assertions`), plus the recorded `scenario` each adapter
 * replays (`<provider>-<scenario>.chunks.txt`, or the mock's scenario file).
 */
export const conformanceCaseSchema = z.object({
  id: z.string().min(1),
  description: z.string().optional(),
  capabilities: z.array(capabilitySchema).min(1),
  request_fixture: z.string().min(1),
  scenario: z.string().min(1),
  /** Abort the call when the first IR event of this type arrives. */
  abort_after_event: metonaStreamEventTypeSchema.optional(),
  assertions: z.object({
    terminal_event: z.literal('Done'),
    status: z.enum(['completed', 'failed', 'cancelled']).optional(),
    tool_calls: z.number().int().nonnegative(),
    tool_call_args: z
      .array(z.object({ name: z.string(), arguments: z.record(z.string(), z.unknown()) }))
      .optional(),
    /** Calls whose arguments were not a JSON object: their name and the text the model sent. */
    tool_call_argument_errors: z.array(z.object({ name: z.string(), text: z.string() })).optional(),
    usage_required: z.boolean(),
    usage: z
      .object({ input_tokens: z.number(), output_tokens: z.number(), total_tokens: z.number() })
      .partial()
      .optional(),
    error_code: z.enum(ERROR_CODES as [ErrorCode, ...ErrorCode[]]).optional(),
    metona_error_code: metonaErrorCodeSchema.optional(),
    retryable: z.boolean().optional(),
    retry_after_ms: z.number().optional(),
    text: z.string().optional(),
    reasoning: z.string().optional(),
    finish_reason: metonaFinishReasonSchema.optional(),
    connection_closed: z.boolean().optional(),
  }),
});
export type ConformanceCase = z.infer<typeof conformanceCaseSchema>;

const casesDir = new URL('./cases/', import.meta.url);
const requestsDir = new URL('./__fixtures__/requests/', import.meta.url);

export function loadCases(): ConformanceCase[] {
  return readdirSync(casesDir)
    .filter((name) => name.endsWith('.json'))
    .sort()
    .map((name) => conformanceCaseSchema.parse(JSON.parse(readFileSync(new URL(name, casesDir), 'utf8'))));
}

export function loadRequestFixture(name: string): MetonaRequest {
  return metonaRequestSchema.parse(JSON.parse(readFileSync(new URL(`${name}.json`, requestsDir), 'utf8')));
}
