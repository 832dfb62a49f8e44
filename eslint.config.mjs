import js from '@eslint/js';
import tseslint from 'typescript-eslint';

/** The SDK's internal modules change without notice: memo payloads decode in infrastructure/temporal/sealed-memos.ts. */
const SDK_INTERNALS = {
  group: ['@temporalio/*/lib/internal-*'],
  message:
    "Use the SDK's public interfaces; case memos are read through infrastructure/temporal/sealed-memos.ts.",
};

export default tseslint.config(
  {
    ignores: [
      'dist/**',
      'node_modules/**',
      'data/**',
      'coverage/**',
      '.venv-ci/**',
      'schemathesis-report/**',
      '.schemathesis/**',
      // Generated (.gitattributes lists them); their staleness tests keep them true to their sources.
      'clients/typescript/src/api.ts',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { arguments: false } }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', ignoreRestSiblings: true }],
      '@typescript-eslint/no-restricted-imports': ['error', { patterns: [SDK_INTERNALS] }],
    },
  },
  {
    // Workflow code is replayed and must be deterministic: no I/O, no clocks, no randomness of its own.
    files: ['workflows/**/*.ts', 'test/fixtures/workflows/**/*.ts', 'test/fixtures/workflows-*/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            SDK_INTERNALS,
            {
              group: ['node:*', 'fs', 'path', 'crypto', 'http', 'https', 'net', 'os', 'child_process'],
              message: 'Workflows must not do I/O; use an activity.',
            },
            {
              group: ['@nestjs/*', 'pg', '@electric-sql/*', 'pino', 'jsonwebtoken', 'express'],
              message: 'Workflows must not import frameworks or I/O clients.',
            },
            {
              group: ['@temporalio/client', '@temporalio/worker', '@temporalio/activity'],
              message: 'Workflows may import only @temporalio/workflow and @temporalio/common.',
            },
            {
              group: ['**/activities', '**/activities/*'],
              allowTypeImports: true,
              message: 'Workflows import activities by type only: import type { … }.',
            },
            {
              group: ['**/src/**', '**/infrastructure/**'],
              message: 'Workflows see only the domain (domain/) and their own messages.',
            },
          ],
        },
      ],
      'no-restricted-globals': [
        'error',
        { name: 'setTimeout', message: 'Use sleep() from @temporalio/workflow.' },
        { name: 'setInterval', message: 'Use a loop with sleep() from @temporalio/workflow.' },
        { name: 'fetch', message: 'Workflows must not do I/O; use an activity.' },
        { name: 'process', message: 'Workflows must not read the environment.' },
      ],
    },
  },
  {
    // A workflow reads as its steps, each a named function one can hold in mind while checking that
    // replay still sees the same commands.
    files: ['workflows/*.workflow.ts'],
    rules: { 'max-lines-per-function': ['error', { max: 80 }] },
  },
  {
    files: ['**/*.js', '**/*.mjs'],
    languageOptions: {
      globals: {
        require: 'readonly',
        module: 'writable',
        process: 'readonly',
        __dirname: 'readonly',
        console: 'readonly',
        setInterval: 'readonly',
        clearInterval: 'readonly',
      },
    },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    // The console's one script runs in the browser, not in Node.
    files: ['src/console/assets/**/*.js'],
    languageOptions: {
      globals: {
        document: 'readonly',
        window: 'readonly',
        navigator: 'readonly',
        fetch: 'readonly',
        setTimeout: 'readonly',
      },
    },
  },
);
