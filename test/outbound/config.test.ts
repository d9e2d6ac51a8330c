import { describe, expect, it } from 'vitest';
import { parseConfigText } from '../../src/config/source.js';
import { SORTED_EVENT_NAMES } from '../../src/events.js';
import { describeOutboundTarget, formatOutboundList } from '../../src/outbound/describe.js';
import { parseOutboundConfig } from '../../src/outbound/config.js';

const FILE = '/home/u/.hermes/config.yaml';

function parse(yaml: string, env: NodeJS.ProcessEnv = {}) {
  return parseOutboundConfig(parseConfigText(yaml, FILE), env);
}

function messages(r: ReturnType<typeof parse>): string[] {
  return r.diagnostics.map((d) => d.message);
}

describe('parseOutboundConfig', () => {
  it('reads a full entry with defaults applied', () => {
    const r = parse(
      [
        'hooks:',
        '  pre_tool_call:',
        '    - command: /x.sh',
        '  outbound:',
        '    - name: audit',
        '      url: "  https://hooks.example.com/h  "',
        '      events: [pre_tool_call, on_session_end]',
        '      matcher: " terminal|write_file "',
        '      secret: lit',
        '',
      ].join('\n'),
    );
    expect(r.diagnostics).toEqual([]);
    expect(r.targets).toHaveLength(1);
    expect(r.targets[0]).toMatchObject({
      name: 'audit',
      url: 'https://hooks.example.com/h',
      events: ['pre_tool_call', 'on_session_end'],
      matcher: 'terminal|write_file',
      timeout: 10,
      secret: 'lit',
      secret_source: 'secret',
      secret_env: null,
      index: 0,
      path: 'hooks.outbound[0]',
      line: 5,
      column: 7,
    });
  });

  it('returns nothing, silently, when hooks or hooks.outbound is absent or null', () => {
    for (const yaml of ['', 'hooks: {}\n', 'hooks:\n  outbound:\n', 'model: x\n', 'hooks: [1]\n', '- a\n']) {
      const r = parse(yaml);
      expect(r.targets, yaml).toEqual([]);
      expect(r.diagnostics, yaml).toEqual([]);
    }
  });

  it('warns with a position when hooks.outbound is not a list', () => {
    const r = parse('hooks:\n  outbound:\n    url: http://x\n');
    expect(r.targets).toEqual([]);
    expect(r.diagnostics).toEqual([expect.objectContaining({ level: 'warning', path: 'hooks.outbound', line: 3, column: 5, file: FILE })]);
    expect(messages(r)).toEqual(['hooks.outbound must be a list of webhook targets; got dict']);
  });

  it('skips entries that are not mappings or lack a url, and keeps the rest', () => {
    const r = parse(
      [
        'hooks:',
        '  outbound:',
        '    - just-a-string',
        '    - events: [on_session_start]',
        '    - url: "   "',
        '      events: [on_session_start]',
        '    - url: https://ok.example/',
        '      events: [on_session_start]',
      ].join('\n'),
    );
    expect(r.targets.map((t) => t.index)).toEqual([3]);
    expect(r.diagnostics.map((d) => [d.path, d.line])).toEqual([
      ['hooks.outbound[0]', 3],
      ['hooks.outbound[1]', 4],
      ['hooks.outbound[2].url', 5],
    ]);
    expect(messages(r)).toEqual([
      "hooks.outbound[0] must be a mapping with 'url' and 'events' keys; got str",
      "hooks.outbound[1] is missing a non-empty 'url' field; skipping",
      "hooks.outbound[2] is missing a non-empty 'url' field; skipping",
    ]);
  });

  it('accepts http(s) case-insensitively, refuses other schemes, warns on plain http', () => {
    const r = parse(
      [
        'hooks:',
        '  outbound:',
        '    - url: HTTPS://A.example/x',
        '      events: [on_session_start]',
        '    - url: ftp://b.example/',
        '      events: [on_session_start]',
        '    - url: Http://127.0.0.1:9/',
        '      events: [on_session_start]',
        '    - url: example.com/hook',
        '      events: [on_session_start]',
      ].join('\n'),
    );
    expect(r.targets.map((t) => t.url)).toEqual(['HTTPS://A.example/x', 'Http://127.0.0.1:9/']);
    expect(r.diagnostics.map((d) => [d.path, d.line, d.column])).toEqual([
      ['hooks.outbound[1].url', 5, 12],
      ['hooks.outbound[2].url', 7, 12],
      ['hooks.outbound[3].url', 9, 12],
    ]);
    expect(messages(r)).toEqual([
      "hooks.outbound[1].url must start with http:// or https:// (got 'ftp://b.example/'); skipping",
      'hooks.outbound[2].url uses plain http: deliveries (and their signatures) travel unencrypted',
      "hooks.outbound[3].url must start with http:// or https:// (got 'example.com/hook'); skipping",
    ]);
  });

  it('drops unknown events with a did-you-mean, skips entries left with none', () => {
    const r = parse(
      [
        'hooks:',
        '  outbound:',
        '    - url: https://a.example/',
        '      events: [pre_tool_cal, post_tool_call, post_tool_call, 42]',
        '    - url: https://b.example/',
        '      events: [nothing_like_an_event]',
        '    - url: https://c.example/',
        '      events: []',
        '    - url: https://d.example/',
        '      events: on_session_start',
      ].join('\n'),
    );
    expect(r.targets).toHaveLength(1);
    expect(r.targets[0]!.events).toEqual(['post_tool_call']);
    const m = messages(r);
    expect(m[0]).toBe("hooks.outbound[0].events[0]: unknown hook event 'pre_tool_cal' dropped — did you mean 'pre_tool_call'?");
    const valid = SORTED_EVENT_NAMES.join(', ');
    expect(valid.startsWith('agent_loop_stopped, api_request_error, ')).toBe(true);
    expect(m.slice(1)).toEqual([
      `hooks.outbound[0].events[3]: unknown hook event '42' dropped (valid: ${valid})`,
      `hooks.outbound[1].events[0]: unknown hook event 'nothing_like_an_event' dropped (valid: ${valid})`,
      'hooks.outbound[1] has no valid events; skipping',
      'hooks.outbound[2].events must be a non-empty list of event names; got an empty list; skipping',
      'hooks.outbound[3].events must be a non-empty list of event names; got str; skipping',
    ]);
    expect(r.diagnostics[0]).toMatchObject({ path: 'hooks.outbound[0].events[0]', line: 4, column: 16 });
  });

  it('keeps a matcher only when a tool event is listed; an invalid regex is kept as a literal', () => {
    const r = parse(
      [
        'hooks:',
        '  outbound:',
        '    - url: https://a.example/',
        '      events: [on_session_start]',
        '      matcher: terminal',
        '    - url: https://b.example/',
        '      events: [post_tool_call]',
        '      matcher: "term(inal"',
        '    - url: https://c.example/',
        '      events: [post_tool_call]',
        '      matcher: 12',
        '    - url: https://d.example/',
        '      events: [post_tool_call]',
        '      matcher: "   "',
      ].join('\n'),
    );
    expect(r.targets.map((t) => t.matcher)).toEqual([null, 'term(inal', null, null]);
    const m = messages(r);
    expect(m).toEqual([
      "hooks.outbound[0].matcher='terminal' will be ignored — the matcher field is only honored for pre_tool_call / post_tool_call, and none is listed in events.",
      // The regex engine's own words sit in the parentheses.
      expect.stringMatching(/^hooks\.outbound\[1\]\.matcher 'term\(inal' is invalid \(.+\) — treating as literal equality$/),
      'hooks.outbound[2].matcher must be a string regex; ignoring',
    ]);
  });

  it('defaults the timeout to 10, clamps to [1, 60], coerces like Python int()', () => {
    const yaml = ['hooks:', '  outbound:'];
    const values = ['0', '-5', '61', '"45"', '2.9', 'thirty', 'null', '30'];
    values.forEach((v, i) => yaml.push(`    - url: https://a.example/${i}`, '      events: [on_session_start]', `      timeout: ${v}`));
    yaml.push('    - url: https://a.example/other', '      events: [on_session_start]');
    const r = parse(yaml.join('\n'));
    expect(r.targets.map((t) => t.timeout)).toEqual([1, 1, 60, 45, 2, 10, 10, 30, 10]);
    const m = messages(r).filter((x) => x.includes('timeout'));
    expect(m).toEqual([
      'hooks.outbound[0].timeout=0s is below the minimum 1s; clamping',
      'hooks.outbound[1].timeout=-5s is below the minimum 1s; clamping',
      'hooks.outbound[2].timeout=61s exceeds max 60s; clamping',
      "hooks.outbound[5].timeout must be an int (got 'thirty'); using default 10s",
      'hooks.outbound[6].timeout must be an int (got None); using default 10s',
    ]);
  });

  it('secret_env wins over secret; an empty or unset variable means UNSIGNED with no fallback', () => {
    const yaml = [
      'hooks:',
      '  outbound:',
      '    - url: https://a.example/',
      '      events: [on_session_start]',
      '      secret_env: HOOK_SECRET',
      '      secret: literal',
      '    - url: https://b.example/',
      '      events: [on_session_start]',
      '      secret_env: EMPTY_SECRET',
      '      secret: literal',
      '    - url: https://c.example/',
      '      events: [on_session_start]',
      '      secret_env: MISSING_SECRET',
      '    - url: https://d.example/',
      '      events: [on_session_start]',
      '      secret: literal',
      '    - url: https://e.example/',
      '      events: [on_session_start]',
    ].join('\n');
    const r = parse(yaml, { HOOK_SECRET: 'from-env', EMPTY_SECRET: '' });
    expect(r.targets.map((t) => [t.secret, t.secret_source, t.secret_env])).toEqual([
      ['from-env', 'secret_env', 'HOOK_SECRET'],
      [null, null, 'EMPTY_SECRET'],
      [null, null, 'MISSING_SECRET'],
      ['literal', 'secret', null],
      [null, null, null],
    ]);
    expect(r.diagnostics.map((d) => [d.path, d.line, d.message])).toEqual([
      ['hooks.outbound[1].secret_env', 9, "hooks.outbound[1].secret_env: $EMPTY_SECRET is empty; deliveries will be UNSIGNED (no fallback to 'secret')"],
      ['hooks.outbound[2].secret_env', 13, "hooks.outbound[2].secret_env: $MISSING_SECRET is not set; deliveries will be UNSIGNED (no fallback to 'secret')"],
    ]);
  });

  it('warns about unknown fields (with a suggestion) and a non-string name', () => {
    const r = parse(
      ['hooks:', '  outbound:', '    - url: https://a.example/', '      events: [on_session_start]', '      secert: x', '      name: [1]'].join('\n'),
    );
    expect(r.targets).toHaveLength(1);
    expect(r.targets[0]!.name).toBeNull();
    expect(r.diagnostics.map((d) => [d.path, d.line, d.column])).toEqual([
      ['hooks.outbound[0].secert', 5, 7],
      ['hooks.outbound[0].name', 6, 13],
    ]);
    expect(messages(r)).toEqual([
      "hooks.outbound[0].secert is not an outbound webhook field — did you mean 'secret'?; ignoring",
      'hooks.outbound[0].name must be a string (got list); ignoring',
    ]);
  });

  it('dedupes on (event, url): a later entry loses the pairs already taken', () => {
    const r = parse(
      [
        'hooks:',
        '  outbound:',
        '    - url: https://a.example/',
        '      events: [pre_tool_call, post_tool_call]',
        '    - url: https://a.example/',
        '      events: [post_tool_call, on_session_end]',
        '    - url: " https://a.example/ "',
        '      events: [pre_tool_call]',
        '    - url: https://b.example/',
        '      events: [pre_tool_call]',
      ].join('\n'),
    );
    expect(r.targets.map((t) => [t.index, t.events])).toEqual([
      [0, ['pre_tool_call', 'post_tool_call']],
      [1, ['on_session_end']],
      [3, ['pre_tool_call']],
    ]);
    expect(messages(r)).toEqual([
      "hooks.outbound[1]: event 'post_tool_call' is already delivered to this url by hooks.outbound[0]; skipping the duplicate",
      "hooks.outbound[2]: event 'pre_tool_call' is already delivered to this url by hooks.outbound[0]; skipping the duplicate",
    ]);
  });

  it('formats the list section and summaries without the secret', () => {
    const r = parse(
      [
        'hooks:',
        '  outbound:',
        '    - name: audit',
        '      url: https://a.example/',
        '      events: [pre_tool_call, post_tool_call]',
        '      matcher: terminal',
        '      timeout: 5',
        '      secret: topsecret',
        '    - url: https://b.example/',
        '      events: [on_session_end]',
      ].join('\n'),
    );
    expect(formatOutboundList(r.targets)).toBe(
      [
        'Configured outbound webhooks (2 total):',
        '',
        '  - audit',
        '      url:     https://a.example/',
        "      events:  pre_tool_call, post_tool_call matcher='terminal' (timeout=5s, signed)",
        '  - https://b.example/',
        '      url:     https://b.example/',
        '      events:  on_session_end (timeout=10s, UNSIGNED)',
        '',
        '',
      ].join('\n'),
    );
    const summary = describeOutboundTarget(r.targets[0]!);
    expect(summary.signed).toBe(true);
    expect(JSON.stringify(summary)).not.toContain('topsecret');
    expect(formatOutboundList([])).toBe('');
  });
});
