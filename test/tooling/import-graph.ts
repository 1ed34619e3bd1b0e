/**
 * The import graph of a source tree, read from its text (import/export … from, import(), bare
 * imports; type-only imports count: they tie the files together just the same), and its cycles.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

const SPECIFIER =
  /(?:^|[\s;])(?:import|export)\s(?:[^'"]*?\sfrom\s)?['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;

/** The relative specifiers a file's text imports. */
export function importsOf(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(SPECIFIER)) {
    const spec = m[1] ?? m[2];
    if (spec && spec.startsWith('.')) out.push(spec);
  }
  return out;
}

/** Every .ts/.tsx file under `dir` (relative to `root`). */
export function sourceFiles(root: string, dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      const path = join(d, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (/\.tsx?$/.test(name) && !name.endsWith('.d.ts')) out.push(relative(root, path));
    }
  };
  walk(join(root, dir));
  return out.sort();
}

/** file → the files of `files` it imports (a specifier resolves to X.ts, X.tsx or X/index.ts). */
export function importGraph(files: ReadonlyMap<string, string>): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const [file, text] of files) {
    const targets: string[] = [];
    for (const spec of importsOf(text)) {
      const base = join(dirname(file), spec);
      const hit = [`${base}.ts`, `${base}.tsx`, join(base, 'index.ts'), base].find((c) => files.has(c));
      if (hit && !targets.includes(hit)) targets.push(hit);
    }
    graph.set(file, targets);
  }
  return graph;
}

/** The strongly connected groups of two or more files (Tarjan): each holds at least one import circle. */
export function cycles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const out: string[][] = [];
  const visit = (v: string) => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const group: string[] = [];
    for (let w = stack.pop()!; ; w = stack.pop()!) {
      onStack.delete(w);
      group.push(w);
      if (w === v) break;
    }
    if (group.length > 1) out.push(group.sort());
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return out;
}

/**
 * One circle of at least `min` distinct files in each strongly connected group that has one
 * (small groups: a bounded depth-first search); two files importing each other are not reported.
 */
export function circles(graph: ReadonlyMap<string, readonly string[]>, min = 3): string[][] {
  const out: string[][] = [];
  for (const group of cycles(graph)) {
    if (group.length < min) continue;
    const inGroup = new Set(group);
    const found = findCircle(graph, inGroup, min);
    if (found) out.push(found);
  }
  return out;
}

function findCircle(graph: ReadonlyMap<string, readonly string[]>, group: Set<string>, min: number): string[] | null {
  for (const start of group) {
    const path = [start];
    const seen = new Set(path);
    const walk = (v: string): string[] | null => {
      for (const w of graph.get(v) ?? []) {
        if (!group.has(w)) continue;
        if (w === start && path.length >= min) return [...path];
        if (seen.has(w) || w < start) continue;
        path.push(w);
        seen.add(w);
        const hit = walk(w);
        if (hit) return hit;
        path.pop();
        seen.delete(w);
      }
      return null;
    };
    const hit = walk(start);
    if (hit) return hit;
  }
  return null;
}

/** The import graph of the files under `dir` of the repository at `root`. */
export function treeGraph(root: string, dir: string): Map<string, string[]> {
  const files = new Map(sourceFiles(root, dir).map((f) => [f, readFileSync(resolve(root, f), 'utf8')]));
  return importGraph(files);
}
