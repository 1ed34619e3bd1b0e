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
/** The wings (docs/architecture.md §2b): one folder per add-on feature, behind its index.ts. */
const WINGS = ['search', 'secrets', 'export', 'store-views', 'doctor', 'team', 'keep', 'continue'];
/** Bans of every file in core, repeated by its folders' blocks: the heart imports no wing, no thread plumbing. */
const CORE_BANS = ['repo', 'ipc', 'storage', 'cli', 'app-services', 'threads', ...WINGS];
/** What no wing imports: the layers above the wings, and every other wing (they talk through the catalog's events). */
const wingBans = (wing) => ['ipc', 'cli', 'app-services', ...WINGS.filter((w) => w !== wing)];

/**
 * no-restricted-imports for a main-process layer: no fs outside storage, no node:* in pure code, no
 * upward imports, no deep import of core (`core: true` for core's own files); `typesFrom`: folders
 * it may import types from, never a value.
 */
function layer(files, { fs, node = false, core = false, banned, ignores, typesFrom = [], extra = [] }) {
  const paths = fs ? (node ? [...FS, 'path', 'os', 'crypto', 'electron', 'react'] : FS) : [];
  const patterns = [...new Set(banned)].map((dir) => ({
    regex: `^\\.\\.?/(\\.\\./)*${dir}(/|$)`,
    message: `this layer does not import ${dir === 'index$' ? "core's facade" : dir} (docs/architecture.md §1, §2b)`,
  }));
  patterns.push(...extra);
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
  // A wing's storage/ folder is its only file I/O, as the heart's storage/ is the heart's.
  layer(['electron/**/*.ts'], {
    fs: true,
    banned: [],
    ignores: ['electron/storage/**', 'electron/*/storage/**', 'electron/*/*/storage/**'],
  }),
  // Core builds the wire shapes shared declares (their types only: no value of shared runs in core).
  layer(['electron/core/**/*.ts'], { fs: true, node: true, core: true, banned: CORE_BANS, typesFrom: ['shared'] }),
  // Inside core: pi's rules stand alone (the index engine implements the entry interface they read,
  // types.ts EntrySource); the engine uses the rules, never the facade.
  layer(['electron/core/rules/**/*.ts'], {
    fs: true,
    node: true,
    core: true,
    banned: [...CORE_BANS, 'engine', 'index'],
    typesFrom: ['shared'],
  }),
  // Byte-level JSON scanning (SWAR and WebAssembly SIMD): not pi's rules, a floor under rules and engine.
  layer(['electron/core/bytes/**/*.ts'], {
    fs: true,
    node: true,
    core: true,
    banned: [...CORE_BANS, 'rules', 'engine', 'index'],
    typesFrom: ['shared'],
  }),
  layer(['electron/core/engine/**/*.ts'], {
    fs: true,
    node: true,
    core: true,
    banned: [...CORE_BANS, 'index$'],
    typesFrom: ['shared'],
  }),
  // shared is the floor: everyone imports it, it imports nothing of ours.
  layer(['electron/shared/**/*.ts'], {
    fs: true,
    node: true,
    core: true,
    banned: ['core', 'repo', 'ipc', 'storage', 'cli', 'app-services', 'threads', ...WINGS],
  }),
  layer(['electron/storage/**/*.ts'], {
    fs: false,
    banned: ['core', 'repo', 'ipc', 'cli', 'app-services', 'threads', ...WINGS],
  }),
  layer(['electron/repo/**/*.ts'], { fs: true, banned: ['ipc', 'cli', 'app-services', ...WINGS] }),
  // Thread plumbing is a floor below everything that runs a thread: it stands on shared and storage only.
  layer(['electron/threads/**/*.ts'], {
    fs: true,
    banned: ['core', 'repo', 'ipc', 'cli', 'app-services', ...WINGS],
  }),
  // A wing uses the heart (core through its facade) and the threads floor, never the layers above it
  // nor another wing; its storage/ folder alone touches files.
  ...WINGS.map((w) =>
    layer([`electron/${w}/**/*.ts`], {
      fs: true,
      banned: wingBans(w),
      ignores: [`electron/${w}/storage/**`, `electron/${w}/*/storage/**`],
    }),
  ),
  // A part of a wing (store-views/archive) may keep its own storage/ folder too.
  ...WINGS.map((w) =>
    layer([`electron/${w}/storage/**/*.ts`, `electron/${w}/*/storage/**/*.ts`], { fs: false, banned: wingBans(w) }),
  ),
  // A wing's rules/ are pure: no Node, no files, nothing of the wing's own I/O half (`../x`), core only
  // through its facade, shared's types only.
  ...WINGS.map((w) =>
    layer([`electron/${w}/rules/**/*.ts`], {
      fs: true,
      node: true,
      banned: [...wingBans(w), 'repo', 'storage', 'threads'],
      typesFrom: ['shared'],
      extra: [
        { regex: '^\\.\\./[^.]', message: `a wing's rules/ are pure: they do not import the ${w} wing's service half` },
      ],
    }),
  ),
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
