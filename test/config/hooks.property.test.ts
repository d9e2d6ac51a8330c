import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { parseHooksConfig, type ParsedHooksConfig } from '../../src/config/hooks.js';
import { parseConfigText } from '../../src/config/source.js';
import { EVENT_NAMES } from '../../src/events.js';

function checkInvariants(r: ParsedHooksConfig): void {
  expect(typeof r.autoAccept).toBe('boolean');
  for (const d of r.diagnostics) {
    expect(['error', 'warning', 'info']).toContain(d.level);
    expect(typeof d.path).toBe('string');
    expect(typeof d.message).toBe('string');
    // The parser's last-resort catch must never be what handled an input.
    expect(d.message).not.toMatch(/^internal error/);
    expect(d.line === null || (Number.isInteger(d.line) && d.line >= 1)).toBe(true);
    expect(d.column === null || (Number.isInteger(d.column) && d.column >= 1)).toBe(true);
  }
  for (const s of r.specs) {
    expect(EVENT_NAMES).toContain(s.event);
    expect(s.command).toBe(s.command.trim());
    expect(s.command).not.toBe('');
    expect(Number.isInteger(s.timeout) && s.timeout >= 1 && s.timeout <= 300).toBe(true);
    if (s.fail_closed) expect(s.event).toBe('pre_tool_call');
    if (s.matcher !== null) expect(['pre_tool_call', 'post_tool_call']).toContain(s.event);
    expect(s.path).toBe(`hooks.${s.event}[${s.index}]`);
  }
  // Dedupe: no two specs share (event, matcher, command, dialect).
  const ids = r.specs.map((s) => JSON.stringify([s.event, s.matcher, s.command, s.dialect]));
  expect(new Set(ids).size).toBe(ids.length);
}

const FRAGMENTS = [
  'hooks:',
  'hooks_auto_accept: yes',
  '\n',
  '\n  ',
  '\n    ',
  '  ',
  '- ',
  'command: ',
  'matcher: ',
  'timeout: ',
  'fail_closed: ',
  'failClosed: ',
  'dialect: ',
  'pre_tool_call:',
  'post_tool_call:',
  'pre_tool_cal:',
  'outbound:',
  'on_session_start:',
  'transform_api_error_classification:',
  '1:',
  '~',
  'null',
  'true',
  'yes',
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
  '? ',
  '|',
  '>',
  '#',
  '"',
  "'",
  '\t',
  '30',
  '-1',
  '2.5',
  '.inf',
  '2024-01-01',
  '(?P<x>a)',
  '[abc',
  '\\q',
];

describe('parseHooksConfig never throws (property)', () => {
  it('on arbitrary YAML-ish text', () => {
    const yamlish = fc.oneof(
      fc.array(fc.constantFrom(...FRAGMENTS), { maxLength: 40 }).map((parts) => parts.join('')),
      fc.string({ maxLength: 200 }),
      fc.string({ unit: 'binary', maxLength: 80 }),
    );
    fc.assert(
      fc.property(yamlish, (text) => {
        const r = parseHooksConfig(parseConfigText(text, '/p/config.yaml'));
        checkInvariants(r);
      }),
      { numRuns: 1500 },
    );
  });

  it('on arbitrary values serialized under hooks:', () => {
    const entry = fc.oneof(
      fc.anything(),
      fc.record(
        {
          command: fc.oneof(fc.string(), fc.constant('/x.sh'), fc.anything()),
          matcher: fc.oneof(fc.string(), fc.constantFrom('terminal', '(?P<n>x)', '[bad', ' '), fc.anything()),
          timeout: fc.oneof(fc.integer(), fc.double(), fc.string(), fc.constantFrom('30', '1_000', '30.5'), fc.anything()),
          fail_closed: fc.oneof(fc.boolean(), fc.anything()),
          failClosed: fc.oneof(fc.boolean(), fc.anything()),
          dialect: fc.oneof(fc.constantFrom('hermes', 'claude', 'codex', 'gemini', 'cursor', 'other'), fc.anything()),
        },
        { requiredKeys: [] },
      ),
    );
    const eventKey = fc.oneof(fc.constantFrom(...EVENT_NAMES, 'outbound', 'output_spill', 'pre_tool_cal', 'Pre_Tool_Call'), fc.string());
    const hooks = fc.oneof(fc.anything(), fc.dictionary(eventKey, fc.oneof(fc.array(entry, { maxLength: 4 }), fc.anything()), { maxKeys: 5 }));
    fc.assert(
      fc.property(hooks, fc.anything(), (value, autoAccept) => {
        let text: string;
        try {
          text = stringify({ hooks: value, hooks_auto_accept: autoAccept });
        } catch {
          return; // a value yaml itself cannot write is not a config anyone has
        }
        const r = parseHooksConfig(parseConfigText(text, '/p/config.yaml'));
        checkInvariants(r);
      }),
      { numRuns: 600 },
    );
  });
});
