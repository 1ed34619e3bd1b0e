/**
 * The floors of the main process (docs/architecture.md): a file may import its own floor or one
 * below, never one above. Wings share a floor (eslint.config.js keeps them from importing each other).
 */
const FLOORS: ReadonlyArray<readonly string[]> = [
  ['shared', 'version'],
  ['storage', 'core'],
  ['threads'],
  ['repo'],
  ['search', 'secrets', 'export', 'store-views', 'doctor', 'team', 'keep', 'continue'],
  ['ipc'],
  ['app-services'],
  ['cli', 'main', 'window', 'menu', 'app-protocol', 'open-confine'],
];

/** The floor of a file under electron/ (its top folder, or its name for a file at the top). */
export function floorOf(file: string): number {
  const top = file.split('/')[1]!.replace(/\.ts$/, '');
  const floor = FLOORS.findIndex((names) => names.includes(top));
  if (floor < 0) throw new Error(`${file}: no floor for ${top} (add it to test/tooling/floors.ts)`);
  return floor;
}

/** Every import from a file to a file on a higher floor, as `from -> to`. */
export function upwardImports(graph: ReadonlyMap<string, readonly string[]>): string[] {
  const out: string[] = [];
  for (const [from, targets] of graph)
    for (const to of targets) if (floorOf(to) > floorOf(from)) out.push(`${from} -> ${to}`);
  return out;
}
