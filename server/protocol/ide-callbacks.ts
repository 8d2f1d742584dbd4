import { z } from 'zod';
import type { RequestId } from './request-id';
import { documentSymbolSchema, rangeSchema } from './requests';

// Call-backs of §3 (the devchat ide_services subset), carried over the plugin's
// own socket because the plugin may sit behind NAT. The protocol names the
// services and their keys only; the envelope is ours and documented in README.md.

export const IDE_CALLBACK_NAMES = [
  'get_document_symbols',
  'find_def_locations',
  'find_type_def_locations',
] as const;
export type IdeCallbackName = (typeof IDE_CALLBACK_NAMES)[number];

export interface IdeCallbackParams {
  get_document_symbols: { abspath: string };
  find_def_locations: { abspath: string; line: number; character: number };
  find_type_def_locations: { abspath: string; line: number; character: number };
}

/** devchat's Location: where a definition lives. */
export const ideLocationSchema = z.object({ abspath: z.string(), range: rangeSchema });
export type IdeLocation = z.infer<typeof ideLocationSchema>;

export const ideResultSchemas = {
  get_document_symbols: z.array(documentSymbolSchema),
  find_def_locations: z.array(ideLocationSchema),
  find_type_def_locations: z.array(ideLocationSchema),
} as const satisfies Record<IdeCallbackName, z.ZodType>;
export type IdeResult<K extends IdeCallbackName> = z.infer<(typeof ideResultSchemas)[K]>;

/**
 * Agent → plugin. `task_request_id` (not `request_id`) names the task that asks,
 * so a plugin that matches replies by `request_id` never mistakes a call-back
 * for the answer to its own request.
 */
export type IdeCallbackRequest<K extends IdeCallbackName = IdeCallbackName> = {
  callback_id: string;
  task_request_id: RequestId;
  cmd: K;
} & IdeCallbackParams[K];

/** Plugin → agent: `result` on success, `error` when the IDE cannot answer. No `cmd`. */
export const ideCallbackAnswerSchema = z.object({
  callback_id: z.string().min(1).max(200),
  result: z.unknown().optional(),
  error: z.string().optional(),
});
export type IdeCallbackAnswer = z.infer<typeof ideCallbackAnswerSchema>;
