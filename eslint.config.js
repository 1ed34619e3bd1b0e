// @ts-check
const js = require('@eslint/js');
const tseslint = require('typescript-eslint');
const reactHooks = require('eslint-plugin-react-hooks');
const globals = require('globals');
const nodeFs = require('node:fs');
const path = require('node:path');

const FS = ['node:fs', 'node:fs/promises', 'fs', 'fs/promises'];

/** no-restricted-imports for a main-process layer: no fs outside storage, no node:* in pure code, no upward imports. */
function layer(files, { fs, node = false, banned }) {
  const paths = fs ? (node ? [...FS, 'path', 'os', 'crypto', 'electron', 'react'] : FS) : [];
  const patterns = banned.map((dir) => ({
    regex: `^\\.\\.?/(\\.\\./)*${dir}(/|$)`,
    message: `this layer does not import ${dir} (ARCHITECTURE.md §1)`,
  }));
  if (node) patterns.push({ regex: '^node:', message: 'pure code: no Node built-ins' });
  return {
    files,
    ...(files[0] === 'electron/**/*.ts' ? { ignores: ['electron/storage/**'] } : {}),
    rules: { 'no-restricted-imports': ['error', { paths, patterns }] },
  };
}

// Renderer zones. The features are read from disk so a new one gets its zone without an edit here.
const FEATURES = nodeFs.readdirSync(path.join(__dirname, 'renderer/src/features'), { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name);
const MAIN_ONLY_VIA_SHARED = { regex: '(^|/)electron/(?!shared/)', message: 'import main-process code only through electron/shared (the contract)' };
const below = (dir) => ({ regex: `(^|/)${dir}(/|$)`, message: `this layer does not import renderer/src/${dir} (ARCHITECTURE.md §2: shell → features → store, ui, model, lib)` });

/** no-restricted-imports for renderer files: no fs, main only through the contract, plus this zone's bans. */
function rendererZone(files, patterns) {
  return { files, rules: { 'no-restricted-imports': ['error', { paths: [...FS], patterns: [MAIN_ONLY_VIA_SHARED, ...patterns] }] } };
}

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
  // The layering of ARCHITECTURE.md §1, one block per layer (a later block for the same file
  // replaces an earlier one's no-restricted-imports, so each layer lists all of its bans).
  layer(['electron/**/*.ts'], { fs: true, banned: [] }),
  layer(['electron/core/**/*.ts'], { fs: true, node: true, banned: ['repo', 'ipc', 'storage', 'cli', 'app-services'] }),
  layer(['electron/shared/**/*.ts'], { fs: true, node: true, banned: ['repo', 'ipc', 'storage', 'cli', 'app-services'] }),
  layer(['electron/storage/**/*.ts'], { fs: false, banned: ['core', 'repo', 'ipc', 'cli', 'app-services'] }),
  layer(['electron/repo/**/*.ts'], { fs: true, banned: ['ipc', 'cli'] }),
  rendererZone(['renderer/**/*.ts', 'renderer/**/*.tsx', 'preload/**/*.ts'], []),
  // Slices, models, widgets, helpers and the action registry are what features stand on.
  rendererZone(
    ['store', 'model', 'ui', 'lib', 'commands'].flatMap((d) => [`renderer/src/${d}/**/*.ts`, `renderer/src/${d}/**/*.tsx`]).concat('renderer/src/app-context.tsx'),
    [below('features'), below('shell')],
  ),
  // main.tsx starts the shell; the shell alone puts features together.
  rendererZone(['renderer/src/main.tsx'], [{ regex: '(^|/)features(/|$)', message: 'main.tsx renders the shell; only the shell imports features' }]),
  // A feature stands on the layers below and never on a sibling or the shell (one block per feature).
  ...FEATURES.map((f) =>
    rendererZone([`renderer/src/features/${f}/**/*.ts`, `renderer/src/features/${f}/**/*.tsx`], [
      ...FEATURES.filter((g) => g !== f).map((g) => ({
        regex: `^(\\.\\./)+(features/)?${g}(/|$)`,
        message: `features/${f} does not import the ${g} feature: move what both need into ui/, model/ or store/, or compose them in shell/`,
      })),
      below('shell'),
    ]),
  ),
);
