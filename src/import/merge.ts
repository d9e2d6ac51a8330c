// `import --write`: imported entries added to a config.yaml text, keeping its comments and layout.

import { isMap, isSeq, parseDocument, type YAMLMap, type YAMLSeq } from 'yaml';
import { isPlainObject } from '../json.js';
import { entryOf, type ImportedHook } from './handlers.js';

/**
 * Add imported entries to a config.yaml text, keeping its comments and layout, skipping entries
 * already present (same event, command and matcher); `replaceKeys` (another agent's keys under
 * `hooks:` in this very file) are removed once converted. Throws when the config cannot take them
 * (unparsable YAML, or `hooks` / `hooks.<event>` of the wrong type); the CLI reports that.
 */
export function mergeIntoConfig(existingConfigText: string, imported: readonly ImportedHook[], opts: { replaceKeys?: readonly string[] } = {}): string {
  const doc = parseDocument(existingConfigText, { version: '1.1', uniqueKeys: false });
  if (doc.errors.length > 0) throw new Error(`config.yaml does not parse: ${doc.errors[0]!.message.split('\n')[0]}`);
  if (doc.contents === null) doc.contents = doc.createNode({}) as unknown as typeof doc.contents;
  if (!isMap(doc.contents)) throw new Error('config.yaml must be a mapping at the top level');
  let hooks: unknown = doc.get('hooks', true);
  if (hooks === undefined || hooks === null || isScalarNull(hooks)) {
    hooks = doc.createNode({});
    doc.set('hooks', hooks);
  }
  if (!isMap(hooks)) throw new Error('hooks: in config.yaml is not a mapping');
  const hooksMap = hooks as YAMLMap;
  hooksMap.flow = false; // `hooks: {}` (the shipped default) becomes a block mapping

  for (const h of imported) {
    let list: unknown = hooksMap.get(h.event, true);
    if (list === undefined || isScalarNull(list)) {
      list = doc.createNode([]);
      hooksMap.set(h.event, list);
    }
    if (!isSeq(list)) throw new Error(`hooks.${h.event} in config.yaml is not a list`);
    const seq = list as YAMLSeq;
    seq.flow = false;
    const present = (seq.toJSON() as unknown[]).some(
      (e) =>
        isPlainObject(e) &&
        typeof e['command'] === 'string' &&
        e['command'].trim() === h.command &&
        (typeof e['matcher'] === 'string' && e['matcher'].trim() !== '' ? e['matcher'].trim() : null) === h.matcher,
    );
    if (!present) seq.add(doc.createNode(entryOf(h)));
  }
  // Converting a config in place: the agent's keys the entries came from go.
  for (const key of opts.replaceKeys ?? []) hooksMap.delete(key);
  return doc.toString({ lineWidth: 0 });
}

function isScalarNull(node: unknown): boolean {
  return typeof node === 'object' && node !== null && 'value' in node && (node as { value: unknown }).value === null && !isMap(node) && !isSeq(node);
}
