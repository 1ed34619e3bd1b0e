// @ts-check
const js = require('@eslint/js');
const tseslint = require('typescript-eslint');
const reactHooks = require('eslint-plugin-react-hooks');
const globals = require('globals');

module.exports = tseslint.config(
  { ignores: ['out/**', 'dist/**', 'release/**', 'node_modules/**', 'test-output/**', 'resources/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    files: ['**/*.cjs', 'eslint.config.js'],
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    files: ['renderer/**/*.tsx', 'renderer/**/*.ts'],
    plugins: { 'react-hooks': reactHooks },
    rules: { 'react-hooks/rules-of-hooks': 'error', 'react-hooks/exhaustive-deps': 'warn' },
  },
  {
    // Only storage touches the file system (ARCHITECTURE.md §1).
    files: ['electron/**/*.ts'],
    ignores: ['electron/storage/**'],
    rules: {
      'no-restricted-imports': ['error', { paths: ['node:fs', 'node:fs/promises', 'fs', 'fs/promises'] }],
    },
  },
  {
    // The core is pure: no file system, no Electron, no DOM-only code.
    files: ['electron/core/**/*.ts', 'electron/shared/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { paths: ['fs', 'fs/promises', 'path', 'os', 'crypto', 'electron', 'react'], patterns: ['node:*'] }],
    },
  },
);
