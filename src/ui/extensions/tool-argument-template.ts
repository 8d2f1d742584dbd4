/**
 * The arguments a plugin tool's "Try" box starts with: its JSON Schema's
 * required properties, each with a value of its type, so a person sees the
 * argument names and only has to fill them in. Optional properties are left
 * out (the tool runs without them); a schema without required properties gives `{}`.
 */
export function toolArgumentTemplate(schema: Readonly<Record<string, unknown>>): string {
  const properties = isRecord(schema.properties) ? schema.properties : {};
  const required = Array.isArray(schema.required)
    ? schema.required.filter((name): name is string => typeof name === 'string')
    : [];
  const template: Record<string, unknown> = {};
  for (const name of required) {
    const property = properties[name];
    template[name] = placeholderOf(isRecord(property) ? property : {});
  }
  return JSON.stringify(template);
}

/** A value the property accepts: its default, its first example or enum value, else an empty one of its type. */
export function placeholderOf(property: Readonly<Record<string, unknown>>): unknown {
  if (property.default !== undefined) return property.default;
  if (Array.isArray(property.examples) && property.examples.length > 0) return property.examples[0];
  if (Array.isArray(property.enum) && property.enum.length > 0) return property.enum[0];
  if (property.const !== undefined) return property.const;
  const type = Array.isArray(property.type) ? property.type.find((entry) => entry !== 'null') : property.type;
  switch (type) {
    case 'number':
    case 'integer':
      return typeof property.minimum === 'number' ? property.minimum : 0;
    case 'boolean':
      return false;
    case 'array':
      return [];
    case 'object':
      return JSON.parse(toolArgumentTemplate(property)) as unknown;
    case 'null':
      return null;
    default:
      return '';
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
