// The YAML AST side of reading hooks: a value's node (for positions) and the duplicate keys YAML
// drops in silence. Values themselves come from the Map tree (hooks.ts); these only place them.

import { isAlias, isMap, isScalar, type Node, type Pair } from 'yaml';
import type { Diagnostic } from '../types.js';
import { pyRepr } from '../util/python.js';
import { formatPath, type ConfigPath, type ConfigSource } from './source.js';

export function resolveNode(source: ConfigSource, node: unknown): unknown {
  const doc = source.doc;
  return isAlias(node) && doc ? (node.resolve(doc) ?? null) : node;
}

/** The (alias-resolved) value node of the last `key` pair in a map node. */
export function valueNode(source: ConfigSource, mapNode: unknown, key: string): unknown {
  if (!isMap(mapNode)) return null;
  const pair = mapNode.items.findLast((p) => isScalar(p.key) && p.key.value === key);
  return pair ? resolveNode(source, pair.value) : null;
}

export function itemNode(source: ConfigSource, seqNode: unknown, index: number): unknown {
  const items = (seqNode as { items?: unknown[] } | null)?.items;
  return Array.isArray(items) ? resolveNode(source, items[index]) : null;
}

/** Warnings for keys that appear twice in one mapping: YAML keeps the last, silently dropping the rest. */
export function duplicateKeyDiagnostics(source: ConfigSource, mapNode: unknown, path: ConfigPath, only?: (key: unknown) => boolean): Diagnostic[] {
  if (!isMap(mapNode)) return [];
  const found: Diagnostic[] = [];
  const previous = new Map<unknown, Pair>();
  for (const pair of mapNode.items) {
    if (!isScalar(pair.key)) continue;
    const key = pair.key.value;
    if (key === '<<' || (only && !only(key))) continue;
    const earlier = previous.get(key);
    previous.set(key, pair);
    if (!earlier) continue;
    const at = nodePosition(source, pair.key as Node);
    const earlierLine = nodePosition(source, earlier.key as Node).line;
    const where = path.length === 0 ? 'at the top level' : `in ${formatPath(path)}`;
    found.push({
      level: 'warning',
      path: formatPath([...path, keySegment(key)]),
      line: at.line,
      column: at.column,
      message: `duplicate key ${pyRepr(key)} ${where}: the earlier one${earlierLine === null ? '' : ` on line ${earlierLine}`} is ignored (the last one wins)`,
      file: source.file,
    });
  }
  return found;
}

function nodePosition(source: ConfigSource, node: Node | null | undefined): { line: number | null; column: number | null } {
  const offset = node?.range?.[0];
  if (offset === undefined) return { line: null, column: null };
  const pos = source.lineCounter.linePos(offset);
  return { line: pos.line, column: pos.col };
}

/** A mapping key as a path segment (and as source.ts matches keys: by their string form). */
export function keySegment(key: unknown): string {
  if (key === null || key === undefined) return 'null';
  return typeof key === 'object' ? pyRepr(key) : String(key);
}
