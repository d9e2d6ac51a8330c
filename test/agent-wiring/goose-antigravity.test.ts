// Goose and Antigravity (issue 32), from their docs: their own gate event with their own stdin, as
// the docs show it, through the built CLI against a Hermes guard with `matcher: terminal` — `rm -rf /`
// blocked in their shape, `ls` allowed; a rewrite they cannot apply refused with what to run; hooks
// written for them run under `dialect:`; print-config, import and doctor --agent on their files.

import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { parse } from 'yaml';
import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_DIALECT_MAPS } from '../../src/dialects/names.js';
import { renderDialectAnswer } from '../../src/dialects/translate-call.js';
import { decision } from '../_dialect-fixtures.js';
import { runMain } from '../cli/_helpers.js';
import { approvedHome, BIN, baseEnv, cleanupTemps, makeHome, runWithStdin, tempDir, writeScript } from '../serve/_helpers.js';

afterAll(cleanupTemps);

/** Goose's PreToolUse stdin, field for field as its hooks docs show a tool event. */
const gooseStdin = (command: string, cwd: string): string =>
  JSON.stringify({
    event: 'PreToolUse',
    session_id: 'abc-123',
    matcher_context: 'developer__shell',
    tool_name: 'developer__shell',
    tool_input: { command },
    working_dir: cwd,
    tool_call_id: 'call-1',
  });

/** Antigravity's PreToolUse stdin: camelCase, the call nested, no event name. */
const agyStdin = (command: string, cwd: string): string =>
  JSON.stringify({
    conversationId: 'conv-1',
    stepIdx: 3,
    toolCall: { name: 'run_command', args: { CommandLine: command, Cwd: cwd } },
    transcriptPath: '/tmp/transcript.jsonl',
    workspacePaths: [cwd],
    artifactDirectoryPath: '/tmp/artifacts',
  });

/** A Hermes guard on the terminal tool: blocks `rm -rf`, rewrites `git push --force`, says nothing else. */
async function hermesGuard(): Promise<string> {
  const dir = tempDir('hh-goose-');
  const guard = writeScript(
    join(dir, 'guard.sh'),
    '#!/bin/sh\ninput=$(cat)\n' +
      'case "$input" in *"rm -rf"*) echo \'{"action":"block","message":"no rm -rf"}\';; ' +
      '*"push --force"*) echo \'{"action":"modify","args":{"command":"git push --force-with-lease"}}\';; esac\nexit 0\n',
  );
  return approvedHome({ pre_tool_call: [{ command: guard, matcher: 'terminal' }] });
}

/** The built CLI, as the agent would start it. */
const runBuilt = (args: string[], stdin: string) => runWithStdin(process.execPath, [BIN, ...args], stdin, baseEnv());

describe('Goose: run PreToolUse --dialect goose (built CLI)', () => {
  it('rm -rf / is blocked as {"decision":"block"}, ls allowed explicitly, a rewrite refused with what to run', async () => {
    const home = await hermesGuard();
    const cwd = tempDir('hh-goose-cwd-');
    const run = (command: string) => runBuilt(['run', 'PreToolUse', '--dialect', 'goose', '--home', home], gooseStdin(command, cwd));
    const rm = await run('rm -rf /');
    expect([rm.code, JSON.parse(rm.stdout)], rm.stderr).toEqual([0, { decision: 'block', reason: 'no rm -rf' }]);
    const ls = await run('ls');
    expect([ls.code, JSON.parse(ls.stdout)], ls.stderr).toEqual([0, { decision: 'allow' }]);
    const push = await run('git push --force');
    expect(JSON.parse(push.stdout)).toEqual({
      decision: 'block',
      reason: "hermes-hooks rewrote this call, but Goose's PreToolUse cannot apply rewrites; run it as: git push --force-with-lease",
    });
  });
});

describe('Antigravity: run PreToolUse --dialect antigravity (built CLI)', () => {
  it('rm -rf / is denied, ls allowed with an explicit decision (agy fails closed without one), a rewrite denied', async () => {
    const home = await hermesGuard();
    const cwd = tempDir('hh-agy-cwd-');
    const run = (command: string) => runBuilt(['run', 'PreToolUse', '--dialect', 'antigravity', '--home', home], agyStdin(command, cwd));
    const rm = await run('rm -rf /');
    expect([rm.code, JSON.parse(rm.stdout)], rm.stderr).toEqual([0, { decision: 'deny', reason: 'no rm -rf' }]);
    const ls = await run('ls');
    expect([ls.code, JSON.parse(ls.stdout)], ls.stderr).toEqual([0, { decision: 'allow' }]);
    const push = await run('git push --force');
    expect(JSON.parse(push.stdout)).toEqual({
      decision: 'deny',
      reason: 'hermes-hooks rewrote this call, but Antigravity cannot apply rewrites; run it as: git push --force-with-lease',
    });
    // PostToolUse, an event that decides nothing, still carries a decision.
    const post = await runBuilt(['run', 'PostToolUse', '--dialect', 'antigravity', '--home', home], agyStdin('ls', cwd));
    expect(JSON.parse(post.stdout)).toEqual({ decision: 'allow' });
  });
});

describe('what neither can say is never sent as a go-ahead', () => {
  it('an approve: Goose blocks saying it cannot ask; Antigravity asks with force_ask (plain ask would honour its Always-Allow cache)', () => {
    const approve = decision('pre_tool_call', 'approve', { message: 'Check this' });
    const goose = renderDialectAnswer('goose', DEFAULT_DIALECT_MAPS, 'PreToolUse', approve, 'terminal');
    expect(JSON.parse(goose.stdout)).toEqual({
      decision: 'block',
      reason: 'Check this (Goose hooks cannot ask for approval, so hermes-hooks blocks the call)',
    });
    const agy = renderDialectAnswer('antigravity', DEFAULT_DIALECT_MAPS, 'PreToolUse', approve, 'terminal');
    expect(JSON.parse(agy.stdout)).toEqual({ decision: 'force_ask', reason: 'Check this' });
  });

  it('a Stop continue: Goose keeps the turn going with decision block; Antigravity has no way and says allow', () => {
    const more = decision('pre_verify', 'continue', { message: 'run the tests' });
    expect(JSON.parse(renderDialectAnswer('goose', DEFAULT_DIALECT_MAPS, 'Stop', more, null).stdout)).toEqual({ decision: 'block', reason: 'run the tests' });
    expect(JSON.parse(renderDialectAnswer('antigravity', DEFAULT_DIALECT_MAPS, 'Stop', more, null).stdout)).toEqual({ decision: 'allow' });
  });
});

describe('hooks written for them, under dialect:', () => {
  it('a Goose hook sees event + developer__shell and blocks by exit 2; an Antigravity hook sees toolCall.args.CommandLine and denies', async () => {
    const dir = tempDir('hh-goose-hook-');
    const goose = writeScript(
      join(dir, 'goose.sh'),
      '#!/bin/sh\ninput=$(tr -d " ")\ncase "$input" in *\'"event":"PreToolUse"\'*\'"tool_name":"developer__shell"\'*\'rm-rf\'*) ' +
        'echo "goose says no" >&2; exit 2;; esac\nexit 0\n',
    );
    const agy = writeScript(
      join(dir, 'agy.sh'),
      '#!/bin/sh\ninput=$(tr -d " ")\ncase "$input" in *\'"toolCall":{"name":"run_command","args":{"CommandLine":"rm-rf\'*) ' +
        'echo \'{"decision":"deny","reason":"agy says no"}\';; *) echo \'{"decision":"allow"}\';; esac\n',
    );
    for (const [dialect, hook, reason] of [
      ['goose', goose, 'goose says no'],
      ['antigravity', agy, 'agy says no'],
    ] as const) {
      const home = await approvedHome({ pre_tool_call: [{ command: hook, dialect, matcher: 'terminal' }] });
      const test = (command: string) =>
        runMain(['test', 'pre_tool_call', '--json', '--home', home], { stdin: JSON.stringify({ tool_name: 'terminal', tool_input: { command } }) });
      const rm = JSON.parse((await test('rm -rf /')).stdout) as { decision: { action: string; message: string } };
      expect([dialect, rm.decision.action, rm.decision.message]).toEqual([dialect, 'block', reason]);
      expect([dialect, (await test('ls')).code]).toEqual([dialect, 0]);
    }
  });
});

describe('print-config, import and doctor --agent', () => {
  it('print-config goose: a plugin hooks.json with the .* matcher and on_failure: block on PreToolUse; --run calls run --dialect goose', async () => {
    const home = await hermesGuard();
    const printed = await runMain(['print-config', 'goose', '--home', home]);
    expect(printed.code, printed.stderr).toBe(0);
    const gate = (JSON.parse(printed.stdout) as { hooks: Record<string, { matcher?: string; hooks: Record<string, unknown>[] }[]> }).hooks['PreToolUse']![0]!;
    expect([gate.matcher, gate.hooks[0]!['on_failure'], gate.hooks[0]!['type']]).toEqual(['.*', 'block', 'command']);
    expect(printed.stderr).toContain('.agents/plugins/hermes-hooks/');
    const run = JSON.stringify(JSON.parse((await runMain(['print-config', 'goose', '--run', '--home', home])).stdout));
    expect(run).toContain('run PreToolUse --dialect goose');
    const agy = JSON.parse((await runMain(['print-config', 'antigravity', '--home', home])).stdout) as { hooks: Record<string, { matcher: string }[]> };
    expect(agy.hooks['PreToolUse']![0]!.matcher).toBe('');
  });

  it('import: a Goose plugin hooks.json keeps on_failure: block as fail_closed and its guard then blocks rm -rf /', async () => {
    const dir = tempDir('hh-goose-import-');
    const guard = writeScript(join(dir, 'guard.sh'), `#!/bin/sh\ngrep -q 'rm -rf' && { echo "not that" >&2; exit 2; }\nexit 0\n`);
    const file = join(dir, '.agents/plugins/safety/hooks/hooks.json');
    mkdirSync(dirname(file), { recursive: true });
    const handler = { type: 'command', command: guard, timeout: 10, on_failure: 'block' };
    writeFileSync(file, JSON.stringify({ hooks: { PreToolUse: [{ matcher: 'developer__shell', hooks: [handler] }] } }));
    const home = makeHome('hooks: {}\n');
    const imported = await runMain(['import', file, '--dialect', 'goose', '--write', '--home', home]);
    expect(imported.code, imported.stderr).toBe(0);
    const hook = (parse(readFileSync(join(home, 'config.yaml'), 'utf8')) as { hooks: Record<string, Record<string, unknown>[]> }).hooks['pre_tool_call']![0]!;
    expect([hook['dialect'], hook['fail_closed'], hook['timeout']]).toEqual(['goose', true, 10]);
    expect((await runMain(['approve', '--all', '--home', home])).code).toBe(0);
    const test = (command: string) =>
      runMain(['test', 'pre_tool_call', '--json', '--home', home], { stdin: JSON.stringify({ tool_name: 'terminal', tool_input: { command } }) });
    expect(JSON.parse((await test('rm -rf /')).stdout).decision).toMatchObject({ action: 'block', message: 'not that' });
    expect((await test('ls')).code).toBe(0);
  });

  it('doctor --agent goose: the printed plugin hooks.json is healthy; without on_failure the gate fails open; a "*" matcher guards nothing', async () => {
    const home = await hermesGuard();
    const printed = (await runMain(['print-config', 'goose', '--home', home])).stdout;
    const user = tempDir('hh-goose-user-');
    const file = join(user, '.agents/plugins/hermes-hooks/hooks/hooks.json');
    mkdirSync(dirname(file), { recursive: true });
    const doctor = async () => {
      const r = await runMain(['doctor', '--agent', 'goose', '--home', home, '--project', tempDir('hh-goose-project-'), '--json'], {
        env: { PATH: process.env.PATH, HOME: user, LANG: 'C.UTF-8' },
      });
      const report = JSON.parse(r.stdout) as {
        general: { ok: boolean | null; message: string }[];
        entries: { checks: { ok: boolean | null; message: string }[] }[];
      };
      return [...report.general, ...report.entries.flatMap((e) => e.checks)].filter((c) => c.ok !== true).map((c) => c.message);
    };
    writeFileSync(file, printed);
    const healthy = await doctor();
    expect(healthy.join('\n')).not.toContain('on_failure');
    writeFileSync(file, printed.replace(/,\s*"on_failure": "block"/, ''));
    expect((await doctor()).join('\n')).toContain('no "on_failure": "block" — if the command cannot start or times out, Goose lets the call through');
    // A bare "*" is a bad regex to Goose, which skips the whole rule: no tool reaches the guards.
    writeFileSync(file, printed.replace('"matcher": ".*"', '"matcher": "*"'));
    expect((await doctor()).join('\n')).toContain('matcher "*" skips developer__shell, developer__write, developer__edit');
    expect((await doctor()).join('\n')).toContain('use ".*" (the profile\'s own matchers pick the tools)');
  });
});
