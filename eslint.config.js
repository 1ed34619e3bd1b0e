// @ts-check
const js = require('@eslint/js');
const tseslint = require('typescript-eslint');
const reactHooks = require('eslint-plugin-react-hooks');
const globals = require('globals');
const nodeFs = require('node:fs');
const path = require('node:path');

const FS = ['node:fs', 'node:fs/promises', 'fs', 'fs/promises'];

/** Outside core, only its facade (electron/core/index.ts) is imported (`from`: the importer's top folder). */
const deepCore = (from) => ({
  regex: `^(\\.\\.?/)+${from === 'electron' ? '' : 'electron/'}core/.`,
  message: 'import core only through its facade, electron/core/index.ts',
});
/** Bans of every file in core, repeated by its folders' blocks. */
const CORE_BANS = ['repo', 'ipc', 'storage', 'cli', 'app-services'];

/**
 * no-restricted-imports for a main-process layer: no fs outside storage, no node:* in pure code, no
 * upward imports, no deep import of core (`core: true` for core's own files); `typesFrom`: folders
 * it may import types from, never a value.
 */
function layer(files, { fs, node = false, core = false, banned, ignores, typesFrom = [] }) {
  const paths = fs ? (node ? [...FS, 'path', 'os', 'crypto', 'electron', 'react'] : FS) : [];
  const patterns = banned.map((dir) => ({
    regex: `^\\.\\.?/(\\.\\./)*${dir}(/|$)`,
    message: `this layer does not import ${dir === 'index$' ? "core's facade" : dir} (docs/architecture.md §1)`,
  }));
  if (node) patterns.push({ regex: '^node:', message: 'pure code: no Node built-ins' });
  if (!core) patterns.push(deepCore(files[0].split('/')[0]));
  const rules = { 'no-restricted-imports': ['error', { paths, patterns }] };
  if (typesFrom.length > 0) {
    const typeOnly = typesFrom.map((dir) => ({
      regex: `^\\.\\.?/(\\.\\./)*${dir}(/|$)`,
      allowTypeImports: true,
      message: `this layer imports only types from ${dir} (docs/architecture.md §1)`,
    }));
    rules['@typescript-eslint/no-restricted-imports'] = ['error', { patterns: typeOnly }];
  }
  return { files, ...(ignores ? { ignores } : {}), rules };
}

// Renderer zones. The features are read from disk so a new one gets its zone without an edit here.
const FEATURES = nodeFs
  .readdirSync(path.join(__dirname, 'renderer/src/features'), { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => d.name);
const MAIN_ONLY_VIA_SHARED = {
  regex: '(^|/)electron/(?!shared/)',
  message: 'import main-process code only through electron/shared (the contract)',
};
const below = (dir) => ({
  regex: `(^|/)${dir}(/|$)`,
  message: `this layer does not import renderer/src/${dir} (docs/architecture.md §2: shell → features → store, ui, model, lib)`,
});

/** no-restricted-imports for renderer files: no fs, main only through the contract, plus this zone's bans. */
function rendererZone(files, patterns) {
  return {
    files,
    rules: { 'no-restricted-imports': ['error', { paths: [...FS], patterns: [MAIN_ONLY_VIA_SHARED, ...patterns] }] },
  };
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
  // The layering of docs/architecture.md §1, one block per layer (a later block for the same file
  // replaces an earlier one's no-restricted-imports, so each layer lists all of its bans).
  layer(['electron/**/*.ts'], { fs: true, banned: [], ignores: ['electron/storage/**'] }),
  // Core builds the wire shapes shared declares (their types only: no value of shared runs in core).
  layer(['electron/core/**/*.ts'], { fs: true, node: true, core: true, banned: CORE_BANS, typesFrom: ['shared'] }),
  // Inside core: pi's rules stand alone (the index engine implements the entry interface they read,
  // types.ts EntrySource); the engine and the search language use the rules, never the facade.
  layer(['electron/core/rules/**/*.ts'], {
    fs: true,
    node: true,
    core: true,
    banned: [...CORE_BANS, 'engine', 'index', 'search'],
    typesFrom: ['shared'],
  }),
  layer(['electron/core/engine/**/*.ts'], {
    fs: true,
    node: true,
    core: true,
    banned: [...CORE_BANS, 'search', 'index$'],
    typesFrom: ['shared'],
  }),
  layer(['electron/core/search/**/*.ts'], {
    fs: true,
    node: true,
    core: true,
    banned: [...CORE_BANS, 'engine', 'index'],
    typesFrom: ['shared'],
  }),
  // shared is the floor: everyone imports it, it imports nothing of ours.
  layer(['electron/shared/**/*.ts'], {
    fs: true,
    node: true,
    core: true,
    banned: ['core', 'repo', 'ipc', 'storage', 'cli', 'app-services'],
  }),
  layer(['electron/storage/**/*.ts'], { fs: false, banned: ['core', 'repo', 'ipc', 'cli', 'app-services'] }),
  layer(['electron/repo/**/*.ts'], { fs: true, banned: ['ipc', 'cli'] }),
  // A wing keeps its own file-system steps in its storage/ folder (ARCHITECTURE §2b).
  layer(['electron/store-views/*/storage/**/*.ts'], { fs: false, banned: ['ipc', 'cli', 'app-services'] }),
  // Tests and the bench use core's facade too; test/core and test/scale unit-test its internals.
  layer(['test/**/*.ts', 'test/**/*.tsx', 'bench/**/*.ts'], {
    fs: false,
    banned: [],
    ignores: ['test/core/**', 'test/scale/**'],
  }),
  rendererZone(['renderer/**/*.ts', 'renderer/**/*.tsx', 'preload/**/*.ts'], []),
  // Slices, models, widgets, helpers and the action registry are what features stand on.
  rendererZone(
    ['store', 'model', 'ui', 'lib', 'commands']
      .flatMap((d) => [`renderer/src/${d}/**/*.ts`, `renderer/src/${d}/**/*.tsx`])
      .concat('renderer/src/app-context.tsx'),
    [below('features'), below('shell')],
  ),
  // main.tsx starts the shell; the shell alone puts features together.
  rendererZone(
    ['renderer/src/main.tsx'],
    [{ regex: '(^|/)features(/|$)', message: 'main.tsx renders the shell; only the shell imports features' }],
  ),
  // A feature stands on the layers below and never on a sibling or the shell (one block per feature).
  ...FEATURES.map((f) =>
    rendererZone(
      [`renderer/src/features/${f}/**/*.ts`, `renderer/src/features/${f}/**/*.tsx`],
      [
        ...FEATURES.filter((g) => g !== f).map((g) => ({
          regex: `^(\\.\\./)+(features/)?${g}(/|$)`,
          message: `features/${f} does not import the ${g} feature: move what both need into ui/, model/ or store/, or compose them in shell/`,
        })),
        below('shell'),
      ],
    ),
  ),
);
