// Torture: fast-check fuzzing of every config parser the engine runs on a config.yaml — hooks,
// hooks.outbound, tool_loop_guardrails, plugins, dialects — on arbitrary YAML-ish text and on
// arbitrary values written under their keys. None may throw; every diagnostic has a level, a
// message and a `path` string; a YAML syntax error is one positioned diagnostic; and whenever the
// text parsed and the diagnostic's path exists in the document, it has a numeric line and column
// inside the text.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isAlias, isMap, isScalar, isSeq, stringify, type Document } from 'yaml';
import { parseHooksConfig } from '../../src/config/hooks.js';
import { formatPath, parseConfigText, type ConfigPath, type ConfigSource } from '../../src/config/source.js';
import { parseDialectsConfig } from '../../src/config/dialects.js';
import { EVENT_NAMES } from '../../src/events.js';
import { parseGuardrailsConfig } from '../../src/guardrails/config.js';
import { parseOutboundConfig } from '../../src/outbound/config.js';
import { parsePluginsConfig } from '../../src/plugins/config.js';
import type { Diagnostic } from '../../src/types.js';

const FILE = '/fuzz/config.yaml';
const ENV = { HOOK_SECRET: 's3cret' } as NodeJS.ProcessEnv;

/** Every parser, as createHookEngine runs them; each must return, never throw. */
function allDiagnostics(source: ConfigSource): Diagnostic[] {
  return [
    ...parseHooksConfig(source).diagnostics,
    ...parseOutboundConfig(source, ENV).diagnostics,
    ...parseGuardrailsConfig(source).diagnostics,
    ...parsePluginsConfig(source).diagnostics,
    ...parseDialectsConfig(source).diagnostics,
  ];
}

/** The formatted path of every node in the document (through aliases), as diagnostics print them. */
function existingPaths(doc: Document | null): Set<string> {
  const out = new Set<string>();
  if (!doc) return out;
  const walk = (node: unknown, path: ConfigPath, depth: number): void => {
    if (depth > 12) return;
    out.add(formatPath(path));
    if (isAlias(node)) return walk(node.resolve(doc), path, depth + 1);
    if (isMap(node)) {
      for (const pair of node.items) {
        if (isScalar(pair.key)) walk(pair.value, [...path, String(pair.key.value)], depth + 1);
      }
    } else if (isSeq(node)) {
      node.items.forEach((item, i) => walk(item, [...path, i], depth + 1));
    }
  };
  if (doc.contents) walk(doc.contents, [], 0);
  return out;
}

function check(text: string): void {
  const source = parseConfigText(text, FILE);
  let diagnostics: Diagnostic[];
  try {
    diagnostics = allDiagnostics(source);
  } catch (e) {
    throw new Error(`a config parser threw on ${JSON.stringify(text)}: ${(e as Error)?.stack ?? e}`);
  }
  const lines = text.split(/\r\n|\r|\n/).length;
  const isPos = (n: unknown): boolean => typeof n === 'number' && Number.isInteger(n) && n >= 1;
  for (const d of diagnostics) {
    const where = `${JSON.stringify(d)} for ${JSON.stringify(text)}`;
    expect(['error', 'warning', 'info'], where).toContain(d.level);
    expect(typeof d.path, where).toBe('string');
    expect(typeof d.message === 'string' && d.message.length > 0, where).toBe(true);
    expect(d.message, where).not.toMatch(/^internal error/);
    expect(d.line === null || isPos(d.line), where).toBe(true);
    expect(d.column === null || isPos(d.column), where).toBe(true);
    if (d.line !== null) expect(d.line, where).toBeLessThanOrEqual(lines + 1);
  }
  if (source.syntaxError) {
    // An unparsable file says so once, with a position, and nothing else is made up from it.
    expect(diagnostics, text).toEqual([source.syntaxError]);
    expect(source.syntaxError.path).toBe('');
    if (source.syntaxError.message.startsWith('YAML syntax error')) {
      expect(isPos(source.syntaxError.line) && isPos(source.syntaxError.column), JSON.stringify(source.syntaxError)).toBe(true);
    }
    return;
  }
  const paths = existingPaths(source.doc);
  for (const d of diagnostics) {
    if (d.path !== '' && paths.has(d.path)) {
      expect(isPos(d.line) && isPos(d.column), `${JSON.stringify(d)} for ${JSON.stringify(text)}`).toBe(true);
    }
  }
}

const FRAGMENTS = [
  'hooks:',
  'hooks_auto_accept: yes',
  'outbound:',
  'tool_loop_guardrails:',
  'plugins:',
  'dialects:',
  'enabled:',
  'disabled:',
  'hook_callback_timeout: ',
  'warn_after:',
  'hard_stop_after:',
  'warnings_enabled: ',
  'exact_failure: ',
  'claude:',
  'codex:',
  'tools:',
  'events:',
  'url: ',
  'http://127.0.0.1:9/x',
  'secret: ',
  '${HOOK_SECRET}',
  'headers:',
  'timeout: ',
  'retries: ',
  '\n',
  '\n  ',
  '\n    ',
  '\n      ',
  '  ',
  '- ',
  'command: ',
  'matcher: ',
  'fail_closed: ',
  'failClosed: ',
  'dialect: ',
  'pre_tool_call:',
  'post_tool_call:',
  'pre_tool_cal:',
  'on_session_start:',
  '1:',
  '~',
  'null',
  'true',
  'yes',
  'no',
  '"x"',
  "'y'",
  '/x.sh',
  '[',
  ']',
  '{',
  '}',
  ',',
  ':',
  '&a ',
  '*a',
  '<<: *a',
  '!!str ',
  '!!binary ',
  '!!set ',
  '!!omap ',
  '!custom ',
  '? ',
  '|',
  '>',
  '#',
  '"',
  "'",
  '\t',
  '30',
  '-1',
  '0',
  '2.5',
  '1e3',
  '.inf',
  '.nan',
  '2024-01-01',
  '(?P<x>a)',
  '[abc',
  '\\q',
  '---',
  '...',
  '%YAML 1.1',
  '\ufeff',
  '\u0000',
  'é',
  '😀',
];

describe('config parsers under fuzzing', () => {
  it('arbitrary YAML-ish text: never throw, diagnostics are positioned', () => {
    const text = fc.oneof(
      fc.array(fc.constantFrom(...FRAGMENTS), { maxLength: 50 }).map((parts) => parts.join('')),
      fc.string({ maxLength: 200 }),
      fc.string({ unit: 'binary', maxLength: 100 }),
    );
    fc.assert(fc.property(text, check), { numRuns: 1500 });
  }, 120_000);

  it('arbitrary values under every key the parsers read: never throw, diagnostics are positioned', () => {
    const value = fc.oneof(
      { depthSize: 'small' },
      fc.anything({ maxDepth: 3 }),
      fc.jsonValue({ maxDepth: 3 }),
      fc.constantFrom<unknown>(null, true, 0, -1, 1.5, '', 'x', [], {}, [null], { url: 'http://127.0.0.1:1/' }),
    );
    const hookEntry = fc.oneof(
      value,
      fc.record({ command: value, matcher: value, timeout: value, fail_closed: value, failClosed: value, dialect: value }, { requiredKeys: [] }),
    );
    const eventKey = fc.oneof(fc.constantFrom(...EVENT_NAMES, 'outbound', 'output_spill', 'pre_tool_cal'), fc.string({ maxLength: 12 }));
    const hooks = fc.oneof(value, fc.dictionary(eventKey, fc.oneof(fc.array(hookEntry, { maxLength: 4 }), value), { maxKeys: 4 }));
    const outbound = fc.oneof(
      value,
      fc.array(
        fc.oneof(
          value,
          fc.record(
            {
              url: fc.oneof(value, fc.constantFrom('http://127.0.0.1:9/h', 'https://localhost/x', 'ftp://x', 'not a url')),
              events: fc.oneof(value, fc.array(fc.oneof(fc.constantFrom(...EVENT_NAMES, '*', 'nope'), value), { maxLength: 3 })),
              secret: fc.oneof(value, fc.constantFrom('${HOOK_SECRET}', '${MISSING}', 'plain')),
              timeout: value,
              headers: value,
            },
            { requiredKeys: [] },
          ),
        ),
        { maxLength: 3 },
      ),
    );
    const counts = fc.oneof(
      value,
      fc.dictionary(fc.oneof(fc.constantFrom('exact_failure', 'cycle', 'bogus'), fc.string({ maxLength: 6 })), value, { maxKeys: 3 }),
    );
    const guardrails = fc.oneof(
      value,
      fc.record(
        {
          warnings_enabled: value,
          hard_stop_enabled: value,
          non_interactive_hard_stop_enabled: value,
          warn_after: counts,
          hard_stop_after: counts,
          typo: value,
        },
        { requiredKeys: [] },
      ),
    );
    const plugins = fc.oneof(value, fc.record({ enabled: value, disabled: value, hook_callback_timeout: value }, { requiredKeys: [] }));
    const nameMap = fc.oneof(value, fc.dictionary(fc.string({ maxLength: 8 }), value, { maxKeys: 3 }));
    const dialects = fc.oneof(
      value,
      fc.dictionary(
        fc.oneof(fc.constantFrom('claude', 'codex', 'gemini', 'cursor', 'hermes', 'other'), fc.string({ maxLength: 6 })),
        fc.oneof(value, fc.record({ tools: nameMap, events: nameMap }, { requiredKeys: [] })),
        { maxKeys: 3 },
      ),
    );
    const config = fc.record({ hooks, outbound, hooks_auto_accept: value, tool_loop_guardrails: guardrails, plugins, dialects }, { requiredKeys: [] });
    fc.assert(
      fc.property(config, ({ outbound: ob, ...rest }) => {
        const root: Record<string, unknown> = { ...rest };
        if (ob !== undefined) {
          root.hooks = root.hooks !== null && typeof root.hooks === 'object' && !Array.isArray(root.hooks) ? { ...root.hooks, outbound: ob } : { outbound: ob };
        }
        let text: string;
        try {
          text = stringify(root);
        } catch {
          return; // a value the yaml package cannot write is no config anyone has
        }
        check(text);
      }),
      { numRuns: 400 },
    );
  }, 120_000);
});
