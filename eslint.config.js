import { fileURLToPath } from 'node:url';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import svelte from 'eslint-plugin-svelte';
import importX, { createNodeResolver } from 'eslint-plugin-import-x';
import prettier from 'eslint-config-prettier';
import globals from 'globals';
import svelteConfig from './svelte.config.js';

/**
 * Layer rules from docs/architecture.md: dependencies point down
 * ir <- contracts <- core <- domains <- services <- workers/ui.
 * Each entry forbids a layer from importing the layers above it (and Dexie
 * outside src/db). Type-only imports into the UI are allowed: types vanish at
 * build time, so the shell stays small.
 */
const domains = [
  'db',
  'providers',
  'agent',
  'retrieval',
  'media',
  'export',
  'packages',
  'plugins',
  'themes',
  'benchmarks',
  'models',
];
const layer = (names) => names.map((name) => `**/${name}/**`).concat(names.map((name) => `**/${name}`));
const dexieBan = { name: 'dexie', message: 'Only src/db/ touches IndexedDB (docs/architecture.md).' };

function restrict(patterns, { allowTypeImports = false, dexie = true } = {}) {
  return {
    '@typescript-eslint/no-restricted-imports': [
      'error',
      {
        paths: dexie ? [dexieBan] : [],
        patterns: patterns.length
          ? [
              {
                group: patterns,
                message: 'This import crosses a layer boundary (docs/architecture.md).',
                allowTypeImports,
              },
            ]
          : [],
      },
    ],
  };
}

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', 'test-results/', 'playwright-report/', 'coverage/', 'dev-dist/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  ...svelte.configs.recommended,
  prettier,
  ...svelte.configs.prettier,
  {
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-console': ['error', { allow: ['warn', 'error'] }],
      eqeqeq: ['error', 'smart'],
    },
  },
  {
    files: ['**/*.svelte', '**/*.svelte.ts'],
    languageOptions: {
      parserOptions: { parser: tseslint.parser, svelteConfig, extraFileExtensions: ['.svelte'] },
    },
  },
  { files: ['src/**/*.{ts,svelte}'], rules: restrict([]) },
  {
    files: ['src/ir/**/*.ts'],
    rules: restrict(layer(['contracts', 'core', 'services', 'workers', 'ui', ...domains])),
  },
  {
    files: ['src/contracts/**/*.ts'],
    rules: restrict(layer(['ir', 'core', 'services', 'workers', 'ui', ...domains])),
  },
  { files: ['src/core/**/*.ts'], rules: restrict(layer(['services', 'workers', 'ui', ...domains])) },
  {
    files: domains.filter((d) => d !== 'db').map((d) => `src/${d}/**/*.ts`),
    rules: restrict(layer(['services', 'workers', 'ui'])),
  },
  { files: ['src/db/**/*.ts'], rules: restrict(layer(['services', 'workers', 'ui']), { dexie: false }) },
  { files: ['src/services/**/*.ts'], rules: restrict(layer(['workers', 'ui'])) },
  {
    files: ['src/ui/**/*.{ts,svelte}'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: [
            dexieBan,
            { name: 'zod', message: 'zod runs in the worker; keep it out of the page bundle.' },
          ],
          patterns: [
            {
              group: layer(domains),
              message: 'This import crosses a layer boundary (docs/architecture.md).',
              allowTypeImports: true,
            },
            {
              // DTO types come from contracts/; of services/ the page sees only the typed API.
              regex: '(^|/)services(/(?!core-api$).*)?$',
              message:
                'Import DTO types from contracts/; of services/ only `import type { CoreApi }` from core-api.',
            },
            {
              regex: '(^|/)services/core-api$',
              message: 'The UI reaches services only through the typed API: `import type { CoreApi }`.',
              allowTypeImports: true,
            },
            {
              // The contracts index and schema modules pull zod into the page bundle.
              regex: '/contracts(/index|/validation|/[a-z-]+-schemas)?$',
              message: 'Import the zod-free contract module (contracts/errors, contracts/jobs, ...) instead.',
              allowTypeImports: true,
            },
          ],
        },
      ],
    },
  },
  {
    // No import cycles in src/ or server/, .svelte components included (type-only imports vanish
    // at build time and do not count). Proved by src/architecture.test.ts.
    files: ['src/**/*.{ts,svelte}', 'server/**/*.ts'],
    plugins: { 'import-x': importX },
    // The rule parses each imported file with the importing file's options: a .ts file that
    // imports a component must still read its <script lang="ts">.
    languageOptions: { parserOptions: { parser: tseslint.parser } },
    settings: {
      'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.svelte', '.js', '.json'] })],
      'import-x/extensions': ['.ts', '.svelte', '.js'],
      'import-x/parsers': {
        '@typescript-eslint/parser': ['.ts'],
        [fileURLToPath(new URL('./scripts/eslint-svelte-imports-parser.mjs', import.meta.url))]: ['.svelte'],
      },
    },
    rules: { 'import-x/no-cycle': ['error', { ignoreExternal: true }] },
  },
  { files: ['scripts/**/*.mjs', 'bench/**/*.ts', 'e2e/**/*.ts'], rules: { 'no-console': 'off' } },
  {
    files: ['src/**/*.test.ts', 'bench/**/*.ts'],
    rules: { '@typescript-eslint/no-restricted-imports': 'off' },
  },
);
