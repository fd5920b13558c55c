import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: ['dist/**', 'packages/*/dist/**', 'node_modules/**', 'data/**', 'test-artifacts/**'],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      'no-restricted-syntax': [
        'error',
        {
          selector: "MemberExpression[object.name='process'][property.name='env']",
          message: 'Read settings in src/config.ts only.',
        },
      ],
    },
  },
  {
    files: [
      'src/config.ts',
      'scripts/**',
      'bench/**',
      'test/**',
      'eslint.config.js',
      'web/vite.config.ts',
      // The customer's command line reads its own settings (NOK_URL, NOK_API_KEY).
      'packages/client/src/cli.ts',
    ],
    rules: { 'no-restricted-syntax': 'off' },
  },
  {
    // The client is a package of its own: it imports nothing of the server.
    files: ['packages/client/src/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: ['../../*'], message: 'The client does not import the server.' }] },
      ],
    },
  },
  {
    files: ['scripts/**/*.mjs'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly', URL: 'readonly' } },
  },
  {
    // The console: the rules of hooks, and no reach into the server beyond its contract.
    files: ['web/src/**/*.{ts,tsx}'],
    ...reactHooks.configs.flat.recommended,
  },
  {
    files: ['web/src/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/src/**', '!@contract/**'],
              message:
                'The console imports the server only through @contract/* (its zod contract).',
            },
          ],
        },
      ],
    },
  },
);
