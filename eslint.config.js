import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import jsxA11y from 'eslint-plugin-jsx-a11y';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import importX from 'eslint-plugin-import-x';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';

/**
 * The API's modules, lowest first: a module may import only those before it, and only through their
 * index.ts (docs/architecture.md, "Modules").
 */
const MODULES = [
  'shared',
  'signing',
  'auth',
  'cases',
  'appointments',
  'selfcert',
  'applications',
  'console',
  'verify',
];
const anyOf = (names) => names.join('|');
const moduleRules = MODULES.map((name, i) => {
  const others = MODULES.filter((m) => m !== name);
  const later = MODULES.slice(i + 1);
  const patterns = [
    {
      regex: `^(\\.\\./){1,3}(${anyOf(others)})/.+`,
      message: 'Import another module through its index.ts (docs/architecture.md, "Modules").',
    },
    {
      regex: '^(\\.\\./)+(routes|app|server)$',
      message: 'Modules do not import the composition (api/routes.ts, app.ts).',
    },
  ];
  if (later.length)
    patterns.push({
      regex: `^(\\.\\./){1,3}(${anyOf(later)})(/|$)`,
      message: `The ${name} module comes before ${later.join(', ')}: it may not import them (docs/architecture.md, "Modules").`,
    });
  return {
    files: [`api/modules/${name}/**/*.ts`],
    rules: { 'no-restricted-imports': ['error', { patterns }] },
  };
});

export default tseslint.config(
  {
    ignores: [
      'dist/**',
      'dist-ssr/**',
      '.cache/**',
      'node_modules/**',
      '.data/**',
      '.scratch/**',
      'drizzle/migrations/**',
      'test-results/**',
      'playwright-report/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: {
        projectService: {
          allowDefaultProject: ['*.js', 'api/modules/shared/uploads/*.worker.mjs', 'scripts/*.mjs'],
        },
        tsconfigRootDir: import.meta.dirname,
      },
      globals: { ...globals.browser, ...globals.node },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    files: ['ui/**/*.tsx'],
    ...jsxA11y.flatConfigs.recommended,
  },
  {
    files: ['ui/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: { ...reactHooks.configs.recommended.rules },
  },
  {
    files: ['**/*.{ts,tsx}'],
    plugins: { 'import-x': importX },
    settings: {
      ...importX.flatConfigs.typescript.settings,
      'import-x/resolver': undefined,
      'import-x/resolver-next': [createTypeScriptImportResolver({ project: './tsconfig.json' })],
    },
    // A circle of imports fails lint; type-only imports leave no trace at run time (docs/architecture.md).
    rules: {
      'import-x/no-cycle': ['error', { ignoreExternal: true, allowUnsafeDynamicCyclicDependency: false }],
    },
  },
  ...moduleRules,
  {
    files: ['api/http/**/*.ts', 'api/adapters/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { regex: '^(\\.\\./)+modules(/|$)', message: 'api/http and api/adapters import no module.' },
          ],
        },
      ],
    },
  },
  {
    files: ['machines/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^(\\.\\./)+(api|ui|drizzle|tests|scripts)(/|$)',
              message: 'machines/ imports nothing of ours.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['drizzle/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^(\\.\\./)+(api|ui|tests|scripts)(/|$)',
              message: 'drizzle/ imports nothing above it.',
            },
            {
              regex: '^(\\.\\./)+machines(/|$)',
              allowTypeImports: true,
              message: 'drizzle/ takes only types from machines/.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['eslint.config.js'],
    ...tseslint.configs.disableTypeChecked,
  },
);
