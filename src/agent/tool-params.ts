import { z } from 'zod';
import { metonaToolParamsSchema, type MetonaParamField, type MetonaToolParams } from '../ir';

/** A JSON Schema node as `z.toJSONSchema` writes it (draft 2020-12). */
export type JsonSchema = { [keyword: string]: unknown };

/**
 * zod → JSON Schema, input side: a field with a default is optional for the
 * caller (the model), so it is not listed in `required`.
 */
export function toJsonSchema(schema: z.ZodType): JsonSchema {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' });
  return rest;
}

export interface ToolParamsConversion {
  params: MetonaToolParams;
  /**
   * What the IR's `MetonaParamField` cannot hold (integer, bounds, defaults,
   * nested object properties, unions, non-string enums), as `path: keyword`.
   * Each is folded into the field's description so the model still reads it;
   * argument validation always uses the full zod schema.
   */
  folded: string[];
}

type FieldType = MetonaParamField['type'];
const FIELD_TYPES = new Set<string>(['string', 'number', 'boolean', 'object', 'array']);

function asSchema(value: unknown): JsonSchema | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as JsonSchema)
    : undefined;
}

function describeValue(value: unknown): string {
  return JSON.stringify(value) ?? String(value);
}

/** The first alternative of anyOf/oneOf that is not `null`, with the rest named. */
function primaryVariant(schema: JsonSchema): { variant: JsonSchema; alternatives: string[] } {
  const variants = (schema.anyOf ?? schema.oneOf) as unknown[] | undefined;
  if (!Array.isArray(variants)) return { variant: schema, alternatives: [] };
  const schemas = variants.map(asSchema).filter((s): s is JsonSchema => s !== undefined);
  const nonNull = schemas.filter((s) => s.type !== 'null');
  const variant = { ...schema, ...(nonNull[0] ?? {}) };
  delete variant.anyOf;
  delete variant.oneOf;
  const alternatives = nonNull.slice(1).map((s) => String(s.type ?? 'any'));
  if (nonNull.length < schemas.length) alternatives.push('null');
  return { variant, alternatives };
}

function convertField(raw: JsonSchema, path: string, folded: string[]): MetonaParamField {
  const { variant: schema, alternatives } = primaryVariant(raw);
  const notes: string[] = [];
  const fold = (keyword: string, note: string) => {
    folded.push(`${path}: ${keyword}`);
    notes.push(note);
  };
  if (alternatives.length > 0) fold('anyOf', `also accepts ${alternatives.join(' or ')}`);

  let declared = schema.type;
  if (Array.isArray(declared)) {
    const types = declared.filter((t) => t !== 'null');
    if (types.length < declared.length) fold('type', 'may be null');
    if (types.length > 1) fold('type', `one of types ${types.join(', ')}`);
    declared = types[0];
  }
  let type: FieldType;
  if (declared === 'integer') {
    type = 'number';
    fold('type', 'an integer');
  } else if (typeof declared === 'string' && FIELD_TYPES.has(declared)) {
    type = declared as FieldType;
  } else if (Array.isArray(schema.enum) || schema.const !== undefined) {
    type = 'string';
  } else {
    type = 'string';
    fold('type', 'any JSON value');
  }

  const field: MetonaParamField = { type, description: '' };
  const values = Array.isArray(schema.enum) ? schema.enum : schema.const !== undefined ? [schema.const] : [];
  if (values.length > 0) {
    if (values.every((value) => typeof value === 'string')) field.enum = values as string[];
    else fold('enum', `one of ${values.map(describeValue).join(', ')}`);
  }

  const bounds: Array<[string, string]> = [
    ['minimum', '≥'],
    ['exclusiveMinimum', '>'],
    ['maximum', '≤'],
    ['exclusiveMaximum', '<'],
  ];
  for (const [keyword, sign] of bounds) {
    if (typeof schema[keyword] === 'number') fold(keyword, `${sign} ${String(schema[keyword])}`);
  }
  const lengths: Array<[string, string]> = [
    ['minLength', 'at least %s characters'],
    ['maxLength', 'at most %s characters'],
    ['minItems', 'at least %s items'],
    ['maxItems', 'at most %s items'],
  ];
  for (const [keyword, text] of lengths) {
    if (typeof schema[keyword] === 'number') fold(keyword, text.replace('%s', String(schema[keyword])));
  }
  if (typeof schema.pattern === 'string') fold('pattern', `matching /${schema.pattern}/`);
  if (typeof schema.format === 'string') fold('format', `format ${schema.format}`);
  if (schema.default !== undefined) fold('default', `default ${describeValue(schema.default)}`);

  if (type === 'array') {
    const items = asSchema(schema.items);
    field.items = items ? convertField(items, `${path}[]`, folded) : { type: 'string', description: '' };
  }
  if (type === 'object') {
    const properties = asSchema(schema.properties);
    if (properties && Object.keys(properties).length > 0) {
      // MetonaParamField has no `properties`: nested fields survive only as text.
      const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
      const parts = Object.entries(properties).map(([name, sub]) => {
        const inner = convertField(asSchema(sub) ?? {}, `${path}.${name}`, []);
        const detail = [inner.type, required.has(name) ? 'required' : 'optional', inner.description]
          .filter(Boolean)
          .join(', ');
        return `${name} (${detail})`;
      });
      fold('properties', `fields: ${parts.join('; ')}`);
    }
  }

  const description = typeof schema.description === 'string' ? schema.description.trim() : '';
  field.description = [description, ...(notes.length > 0 ? [`(${notes.join('; ')})`] : [])]
    .filter(Boolean)
    .join(' ');
  return field;
}

/**
 * A tool's zod parameters as the IR's `MetonaToolParams`. The top level must be
 * a zod object; fields the IR cannot express exactly are folded into their
 * descriptions and listed in `folded`. The result is checked against the IR
 * schema, so a tool the model cannot call fails at registration.
 */
export function toMetonaToolParams(schema: z.ZodType): ToolParamsConversion {
  const json = toJsonSchema(schema);
  if (json.type !== 'object') {
    throw new Error(`tool parameters must be a zod object, got JSON Schema type ${describeValue(json.type)}`);
  }
  const folded: string[] = [];
  const properties: Record<string, MetonaParamField> = {};
  for (const [name, sub] of Object.entries(asSchema(json.properties) ?? {})) {
    properties[name] = convertField(asSchema(sub) ?? {}, name, folded);
  }
  const required = Array.isArray(json.required) ? (json.required as string[]) : [];
  const params: MetonaToolParams = {
    type: 'object',
    properties,
    ...(required.length > 0 && { required }),
  };
  return { params: metonaToolParamsSchema.parse(params), folded };
}
