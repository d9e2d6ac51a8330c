import { describe, expect, it } from 'vitest';
import { parseConfigText } from '../../src/config/source.js';
import { DEFAULT_GUARDRAILS_CONFIG, parseGuardrailsConfig } from '../../src/guardrails/config.js';

const FILE = '/home/u/.hermes/config.yaml';
const parse = (yaml: string) => parseGuardrailsConfig(parseConfigText(yaml, FILE));

describe('parseGuardrailsConfig', () => {
  it('defaults when the section is absent, null, or the file is empty', () => {
    for (const yaml of ['', 'model: x\n', 'tool_loop_guardrails:\n', '- 1\n']) {
      const r = parse(yaml);
      expect(r.config).toEqual(DEFAULT_GUARDRAILS_CONFIG);
      expect(r.diagnostics).toEqual([]);
    }
    expect(DEFAULT_GUARDRAILS_CONFIG).toEqual({
      warnings_enabled: true,
      hard_stop_enabled: false,
      non_interactive_hard_stop_enabled: true,
      warn_after: { exact_failure: 2, idempotent_no_progress: 2, same_tool_failure: 3, cycle: 3 },
      hard_stop_after: { exact_failure: 5, idempotent_no_progress: 5, same_tool_failure: 8, cycle: 5 },
    });
  });

  it("reads the seed's hard-stop example, keeping defaults for what it leaves out", () => {
    const r = parse(
      ['tool_loop_guardrails:', '  hard_stop_enabled: true', '  hard_stop_after:', '    exact_failure: 5', '    idempotent_no_progress: 5', ''].join('\n'),
    );
    expect(r.diagnostics).toEqual([]);
    expect(r.config).toEqual({ ...DEFAULT_GUARDRAILS_CONFIG, hard_stop_enabled: true });
  });

  it('reads every setting; YAML 1.1 yes/no are booleans', () => {
    const r = parse(
      [
        'tool_loop_guardrails:',
        '  warnings_enabled: no',
        '  hard_stop_enabled: yes',
        '  non_interactive_hard_stop_enabled: false',
        '  warn_after: {exact_failure: 1, idempotent_no_progress: 3, same_tool_failure: 4, cycle: 2}',
        '  hard_stop_after: {exact_failure: 3, idempotent_no_progress: 6, same_tool_failure: 9, cycle: 4}',
      ].join('\n'),
    );
    expect(r.diagnostics).toEqual([]);
    expect(r.config).toEqual({
      warnings_enabled: false,
      hard_stop_enabled: true,
      non_interactive_hard_stop_enabled: false,
      warn_after: { exact_failure: 1, idempotent_no_progress: 3, same_tool_failure: 4, cycle: 2 },
      hard_stop_after: { exact_failure: 3, idempotent_no_progress: 6, same_tool_failure: 9, cycle: 4 },
    });
  });

  it('falls back to defaults with positioned warnings for bad values and unknown keys', () => {
    const r = parse(
      [
        'tool_loop_guardrails:', // 1
        '  hard_stop_enabled: "yes"', // 2
        '  hard_stop_enable: true', // 3
        '  warn_after:', // 4
        '    exact_failure: 0', // 5
        '    cycles: 4', // 6
        '    same_tool_failure: 2.5', // 7
        '  hard_stop_after:', // 8
        '    cycle: "5"', // 9
        '    same_tool_failure: 5000', // 10
      ].join('\n'),
    );
    expect(r.config.hard_stop_enabled).toBe(false);
    expect(r.config.warn_after).toEqual(DEFAULT_GUARDRAILS_CONFIG.warn_after);
    expect(r.config.hard_stop_after).toEqual({ ...DEFAULT_GUARDRAILS_CONFIG.hard_stop_after, same_tool_failure: 1000 });
    expect(r.diagnostics.map((d) => [d.path, d.line, d.column, d.level])).toEqual([
      ['tool_loop_guardrails.hard_stop_enable', 3, 3, 'warning'],
      ['tool_loop_guardrails.hard_stop_enabled', 2, 22, 'warning'],
      ['tool_loop_guardrails.warn_after.exact_failure', 5, 20, 'warning'],
      ['tool_loop_guardrails.warn_after.cycles', 6, 5, 'warning'],
      ['tool_loop_guardrails.warn_after.same_tool_failure', 7, 24, 'warning'],
      ['tool_loop_guardrails.hard_stop_after.cycle', 9, 12, 'warning'],
      ['tool_loop_guardrails.hard_stop_after.same_tool_failure', 10, 24, 'warning'],
    ]);
    const m = r.diagnostics.map((d) => d.message);
    expect(m[0]).toBe("tool_loop_guardrails.hard_stop_enable is not a guardrail setting — did you mean 'hard_stop_enabled'?; ignoring");
    expect(m[1]).toBe("tool_loop_guardrails.hard_stop_enabled must be a boolean (got 'yes'); using default false");
    expect(m[2]).toBe('tool_loop_guardrails.warn_after.exact_failure must be a positive integer (got 0); using default 2');
    expect(m[3]).toContain("did you mean 'cycle'?");
    expect(m[6]).toContain('exceeds max 1000; clamping');
    expect(r.diagnostics.every((d) => d.file === FILE)).toBe(true);
  });

  it('warns when a warning threshold is not below its stop threshold', () => {
    const r = parse(['tool_loop_guardrails:', '  warn_after:', '    cycle: 6'].join('\n'));
    expect(r.config.warn_after.cycle).toBe(6);
    expect(r.diagnostics).toEqual([
      expect.objectContaining({
        path: 'tool_loop_guardrails.warn_after.cycle',
        line: 3,
        message: expect.stringContaining('warn_after.cycle (6) is not below hard_stop_after.cycle (5)'),
      }),
    ]);
  });

  it('warns when the section or a count table is not a mapping', () => {
    const a = parse('tool_loop_guardrails: true\n');
    expect(a.config).toEqual(DEFAULT_GUARDRAILS_CONFIG);
    expect(a.diagnostics[0]).toMatchObject({ path: 'tool_loop_guardrails', line: 1, column: 23 });
    expect(a.diagnostics[0]!.message).toBe('tool_loop_guardrails must be a mapping; got bool; using defaults');
    const b = parse('tool_loop_guardrails:\n  warn_after: [1, 2]\n');
    expect(b.diagnostics.map((d) => d.path)).toEqual(['tool_loop_guardrails.warn_after']);
  });
});
