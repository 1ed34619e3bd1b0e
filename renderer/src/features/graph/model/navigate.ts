/** Any drawn tree: react-flow node ids with their parent and children. */
export interface NavTree {
  nodes: ReadonlyMap<string, { parent: string | null; children: string[] }>;
  roots: string[];
}

export type NavKey = 'ArrowUp' | 'ArrowDown' | 'ArrowLeft' | 'ArrowRight';

/** Keyboard moves over the drawn tree: up = parent, down = first child, left/right = siblings. */
export function navigate(tree: NavTree, current: string | null, key: NavKey): string | null {
  if (current === null || !tree.nodes.has(current)) return tree.roots[0] ?? null;
  const node = tree.nodes.get(current)!;
  switch (key) {
    case 'ArrowUp':
      return node.parent ?? current;
    case 'ArrowDown':
      return node.children[0] ?? current;
    case 'ArrowLeft':
    case 'ArrowRight': {
      const siblings = node.parent === null ? tree.roots : tree.nodes.get(node.parent)!.children;
      const i = siblings.indexOf(current);
      const j = key === 'ArrowLeft' ? i - 1 : i + 1;
      return siblings[j] ?? current;
    }
  }
}

export function isNavKey(key: string): key is NavKey {
  return key === 'ArrowUp' || key === 'ArrowDown' || key === 'ArrowLeft' || key === 'ArrowRight';
}
