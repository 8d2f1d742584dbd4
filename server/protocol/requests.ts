import { z } from 'zod';
import { MAX_REQUEST_ID_LENGTH, type RequestId } from './request-id';

// Request shapes of the agent service protocol's §2 (server/README.md), field names as the protocol
// spells them (snake_case, `filepath` in one command and `file_path` in another).
// Unknown fields are stripped, not refused: plugins send extras such as `task_id`.

/**
 * request_id as JSON.parse reads it: the protocol shows numbers ("随机生成"), strings
 * are accepted too. parseFrame then swaps in the number's source text where a
 * JavaScript number would change it (see request-id.ts).
 */
export const requestIdSchema = z.union([z.number().finite(), z.string().min(1).max(MAX_REQUEST_ID_LENGTH)]);

export const positionSchema = z.object({
  line: z.number().int().nonnegative(),
  character: z.number().int().nonnegative(),
});
export const rangeSchema = z.object({ start: positionSchema, end: positionSchema });
export type TextRange = z.infer<typeof rangeSchema>;

/** `text_context` of §2.3: a file path, a range in it and the text of that range. */
export const textContextSchema = z.object({
  filepath: z.string().max(4096).default(''),
  range: rangeSchema.optional(),
  text: z.string(),
});
export type TextContext = z.infer<typeof textContextSchema>;

/** §2.5/§2.6 show `selected_text` as a bare string ("") where §2.3 has a text_context. */
const selectedTextSchema = z.union([
  textContextSchema,
  z.string().transform((text): TextContext => ({ filepath: '', text })),
]);

export interface DocumentSymbol {
  name: string;
  kind: string | number;
  range?: TextRange;
  children?: DocumentSymbol[];
}
/** The symbol tree of §2.7 `func_symbols`, also what `get_document_symbols` answers. */
export const documentSymbolSchema: z.ZodType<DocumentSymbol> = z.object({
  name: z.string(),
  kind: z.union([z.string(), z.number()]),
  range: rangeSchema.optional(),
  get children() {
    return z.array(documentSymbolSchema).optional();
  },
});

export const languageSchema = z.enum(['en', 'zh']).default('en');
export type ReplyLanguage = z.infer<typeof languageSchema>;
const modelSchema = z.string().trim().min(1).max(200);
const streamSchema = z.boolean().default(false);

const notBlank = (text: string) => text.trim() !== '';

const base = { request_id: requestIdSchema };
const exec = { ...base, language: languageSchema, model: modelSchema, stream: streamSchema };

export const commandSchemas = {
  list_model: z.object({ ...base, cmd: z.literal('list_model') }),
  exec_explain: z.object({
    ...exec,
    cmd: z.literal('exec_explain'),
    selected_text: selectedTextSchema,
    visible_text: selectedTextSchema,
  }),
  exec_docstring: z.object({ ...exec, cmd: z.literal('exec_docstring'), selected_text: selectedTextSchema }),
  exec_optimize: z.object({ ...exec, cmd: z.literal('exec_optimize'), selected_text: selectedTextSchema }),
  exec_fix: z.object({ ...exec, cmd: z.literal('exec_fix'), selected_text: selectedTextSchema }),
  exec_unittest_recommend: z.object({
    ...exec,
    cmd: z.literal('exec_unittest_recommend'),
    user_prompt: z.string().default(''),
    file_content: z.string(),
    filepath: z.string().min(1).max(4096),
    func_name: z.string().min(1).max(500),
    func_location: rangeSchema,
    func_symbols: z.array(documentSymbolSchema),
  }),
  exec_unittest_code: z
    .object({
      ...exec,
      cmd: z.literal('exec_unittest_code'),
      // §2.7 lists no `model` here; the server's default model is used when it is absent.
      model: modelSchema.optional(),
      // "" as in §2.7's example: the model then picks the cases for the function given.
      test_cases_str: z.string(),
      function_name: z.string().max(500).default(''),
      user_prompt: z.string().default(''),
      file_path: z.string().max(4096).default(''),
      relevant_content: z.string().default(''),
      reference_content: z.string().default(''),
    })
    .refine(
      (command) => [command.test_cases_str, command.function_name, command.relevant_content].some(notBlank),
      {
        path: ['test_cases_str'],
        message: 'empty, and neither function_name nor relevant_content says what to test',
      },
    ),
  exec_chat: z.object({
    ...exec,
    cmd: z.literal('exec_chat'),
    // Required and, unlike the other text fields, never empty: it is all the model is asked.
    msg: z.string().refine(notBlank, 'empty: there is nothing to ask the model'),
  }),
} as const;

export type CommandName = keyof typeof commandSchemas;
export const COMMAND_NAMES = Object.keys(commandSchemas) as CommandName[];
/** Commands carry the request_id as it is echoed (a number kept as sent, see request-id.ts). */
export type AgentCommand = {
  [K in CommandName]: Omit<z.infer<(typeof commandSchemas)[K]>, 'request_id'> & { request_id: RequestId };
}[CommandName];
export type CommandOf<K extends CommandName> = Extract<AgentCommand, { cmd: K }>;
/** Every `exec_*` command calls a model and runs as a task in the pool (§1.3). */
export type ExecCommand = Exclude<AgentCommand, { cmd: 'list_model' }>;

export function isCommandName(value: string): value is CommandName {
  return Object.hasOwn(commandSchemas, value);
}

export function isExecCommand(command: AgentCommand): command is ExecCommand {
  return command.cmd !== 'list_model';
}
