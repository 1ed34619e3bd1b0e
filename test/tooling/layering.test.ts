import { ESLint } from 'eslint';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

// The layering rules of docs/architecture.md live in eslint.config.js; each must reject a violation
// (a file that imports upward) and accept the allowed import next to it.
const root = join(__dirname, '..', '..');
const eslint = new ESLint({ cwd: root });

async function restricted(file: string, code: string): Promise<boolean> {
  const [result] = await eslint.lintText(code, { filePath: join(root, file) });
  // typescript-eslint's variant of the rule is the one that can allow type-only imports.
  return (result?.messages ?? []).some(
    (m) => m.ruleId === 'no-restricted-imports' || m.ruleId === '@typescript-eslint/no-restricted-imports',
  );
}

const cases: Array<[string, string, string]> = [
  // [file, an import it must not have, an import it may have]
  ['electron/core/x.ts', "import '../repo/catalog';", "import './parse';"],
  ['electron/core/x.ts', "import 'node:path';", "import './parse';"],
  ['electron/shared/x.ts', "import '../ipc/dispatch';", "import './errors';"],
  ['electron/shared/x.ts', "import type { Entry } from '../core';", "import type { ErrorCode } from './errors';"],
  [
    'electron/core/x.ts',
    "import { ENTRY_STATES } from '../shared/entry-states';",
    "import type { EntryPreview } from '../shared/dto';",
  ],
  ['electron/core/rules/x.ts', "import '../engine/entry-store';", "import '../types';"],
  ['electron/core/rules/x.ts', "import '../index';", "import './parse';"],
  ['electron/core/rules/x.ts', "import '../../search/rules/search-text';", "import './entries';"],
  ['electron/core/rules/x.ts', "import '../../repo/catalog';", "import type { EntryPreview } from '../../shared/dto';"],
  ['electron/core/engine/x.ts', "import '../index';", "import '../rules/parse';"],
  ['electron/core/engine/x.ts', "import '../../search';", "import './entry-store';"],
  ['electron/core/bytes/x.ts', "import '../rules/parse';", "import './json-string-wasm';"],
  ['electron/core/rules/x.ts', "import '../engine/json-validate';", "import '../bytes/json-string';"],
  ['electron/storage/x.ts', "import '../core';", "import 'node:fs';"],
  ['electron/repo/x.ts', "import '../ipc/dispatch';", "import '../storage/read';"],
  ['electron/repo/x.ts', "import 'node:fs';", "import '../core';"],
  ['electron/ipc/x.ts', "import 'node:fs/promises';", "import '../repo/catalog';"],
  ['electron/repo/x.ts', "import '../core/rules/entry-preview';", "import '../core';"],
  ['electron/cli/x.ts', "import '../core/rules/parse';", "import '../core';"],
  // §2b: the heart (storage, core, repo) and shared import no wing; threads is a floor under all that runs a thread
  ['electron/repo/x.ts', "import '../search';", "import '../threads/pool';"],
  ['electron/repo/x.ts', "import '../store-views/archive';", "import '../storage/read';"],
  ['electron/core/rules/x.ts', "import '../../secrets';", "import './parse';"],
  ['electron/storage/x.ts', "import '../export/ledger';", "import 'node:fs';"],
  ['electron/storage/x.ts', "import '../threads/pool';", "import '../shared/errors';"],
  [
    'electron/shared/x.ts',
    "import type { StorageSplit } from '../store-views';",
    "import type { ErrorCode } from './errors';",
  ],
  ['electron/threads/x.ts', "import '../repo/catalog';", "import '../storage/stat';"],
  ['electron/threads/x.ts', "import '../search/search-client';", "import '../shared/errors';"],
  ['electron/threads/x.ts', "import 'node:fs';", "import 'node:worker_threads';"],
  // a wing uses the heart and threads, never another wing nor what is above it; core through its facade
  ['electron/search/x.ts', "import '../secrets';", "import '../repo/event-bus';"],
  ['electron/export/x.ts', "import '../secrets/redactor';", "import '../threads/open-gate';"],
  ['electron/store-views/x.ts', "import '../ipc/handlers';", "import '../repo/sessions';"],
  ['electron/secrets/x.ts', "import '../app-services';", "import '../core';"],
  ['electron/search/x.ts', "import '../core/rules/migrate';", "import './rules/search-text';"],
  // a wing's files touch no file themselves: its storage/ folder does
  ['electron/store-views/x.ts', "import 'node:fs';", "import '../storage/stat';"],
  ['electron/search/storage/x.ts', "import '../../export';", "import 'node:fs';"],
  // a wing's rules/ are pure: no Node, not the wing's own service half, shared's types only
  ['electron/secrets/rules/x.ts', "import '../secrets-service';", "import './types';"],
  ['electron/search/rules/x.ts', "import 'node:path';", "import '../../core';"],
  ['electron/store-views/rules/x.ts', "import '../../storage/read';", "import './usage';"],
  [
    'electron/search/rules/x.ts',
    "import { ENTRY_STATES } from '../../shared/entry-states';",
    "import type { EntryPreview } from '../../shared/dto';",
  ],
  ['test/repo/x.test.ts', "import '../../electron/core/rules/context-view';", "import '../../electron/core';"],
  ['bench/x.ts', "import '../electron/core/engine/envelope-scan';", "import '../electron/core';"],
  [
    'renderer/src/features/graph/x.ts',
    "import '../../../../electron/repo/catalog';",
    "import '../../../../electron/shared/contract';",
  ],
  ['preload/x.ts', "import '../electron/ipc/handlers';", "import '../electron/shared/contract';"],
  ['renderer/src/store/x.ts', "import '../features/graph/GraphPanel';", "import '../model/filters';"],
  ['renderer/src/ui/x.tsx', "import '../features/inspector/Inspector';", "import '../lib/clipboard';"],
  ['renderer/src/model/x.ts', "import '../features/graph/model/view';", "import './filters';"],
  // a feature never imports a sibling feature (at any depth) nor the shell; its own folders are fine
  ['renderer/src/features/context/x.tsx', "import '../inspector/parts';", "import '../../ui/EntryLink';"],
  ['renderer/src/features/graph/nodes/x.tsx', "import '../../lineage/LineageFlags';", "import '../node-slots';"],
  ['renderer/src/features/search/x.tsx', "import '../../features/palette/Keys';", "import '../../commands/registry';"],
  ['renderer/src/features/fork/x.tsx', "import '../../shell/panes';", "import '../../store/fork-actions';"],
  // the layers below features import neither a feature nor the shell
  ['renderer/src/store/x.ts', "import '../shell/App';", "import './fork-slice';"],
  ['renderer/src/ui/x.tsx', "import '../shell/panes';", "import '../app-context';"],
  ['renderer/src/lib/x.ts', "import '../features/graph/GraphPanel';", "import '../store';"],
  ['renderer/src/commands/x.ts', "import '../features/palette/app-actions';", "import './registry';"],
  ['renderer/src/app-context.tsx', "import './features/sessions/rows';", "import './store';"],
  // only the shell puts features together: main.tsx renders the shell
  ['renderer/src/main.tsx', "import './features/graph/GraphPanel';", "import './shell/App';"],
  ['renderer/src/shell/x.tsx', "import '../../electron/repo/catalog';", "import '../features/graph/GraphPanel';"],
];

describe('eslint layering zones', () => {
  for (const [file, bad, good] of cases) {
    it(`${file}: rejects ${bad}, accepts ${good}`, async () => {
      expect(await restricted(file, `${bad}\n`)).toBe(true);
      expect(await restricted(file, `${good}\n`)).toBe(false);
    });
  }
});
