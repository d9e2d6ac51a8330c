// A parsed config.yaml that remembers where every value came from, so every diagnostic can name
// its file, line and column. Pure: takes text, returns data. Reading the file is load.ts's job.

import { isMap, isPair, isScalar, isSeq, LineCounter, parseDocument, type Document, type Node } from 'yaml';
import type { Diagnostic, DiagnosticLevel } from '../types.js';

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
  // uniqueKeys:false → a duplicate key is reported by us as a warning (last wins), not a hard error.
  const doc = parseDocument(text, { lineCounter, prettyErrors: false, uniqueKeys: false });
  const err = doc.errors[0];
  if (err) {
    const pos = err.linePos?.[0] ?? lineCounter.linePos(err.pos[0]);
    const firstLine = err.message.split('\n')[0] ?? err.message;
    return {
      file,
      text,
      doc: null,
      lineCounter,
      data: null,
      syntaxError: {
        level: 'error',
        path: '',
        line: pos?.line ?? null,
        column: pos?.col ?? null,
        message: `YAML syntax error: ${firstLine.replace(/ at line \d+, column \d+:?$/, '')}`,
        file,
      },
    };
  }
  let data: unknown = null;
  try {
    data = doc.toJS({ maxAliasCount: 1000 });
  } catch (e) {
    return {
      file,
      text,
      doc: null,
      lineCounter,
      data: null,
      syntaxError: { level: 'error', path: '', line: null, column: null, message: `YAML error: ${(e as Error).message}`, file },
    };
  }
  return { file, text, doc, lineCounter, data: data ?? null, syntaxError: null };
}

/** Render a config path the way diagnostics print it: `hooks.pre_tool_call[1].timeout`. */
export function formatPath(path: ConfigPath): string {
  let out = '';
  for (const seg of path) {
    if (typeof seg === 'number') out += `[${seg}]`;
    else out += out === '' ? seg : `.${seg}`;
  }
  return out;
}

function nodeAt(source: ConfigSource, path: ConfigPath, keyNode: boolean): Node | null {
  if (!source.doc) return null;
  let node: unknown = source.doc.contents;
  for (let i = 0; i < path.length; i++) {
    const seg = path[i];
    if (isMap(node)) {
      const pair = node.items.find((p) => isPair(p) && isScalar(p.key) && String(p.key.value) === String(seg));
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
export function positionOf(
  source: ConfigSource,
  path: ConfigPath,
  opts: { key?: boolean } = {},
): { line: number | null; column: number | null } {
  const node = nodeAt(source, path, opts.key ?? false);
  const offset = node?.range?.[0];
  if (offset === undefined) return { line: null, column: null };
  const pos = source.lineCounter.linePos(offset);
  return { line: pos.line, column: pos.col };
}

/** Build a diagnostic for the value at `path` (or its key with `key: true`). */
export function diagnosticAt(
  source: ConfigSource,
  level: DiagnosticLevel,
  path: ConfigPath,
  message: string,
  opts: { key?: boolean } = {},
): Diagnostic {
  const { line, column } = positionOf(source, path, opts);
  return { level, path: formatPath(path), line, column, message, file: source.file };
}
