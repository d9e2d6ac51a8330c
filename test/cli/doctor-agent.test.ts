// `hermes-hooks doctor --agent X` (issue 16): real agent config files in temp HOME and project dirs,
// in-process main(). Each mistake that makes an agent skip hermes-hooks or let calls through is a ✗
// with its fix and exit 1; what print-config prints, put where it says, passes.

import { chmodSync, mkdirSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { AGENT_DIALECTS } from '../../src/dialects/agents/index.js';
import { BIN, cleanupTemps, makeHome, runMain, tempDir } from './_helpers.js';

afterAll(cleanupTemps);

const NODE = process.execPath;
const GOOD = (agent: string, event: string, hh: string): string => `${NODE} ${BIN} run ${event} --dialect ${agent} --home ${hh}`;

interface Setup {
  home: string;
  project: string;
  hh: string;
}

/** A user HOME, a project folder and a Hermes profile whose pre_tool_call hook may take `timeout` s. */
function setup(timeout = 30): Setup {
  const root = tempDir('hh-agent-');
  const home = join(root, 'home');
  const project = join(root, 'project');
  mkdirSync(home);
  mkdirSync(project);
  // A hook on every other event too: print-config wires only the events the profile has hooks for.
  const others = ['post_tool_call', 'pre_llm_call', 'pre_verify', 'on_session_end', 'subagent_start', 'subagent_stop']
    .map((e) => `  ${e}:\n    - command: /bin/true\n      timeout: 1\n`)
    .join('');
  const hh = makeHome(`hooks:\n  pre_tool_call:\n    - command: /bin/true\n      timeout: ${timeout}\n${others}`);
  return { home, project, hh };
}

function put(file: string, content: unknown): string {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, typeof content === 'string' ? content : JSON.stringify(content, null, 2));
  return file;
}

async function doctor(s: Setup, agent: string, extra: string[] = []) {
  const r = await runMain(['doctor', '--agent', agent, '--home', s.hh, '--project', s.project, '--json', ...extra], {
    env: { PATH: process.env.PATH, HOME: s.home, LANG: 'C.UTF-8' },
  });
  const report = JSON.parse(r.stdout) as {
    healthy: boolean;
    problems: number;
    general: { ok: boolean | null; message: string }[];
    entries: { file: string; at: string; event: string; command: string; checks: { ok: boolean | null; message: string }[] }[];
  };
  const problems = [...report.general, ...report.entries.flatMap((e) => e.checks)].filter((c) => c.ok === false).map((c) => c.message);
  return { code: r.code, report, problems };
}

/** What `print-config AGENT --run --home HH` prints, as JSON. */
async function printed(agent: string, hh: string): Promise<Record<string, unknown>> {
  const r = await runMain(['print-config', agent, '--run', '--home', hh]);
  expect(r.code).toBe(0);
  return JSON.parse(r.stdout) as Record<string, unknown>;
}

const codexGroup = (command: string, extra: Record<string, unknown> = {}) => ({
  hooks: { PreToolUse: [{ matcher: '*', hooks: [{ type: 'command', command, timeout: 310, ...extra }] }] },
});

describe('Codex', () => {
  it('a hooks.json with an npx command: ✗ naming npx and the fix, plus no trust record; exit 1', async () => {
    const s = setup();
    const file = put(join(s.home, '.codex/hooks.json'), codexGroup('npx --no hermes-hooks run PreToolUse --dialect codex'));
    const { code, problems, report } = await doctor(s, 'codex');
    expect(code).toBe(1);
    expect(report.entries.map((e) => [e.file, e.at])).toEqual([[file, 'hooks.PreToolUse[0].hooks[0]']]);
    expect(problems).toEqual([
      'runs through npx: ~1.2 s per call, and outside a project with hermes-hooks installed npx exits 1, which Codex reads as "go ahead" — every guard fails open. \'hermes-hooks print-config codex\' prints the absolute command.',
      `not trusted: ${join(s.home, '.codex/config.toml')} does not exist, so no trust is recorded and Codex skips this hook without a word — trust it in the interactive codex with /hooks, or run codex with --dangerously-bypass-hook-trust`,
    ]);
  });

  it("print-config's snippet in ~/.codex/hooks.json: only the missing trust is ✗; a trust record makes it pass (with a caveat); enabled = false is ✗", async () => {
    const s = setup();
    const file = put(join(s.home, '.codex/hooks.json'), await printed('codex', s.hh));
    const untrusted = await doctor(s, 'codex');
    expect(untrusted.code).toBe(1);
    expect(untrusted.problems).toHaveLength(5); // one per wired event, none other
    for (const p of untrusted.problems)
      expect(p).toMatch(/^not trusted: .*config\.toml does not exist, so no trust is recorded and Codex skips this hook without a word/);

    const states = ['pre_tool_use', 'post_tool_use', 'user_prompt_submit', 'stop', 'session_start']
      .map((ev) => `[hooks.state."${file}:${ev}:0:0"]\ntrusted_hash = "sha256:abc"\n`)
      .join('\n');
    put(join(s.home, '.codex/config.toml'), `model = "gpt-5-codex"\n\n${states}`);
    const trusted = await doctor(s, 'codex');
    expect(trusted.problems).toEqual([]);
    expect(trusted.code).toBe(0);
    const pre = trusted.report.entries.find((e) => e.event === 'PreToolUse')!;
    expect(pre.checks.at(-1)).toEqual({
      ok: null,
      message: `trust recorded in ${join(s.home, '.codex/config.toml')}; cannot verify it still matches this entry (any edit makes it "modified" and Codex skips it) — if unsure, open /hooks`,
    });

    put(join(s.home, '.codex/config.toml'), states.replace('trusted_hash = "sha256:abc"', 'trusted_hash = "sha256:abc"\nenabled = false'));
    const disabled = await doctor(s, 'codex');
    expect(disabled.problems).toEqual([`disabled in ${join(s.home, '.codex/config.toml')} (enabled = false): Codex does not run it — enable it in /hooks`]);
  });

  it('trust keyed by the real path counts when HOME is a symlink (Codex canonicalizes the hooks file path)', async () => {
    const s = setup();
    const link = join(dirname(s.home), 'home-link');
    symlinkSync(s.home, link);
    put(join(s.home, '.codex/hooks.json'), codexGroup(GOOD('codex', 'PreToolUse', s.hh)));
    put(
      join(s.home, '.codex/config.toml'),
      `[hooks.state]\n"${realpathSync(join(s.home, '.codex/hooks.json'))}:pre_tool_use:0:0" = { trusted_hash = "sha256:1" }\n`,
    );
    const r = await runMain(['doctor', '--agent', 'codex', '--home', s.hh, '--project', s.project, '--json'], { env: { PATH: process.env.PATH, HOME: link } });
    expect(r.code).toBe(0);
    const report = JSON.parse(r.stdout) as { entries: { file: string; checks: { ok: boolean | null; message: string }[] }[] };
    expect(report.entries[0]!.file).toBe(join(link, '.codex/hooks.json'));
    expect(report.entries[0]!.checks.at(-1)!.message).toMatch(/^trust recorded in /);
  });

  it('a snippet pasted into ~/.codex/settings.json: ✗ wrong file, and nothing wired', async () => {
    const s = setup();
    put(join(s.home, '.codex/settings.json'), await printed('codex', s.hh));
    const { code, problems } = await doctor(s, 'codex');
    expect(code).toBe(1);
    expect(problems).toEqual([
      `${join(s.home, '.codex/settings.json')} has 5 hermes-hooks entries, but Codex never reads that file: move them to ~/.codex/hooks.json.`,
      `no hermes-hooks entry in ${join(s.home, '.codex/hooks.json')} or ${join(s.project, '.codex/hooks.json')}: Codex runs none of the profile's hooks. Wire it with 'hermes-hooks print-config codex'.`,
    ]);
  });
});

describe('Claude Code', () => {
  it("print-config's snippet in .claude/settings.json passes; workspace trust is said to be unverifiable", async () => {
    const s = setup();
    put(join(s.project, '.claude/settings.json'), { permissions: { allow: [] }, ...(await printed('claude', s.hh)) });
    const { code, report } = await doctor(s, 'claude');
    expect(code).toBe(0);
    expect(report.general).toEqual([
      {
        ok: null,
        message:
          "cannot verify workspace trust: interactive Claude Code runs settings-file hooks only after the folder's trust dialog is accepted (claude -p trusts it); /hooks in Claude Code lists what it loaded.",
      },
    ]);
    const pre = report.entries.find((e) => e.event === 'PreToolUse')!;
    expect(pre.checks).toEqual([
      { ok: true, message: `runs ${NODE} ${BIN} (both exist)` },
      { ok: true, message: 'matcher "*" sends every tool to hermes-hooks' },
      { ok: true, message: "timeout 315 s outlasts the profile's pre_tool_call hooks (up to 30 s)" },
    ]);
  });

  it('a narrowing matcher, a relative path, a missing program, a short timeout, the wrong dialect and event', async () => {
    const s = setup(120);
    const settings = {
      hooks: {
        PreToolUse: [
          { matcher: 'Bash', hooks: [{ type: 'command', command: GOOD('claude', 'PreToolUse', s.hh), timeout: 60 }] },
          { matcher: '*', hooks: [{ type: 'command', command: 'node_modules/.bin/hermes-hooks run PreToolUse --dialect claude' }] },
        ],
        PostToolUse: [{ matcher: '*', hooks: [{ type: 'command', command: '/opt/nowhere/hermes-hooks run PostToolUse --dialect claude' }] }],
        Stop: [{ hooks: [{ type: 'command', command: `${NODE} ${BIN} run PreToolUse --dialect codex` }] }],
      },
    };
    put(join(s.home, '.claude/settings.json'), settings);
    const { code, problems } = await doctor(s, 'claude');
    expect(code).toBe(1);
    expect(problems).toEqual([
      'matcher "Bash" skips Read, Write, Edit, MultiEdit, Grep, Glob, WebSearch, WebFetch, Task, TodoWrite, mcp__server__tool: those calls never reach the profile\'s guards — use "*" (the profile\'s own matchers pick the tools)',
      'Claude Code stops the hook after 60 s, but the profile\'s pre_tool_call hooks may take up to 120 s: a slow guard is cut off and the call goes ahead — set "timeout": 315',
      "program 'node_modules/.bin/hermes-hooks' is a relative path, resolved against the agent's working directory, which changes from project to project — use an absolute path ('hermes-hooks print-config claude' prints the absolute command)",
      "program /opt/nowhere/hermes-hooks does not exist: the agent's shell fails (exit 127) and Claude Code goes ahead — 'hermes-hooks print-config claude' prints the absolute command",
      "wired on Stop but the command runs 'PreToolUse': stdin and command line disagree, so every call errors or blocks — use 'run Stop'",
      "--dialect codex in Claude Code's config: the answers are in Codex's format, which Claude Code misreads — use '--dialect claude'",
    ]);
  });

  it('hooks.json in ~/.claude is the wrong file; a settings.json that does not parse is ✗', async () => {
    const s = setup();
    put(join(s.home, '.claude/hooks.json'), await printed('claude', s.hh));
    put(join(s.project, '.claude/settings.json'), '{"hooks": {"PreToolUse": [ }');
    const { problems } = await doctor(s, 'claude');
    expect(problems[0]).toMatch(
      new RegExp(
        `^${join(s.project, '.claude/settings.json').replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} is not valid JSON \\(.+\\): Claude Code cannot read it\\. Fix the syntax\\.$`,
      ),
    );
    expect(problems[1]).toBe(
      `${join(s.home, '.claude/hooks.json')} has 9 hermes-hooks entries, but Claude Code never reads that file: move them to ~/.claude/settings.json (under "hooks").`,
    );
    expect(problems[2]).toBe(
      `no hermes-hooks entry in ${join(s.home, '.claude/settings.json')} or ${join(s.project, '.claude/settings.json')} or ${join(s.project, '.claude/settings.local.json')}: Claude Code runs none of the profile's hooks. Wire it with 'hermes-hooks print-config claude'.`,
    );
    expect(problems).toHaveLength(3);
  });

  it("a bare command name not on PATH is ✗; on PATH it is ℹ (the agent's PATH may differ)", async () => {
    const s = setup();
    put(join(s.home, '.claude/settings.json'), {
      hooks: { PreToolUse: [{ matcher: '*', hooks: [{ type: 'command', command: 'hermes-hooks run PreToolUse --dialect claude' }] }] },
    });
    const missing = await doctor(s, 'claude');
    expect(missing.problems).toContain(
      "'hermes-hooks' is not on PATH here: the agent's shell fails (exit 127) and Claude Code goes ahead — 'hermes-hooks print-config claude' prints the absolute command",
    );

    const bin = join(s.home, 'bin');
    mkdirSync(bin);
    writeFileSync(join(bin, 'hermes-hooks'), '#!/bin/sh\n');
    chmodSync(join(bin, 'hermes-hooks'), 0o755);
    const r = await runMain(['doctor', '--agent', 'claude', '--home', s.hh, '--project', s.project, '--json'], {
      env: { PATH: `${bin}:${process.env.PATH}`, HOME: s.home },
    });
    const report = JSON.parse(r.stdout) as { entries: { checks: { ok: boolean | null; message: string }[] }[] };
    expect(report.entries[0]!.checks[0]).toEqual({
      ok: null,
      message: `'hermes-hooks' is ${join(bin, 'hermes-hooks')} on this PATH; Claude Code's PATH may differ (apps started from a desktop often lack ~/.nvm or ~/.local/bin) — an absolute path is safer ('hermes-hooks print-config claude' prints the absolute command)`,
    });
    expect(r.code).toBe(0);
  });
});

describe('Gemini CLI and Cursor', () => {
  it("Gemini: print-config's snippet in settings.json with comments passes; a timeout written in seconds is ✗", async () => {
    const s = setup();
    const snippet = JSON.stringify(await printed('gemini', s.hh), null, 2);
    put(join(s.home, '.gemini/settings.json'), `// user settings\n${snippet}`);
    expect((await doctor(s, 'gemini')).code).toBe(0);
    put(join(s.home, '.gemini/settings.json'), snippet.replace('"timeout": 315000', '"timeout": 315'));
    const { problems } = await doctor(s, 'gemini');
    expect(problems).toEqual([
      'Gemini CLI stops the hook after 0.32 s (Gemini counts milliseconds), but the profile\'s pre_tool_call hooks may take up to 30 s: a slow guard is cut off and the call goes ahead — set "timeout": 315000',
    ]);
  });

  it('Cursor: the snippet passes; without version it is ✗; without failClosed ℹ', async () => {
    const s = setup();
    const snippet = (await printed('cursor', s.hh)) as { version?: number; hooks: Record<string, Record<string, unknown>[]> };
    put(join(s.project, '.cursor/hooks.json'), snippet);
    expect((await doctor(s, 'cursor')).code).toBe(0);
    delete snippet.version;
    delete snippet.hooks['preToolUse']![0]!['failClosed'];
    put(join(s.project, '.cursor/hooks.json'), snippet);
    const { problems, report } = await doctor(s, 'cursor');
    expect(problems).toEqual([`${join(s.project, '.cursor/hooks.json')} has no "version": 1 — Cursor expects {"version": 1, "hooks": {…}}.`]);
    expect(report.entries.find((e) => e.event === 'preToolUse')!.checks).toContainEqual({
      ok: null,
      message: 'no "failClosed": true — if the command cannot start or times out, Cursor lets the call through',
    });
  });
});

describe('the CLI surface', () => {
  it('text report: ✗ lines and the summary; an unknown agent is an error', async () => {
    const s = setup();
    put(join(s.home, '.codex/hooks.json'), codexGroup('npx --no hermes-hooks run PreToolUse --dialect codex'));
    const r = await runMain(['doctor', '--agent', 'codex', '--home', s.hh, '--project', s.project], { env: { PATH: process.env.PATH, HOME: s.home } });
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('  [PreToolUse] npx --no hermes-hooks run PreToolUse --dialect codex\n');
    expect(r.stdout).toContain('      ✗ runs through npx:');
    expect(r.stdout.trimEnd().split('\n').at(-1)).toBe(
      '2 problem(s) found: codex will skip hermes-hooks or let calls through unguarded. Fix them, then re-run this check.',
    );
    const bad = await runMain(['doctor', '--agent', 'windsurf', '--home', s.hh]);
    expect(bad).toEqual({ code: 1, stdout: '', stderr: `hermes-hooks: doctor --agent: give one of ${AGENT_DIALECTS.join(', ')} (not 'windsurf')\n` });
  });

  it('plain doctor is still the profile doctor', async () => {
    const r = await runMain(['doctor', '--home', makeHome('hooks: {}\n')]);
    expect(r.stdout).toContain('No shell hooks configured');
  });
});

describe('print-config serve wirings', () => {
  it('Codex through the bundled client (the default): no false ✗ about run/--dialect; a client-wired timeout at or below the client deadline is ✗', async () => {
    const s = setup();
    const r = await runMain(['print-config', 'codex', '--home', s.hh]);
    const file = put(join(s.home, '.codex/hooks.json'), r.stdout);
    const { report, problems } = await doctor(s, 'codex');
    const pre = report.entries.find((e) => e.event === 'PreToolUse')!;
    expect(pre.checks[0]).toEqual({
      ok: true,
      message: `calls hermes-hooks serve through the bundled client on the socket of ${s.hh} (a serve that is not running is started on first use)`,
    });
    // Only Codex's own trust record is missing: nothing about `run`, `--dialect` or `env`.
    for (const p of problems) expect(p).toMatch(/^not trusted: /);
    put(file, r.stdout.replace(/"timeout": 315/g, '"timeout": 300'));
    expect((await doctor(s, 'codex')).problems).toContain(
      'Codex stops the hook after 300 s, before the client\'s own 310 s deadline for serve: a frozen serve lets the call go ahead — set "timeout": 315',
    );
    // The perl that runs the client, gone: ✗ (the printed guard blocks every tool call until it is back).
    const perl = /' (\/\S+\/perl) /.exec(r.stdout)![1]!;
    put(file, r.stdout.replaceAll(` ${perl} `, ' /nonexistent/perl '));
    expect((await doctor(s, 'codex')).problems).toContain(
      "/nonexistent/perl, which runs the client, is not there: a tool gate blocks every call (and other events go ahead) until it is — rerun 'hermes-hooks print-config codex'",
    );
    // The long form printed before (AGENT EVENT SOCKET, then options) is still read: its socket, its --gate.
    const socket = join(s.hh, 'hermes-hooks.sock');
    put(file, r.stdout.replace(/codex (\w+) --gate (\d) --home (\S+?)"/g, `codex $1 ${socket} --gate $2 --home $3 --node ${NODE} --bin ${BIN}"`));
    const old = await doctor(s, 'codex');
    expect(old.report.entries.find((e) => e.event === 'PreToolUse')!.checks[0]!.message).toContain(`through the bundled client on ${socket} `);
    for (const p of old.problems) expect(p).toMatch(/^not trusted: /);
    put(file, r.stdout.replace(/(codex PreToolUse) --gate 1 --home (\S+?)"/, `$1 ${socket} --gate 0 --home $2"`));
    expect((await doctor(s, 'codex')).problems.join('\n')).toContain('PreToolUse is the tool gate but the client is told --gate 0');
  });

  it("the client's --gate against the record: 0 on the gate is ✗ (fails open while serve is down); none, or 1, on Stop is ℹ", async () => {
    const s = setup();
    const r = await runMain(['print-config', 'claude', '--home', s.hh]);
    const file = put(join(s.home, '.claude/settings.json'), r.stdout);
    const rewire = "rerun 'hermes-hooks print-config claude'";
    const stopNotes = async () => (await doctor(s, 'claude')).report.entries.find((e) => e.event === 'Stop')!.checks.filter((c) => c.ok === null);
    expect((await doctor(s, 'claude')).problems).toEqual([]);
    expect(await stopNotes()).toEqual([]);
    put(file, r.stdout.replace(/(PreToolUse[^"]*--gate) 1/, '$1 0'));
    expect((await doctor(s, 'claude')).problems).toEqual([
      `PreToolUse is the tool gate but the client is told --gate 0: while serve cannot be reached every call goes ahead unguarded — ${rewire}`,
    ]);
    put(file, r.stdout.replace(/(Stop[^"]*?) --gate 0/, '$1'));
    expect(await stopNotes()).toEqual([
      {
        ok: null,
        message: `Stop is not a tool gate but no --gate, so the client treats it as a tool gate: while serve cannot be reached it answers with a block (exit 2) — ${rewire}`,
      },
    ]);
    put(file, r.stdout.replace(/(Stop[^"]*--gate) 0/, '$1 1'));
    expect((await stopNotes())[0]?.message).toMatch(/^Stop is not a tool gate but the client is told --gate 1: /);
  });

  it('Claude over http (--http): the entries count (no "no hermes-hooks entry"); a gate without onFailure: block is ✗', async () => {
    const s = setup();
    const r = await runMain(['print-config', 'claude', '--http', '--home', s.hh]);
    const file = put(join(s.project, '.claude/settings.json'), r.stdout);
    const ok = await doctor(s, 'claude');
    expect(ok.problems).toEqual([]);
    expect(ok.report.entries.find((e) => e.event === 'PreToolUse')).toMatchObject({
      command: 'http://127.0.0.1:8765/v1/agent/claude/PreToolUse',
      checks: [
        { ok: true, message: 'calls hermes-hooks serve over http (http://127.0.0.1:8765/v1/agent/claude/PreToolUse), failing closed' },
        expect.anything(),
        expect.anything(),
      ],
    });
    put(file, r.stdout.replace('"onFailure": "block"', '"onFailure": "continue"'));
    expect((await doctor(s, 'claude')).problems).toEqual([
      'no "onFailure": "block": when serve is down, slow or refuses the token, Claude Code lets the call through — add it (Claude Code 2.1.295+)',
    ]);
  });
});
