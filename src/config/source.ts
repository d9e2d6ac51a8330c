// A parsed config.yaml that remembers where every value came from, so every diagnostic can name
// its file, line and column. Pure: takes text, returns data. Reading the file is load.ts's job.

import { isAlias, isMap, isPair, isScalar, isSeq, LineCounter, parseDocument, type Document, type Node, type Tags } from 'yaml';
import type { Diagnostic, DiagnosticLevel } from '../types.js';
import { errorText } from '../errors.js';

export type ConfigPath = readonly (string | number)[];

export interface ConfigSource {
  file: string;
  text: string;
  /** The YAML document (null when the text did not parse). */
  doc: Document | null;
  lineCounter: LineCounter;
  /** The whole config as plain JS (null when empty or unparsable). */
  data: unknown;
  /** A YAML syntax error, as one clear diagnostic; null when the text parsed. */
  syntaxError: Diagnostic | null;
}

export function parseConfigText(text: string, file: string): ConfigSource {
  const lineCounter = new LineCounter();
  // YAML 1.1 like PyYAML, which Hermes reads the same file with (`yes`/`on` are booleans there).
  // uniqueKeys:false → a duplicate key is reported by us as a warning (last wins), not a hard error.
  // logLevel 'error': the yaml package would otherwise process.emitWarning() onto the host's stderr
  // (e.g. a mapping used as a key); a library reports through diagnostics, never prints.
  const doc = parseDocument(text, {
    lineCounter,
    prettyErrors: false,
    uniqueKeys: false,
    version: '1.1',
    customTags: asPyYaml,
    logLevel: 'error',
  });
  const err = doc.errors[0];
  if (err) {
    const pos = err.linePos?.[0] ?? lineCounter.linePos(err.pos[0]);
    const firstLine = err.message.split('\n')[0] ?? err.message;
    const message = `YAML syntax error: ${firstLine.replace(/ at line \d+, column \d+:?$/, '')}`;
    return unreadable(file, text, lineCounter, message, pos?.line ?? null, pos?.col ?? null);
  }
  let data: unknown = null;
  try {
    data = doc.toJS({ maxAliasCount: 1000 });
  } catch (e) {
    return unreadable(file, text, lineCounter, `YAML error: ${errorText(e)}`, null, null);
  }
  return { file, text, doc, lineCounter, data: data ?? null, syntaxError: null };
}

/** A source whose text could not be turned into data: no document, no data, one error. */
function unreadable(file: string, text: string, lineCounter: LineCounter, message: string, line: number | null, column: number | null): ConfigSource {
  return { file, text, doc: null, lineCounter, data: null, syntaxError: { level: 'error', path: '', line, column, message, file } };
}

// Where the `yaml` package's YAML 1.1 scalars differ from PyYAML's implicit resolvers: PyYAML has
// no `y`/`n` booleans (`command: y` is a string there), and its floats need digits and a dot
// (`.` is a string; an exponent needs a dot and a sign: `1e3` is a string, `1.0e+3` a float).
const PY_TRUE = /^(?:yes|Yes|YES|true|True|TRUE|on|On|ON)$/;
const PY_FALSE = /^(?:no|No|NO|false|False|FALSE|off|Off|OFF)$/;
const PY_FLOAT = /^[-+]?(?:[0-9][0-9_]*\.[0-9_]*|\.[0-9_]+)$/;
const PY_FLOAT_EXP = /^[-+]?(?:[0-9][0-9_]*\.[0-9_]*|\.[0-9_]+)[eE][-+][0-9]+$/;

function asPyYaml(tags: Tags): Tags {
  return tags.map((t) => {
    if (typeof t === 'string' || !('test' in t) || !t.test) return t;
    if (t.tag === 'tag:yaml.org,2002:bool') return { ...t, test: t.test.test('true') ? PY_TRUE : PY_FALSE };
    if (t.tag === 'tag:yaml.org,2002:float' && t.test.test('1e3')) return { ...t, test: PY_FLOAT_EXP };
    if (t.tag === 'tag:yaml.org,2002:float' && t.test.test('.')) return { ...t, test: PY_FLOAT };
    return t;
  });
}

/** Render a config path the way diagnostics print it: `hooks.pre_tool_call[1].timeout`. */
/** `file:line:column: message` (`file: message` when the position is unknown), as a person reads it. */
export function locatedMessage(where: { file?: string | null; line: number | null; column: number | null; message: string }, fallbackFile: string): string {
  return `${where.file ?? fallbackFile}${where.line !== null ? `:${where.line}:${where.column}` : ''}: ${where.message}`;
}

export function formatPath(path: ConfigPath): string {
  let out = '';
  for (const seg of path) {
    if (typeof seg === 'number') out += `[${seg}]`;
    else out += out === '' ? seg : `.${seg}`;
  }
  return out;
}

function nodeAt(source: ConfigSource, path: ConfigPath, keyNode: boolean): Node | null {
  const doc = source.doc;
  if (!doc) return null;
  let node: unknown = doc.contents;
  for (let i = 0; i < path.length; i++) {
    const seg = path[i];
    // Descend through an alias into the anchored node it stands for.
    if (isAlias(node)) node = node.resolve(doc) ?? node;
    if (isMap(node)) {
      // With duplicate keys the last one wins (as in PyYAML), so point at that one.
      const pair = node.items.findLast((p) => isPair(p) && isScalar(p.key) && String(p.key.value) === String(seg));
      if (!pair) return (node as Node) ?? null;
      if (keyNode && i === path.length - 1) return (pair.key as Node) ?? null;
      node = pair.value ?? pair.key;
    } else if (isSeq(node) && typeof seg === 'number') {
      const item = node.items[seg];
      if (item === undefined) return node as Node;
      node = item;
    } else {
      return (node as Node) ?? null;
    }
  }
  return (node as Node) ?? null;
}

/**
 * Line and column (1-based) of the value at `path`; with `key: true`, of the mapping key itself.
 * Falls back to the deepest existing ancestor, so a missing field points at its entry.
 */
export function positionOf(source: ConfigSource, path: ConfigPath, opts: { key?: boolean } = {}): { line: number | null; column: number | null } {
  const node = nodeAt(source, path, opts.key ?? false);
  const offset = node?.range?.[0];
  if (offset === undefined) return { line: null, column: null };
  const pos = source.lineCounter.linePos(offset);
  return { line: pos.line, column: pos.col };
}

/** Build a diagnostic for the value at `path` (or its key with `key: true`). */
export function diagnosticAt(source: ConfigSource, level: DiagnosticLevel, path: ConfigPath, message: string, opts: { key?: boolean } = {}): Diagnostic {
  const { line, column } = positionOf(source, path, opts);
  return { level, path: formatPath(path), line, column, message, file: source.file };
}
