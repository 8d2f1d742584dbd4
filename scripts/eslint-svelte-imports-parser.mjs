// eslint-plugin-import-x reads a module's imports from the top level of its AST; in a
// svelte-eslint-parser AST they sit inside <script> elements. This parser lifts the script
// statements to the top so import-x/no-cycle follows imports through components too.
import { parseForESLint as parseSvelte } from 'svelte-eslint-parser';

export function parseForESLint(code, options) {
  const result = parseSvelte(code, options);
  const body = result.ast.body.flatMap((node) => (node.type === 'SvelteScriptElement' ? node.body : []));
  return { ...result, ast: { ...result.ast, body } };
}

export const meta = { name: 'svelte-imports-parser' };
