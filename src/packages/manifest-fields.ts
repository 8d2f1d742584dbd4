/**
 * A package manifest's schema issues (zod's) as fields a person can act on,
 * shared by plugin.yaml and theme.yaml so both refuse a package in the same words.
 */

/** One field of a manifest that failed its schema, as `details.fields` carries it. */
export interface ManifestFieldProblem {
  /** Dotted path in the manifest (`backend.entry`, `permissions.0`). */
  path: string;
  problem: 'required' | 'unknown' | 'one_of' | 'invalid';
  /** The accepted values, for `one_of`. */
  allowed?: string[];
  /** The schema's own wording (English), for API callers and logs; the UI words `problem` itself. */
  message: string;
}

export interface SchemaIssue {
  code: string;
  path: PropertyKey[];
  message: string;
  keys?: string[];
  values?: unknown[];
  options?: unknown[];
}

/**
 * The schema's issues as fields a person can act on: a missing one is
 * "required" (told from the raw value, since the schema only says "expected
 * string, received undefined"), an extra key "unknown", a closed list "one_of".
 */
export function manifestFieldProblems(raw: unknown, issues: readonly SchemaIssue[]): ManifestFieldProblem[] {
  const fields: ManifestFieldProblem[] = [];
  const seen = new Set<string>();
  const add = (field: ManifestFieldProblem) => {
    if (seen.has(field.path) || fields.length >= 10) return;
    seen.add(field.path);
    fields.push(field);
  };
  for (const issue of issues) {
    const path = issue.path.map(String);
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys ?? []) {
        add({ path: [...path, key].join('.'), problem: 'unknown', message: issue.message });
      }
      continue;
    }
    const allowed = issue.values ?? issue.options;
    const problem =
      valueAt(raw, path) === undefined ? 'required' : allowed && allowed.length > 0 ? 'one_of' : 'invalid';
    add({
      path: path.join('.'),
      problem,
      ...(problem === 'one_of' && { allowed: allowed!.map(String) }),
      message: issue.message,
    });
  }
  return fields;
}

function valueAt(raw: unknown, path: readonly string[]): unknown {
  let value = raw;
  for (const key of path) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<string, unknown>)[key];
  }
  return value;
}
