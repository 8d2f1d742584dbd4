import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';

export type JsonObject = { [key: string]: unknown };

const REFERENCE_KEYWORDS = new Set(['$ref', '$dynamicRef']);
const MAX_SCHEMA_DEPTH = 64;
const MAX_SCHEMA_NODES = 10_000;
/**
 * Dialects read as Draft 2020-12: many servers (zod-generated schemas among
 * them) still label plain object schemas draft-07, whose keywords 2020-12
 * reads the same way for the shapes tools use.
 */
const KNOWN_DIALECTS = new Set([
  'https://json-schema.org/draft/2020-12/schema',
  'https://json-schema.org/draft/2019-09/schema',
  'http://json-schema.org/draft-07/schema',
]);

export class SchemaProblem extends Error {
  override readonly name = 'SchemaProblem';
  constructor(
    message: string,
    readonly pointer: string,
  ) {
    super(message);
  }
}

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Refuses any reference that leaves the document (files, URLs, other
 * resources): only `#...` fragments are allowed. Also bounds the schema's
 * depth and size so a hostile schema cannot exhaust the compiler.
 */
export function checkInDocumentReferences(schema: unknown): void {
  let nodes = 0;
  const walk = (node: unknown, pointer: string, depth: number): void => {
    if (++nodes > MAX_SCHEMA_NODES) throw new SchemaProblem('the schema is too large', pointer);
    if (depth > MAX_SCHEMA_DEPTH) throw new SchemaProblem('the schema is nested too deeply', pointer);
    if (Array.isArray(node)) {
      node.forEach((item, index) => walk(item, `${pointer}/${index}`, depth + 1));
      return;
    }
    if (!isObject(node)) return;
    for (const [key, value] of Object.entries(node)) {
      const at = `${pointer}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`;
      if (REFERENCE_KEYWORDS.has(key)) {
        if (typeof value !== 'string' || !value.startsWith('#')) {
          throw new SchemaProblem(`${key} must point inside the schema ("#...")`, at);
        }
      }
      walk(value, at, depth + 1);
    }
  };
  walk(schema, '', 0);
}

export interface SchemaIssue {
  path: string;
  message: string;
}

export interface CompiledSchema {
  readonly schema: JsonObject;
  /** Issues of `value` against the schema; empty when it is valid. */
  validate(value: unknown): SchemaIssue[];
}

/**
 * Draft 2020-12 through ajv (a maintained validator). Every schema gets its
 * own instance, so one plugin's `$id`s never collide with another's, and no
 * loader is configured: an unresolvable reference fails compilation.
 */
export function compileSchema(schema: unknown): CompiledSchema {
  if (!isObject(schema)) throw new SchemaProblem('the schema must be a JSON object', '');
  checkInDocumentReferences(schema);
  const { $schema: dialect, ...body } = schema;
  if (
    dialect !== undefined &&
    !(typeof dialect === 'string' && KNOWN_DIALECTS.has(dialect.replace(/#$/, '')))
  ) {
    throw new SchemaProblem('the schema names a dialect this app does not know', '/$schema');
  }
  const ajv = new Ajv2020({ strict: false, allErrors: false, validateFormats: false });
  let validate: ValidateFunction;
  try {
    validate = ajv.compile(body);
  } catch (error) {
    const message = error instanceof Error ? error.message.slice(0, 300) : 'the schema does not compile';
    throw new SchemaProblem(message, '');
  }
  return {
    schema,
    validate(value) {
      if (validate(value)) return [];
      return (validate.errors ?? []).slice(0, 10).map((issue) => ({
        path: issue.instancePath || '/',
        message: issue.message ?? 'is not valid',
      }));
    },
  };
}
