// Operator commands that judge by outcome (issue 16) and safe mode that runs nothing (issue 15.7):
// doctor fails a guard whose smoke run fails closed, test says what `run` would decide and flags
// unreadable stdout, HERMES_SAFE_MODE spawns no hook and sends no webhook, and `run` keeps stderr to
// the event it ran. Real scripts, real processes, a real HTTP server on 127.0.0.1.

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createHookEngine } from '../../src/engine/create-engine.js';
import { reportedHooks } from '../../src/cli/_production.js';
import { baseEnv, cleanupTemps, hooksYaml, makeHome, runBin, runMain, writeScript } from './_helpers.js';

afterEach(cleanupTemps);

/** A profile home with executable bash hooks written into it. */
function home(): { home: string; env: NodeJS.ProcessEnv; config: string; script: (name: string, body: string, mode?: number) => string } {
  const dir = makeHome();
  return {
    home: dir,
    env: baseEnv({ HERMES_HOME: dir }),
    config: join(dir, 'config.yaml'),
    script: (name, body, mode = 0o755) => writeScript(join(dir, name), `#!/usr/bin/env bash\n${body}\n`, mode),
  };
}

type Check = { ok: boolean | null; message: string };
interface DoctorHook {
  command: string;
  checks: Check[];
  smoke: { status: string; warning: string | null } | null;
  fails_closed: boolean;
  script: string | null;
}

async function doctorJson(
  env: NodeJS.ProcessEnv,
  ...args: string[]
): Promise<{
  code: number;
  report: { healthy: boolean; issues: number; safe_mode: boolean; hooks: DoctorHook[]; pings: unknown[]; ping_skipped: string | null };
}> {
  const r = await runMain(['doctor', '--json', ...args], { env });
  return { code: r.code, report: JSON.parse(r.stdout) };
}

describe('doctor judges a smoke run by what production does with it', () => {
  it('an approved fail_closed guard that prints garbage, or exits 3, fails closed: ✗ and exit 1', async () => {
    const h = home();
    const garbage = h.script('garbage.sh', 'echo "Traceback: oops"');
    const exits = h.script('exits.sh', 'echo crashed >&2; exit 3');
    writeFileSync(
      h.config,
      hooksYaml({
        pre_tool_call: [
          { command: garbage, fail_closed: true },
          { command: exits, fail_closed: true },
        ],
      }),
    );
    expect((await runMain(['approve', '--all'], { env: h.env })).code).toBe(0);

    const { code, report } = await doctorJson(h.env);
    expect(code).toBe(1);
    expect(report).toMatchObject({ healthy: false, issues: 2 });
    const [g, e] = report.hooks;
    expect(g?.fails_closed).toBe(true);
    expect(g?.checks.map((c) => c.ok)).toEqual([true, true, false]);
    expect(g?.checks[2]?.message).toMatch(
      /^fails closed on the synthetic payload: every call it matches will be blocked: unparseable stdout \(expected a JSON object\) \(exit=0, [0-9.]+s\) — stdout is not valid JSON, so the hook failed closed: "Traceback: oops"$/,
    );
    expect(g?.smoke?.warning).toBe('stdout is not valid JSON, so the hook failed closed: "Traceback: oops"');
    expect(e?.fails_closed).toBe(true);
    expect(e?.checks[2]?.message).toMatch(
      /^fails closed on the synthetic payload: every call it matches will be blocked: exited with status 3 without a directive \(exit=3, [0-9.]+s\)$/,
    );

    const text = await runMain(['doctor'], { env: h.env });
    expect(text.code).toBe(1);
    expect(text.stdout).toContain(`  [pre_tool_call] ${exits}\n      ✓ script exists and is executable (${exits})\n      ✓ approved (`);
    expect(text.stdout).toMatch(/\n {6}✗ fails closed on the synthetic payload: every call it matches will be blocked: exited with status 3/);
    expect(text.stdout.trimEnd().split('\n').at(-1)).toBe('2 issue(s) found.  Fix before relying on these hooks.');
  });

  it("a guard's own block (exit 2 with a reason) is reported, not counted; the same script without fail_closed printing garbage is ✗", async () => {
    const h = home();
    const own = h.script('own.sh', 'echo "no terminal calls here" >&2; exit 2');
    const garbage = h.script('garbage.sh', 'echo garbage');
    writeFileSync(h.config, hooksYaml({ pre_tool_call: [own, garbage] }));
    await runMain(['approve', '--all'], { env: h.env });
    const { code, report } = await doctorJson(h.env);
    expect(code).toBe(1);
    expect(report.issues).toBe(1);
    expect(report.hooks[0]?.fails_closed).toBe(false);
    expect(report.hooks[0]?.checks[2]?.ok).toBeNull();
    expect(report.hooks[0]?.checks[2]?.message).toMatch(
      /^answered \{"action":"block","message":"no terminal calls here"\} on the synthetic payload \(exit=2, [0-9.]+s\) — it blocks the synthetic call \(terminal \{"command":"echo hello"\}\); fine if it means to$/,
    );
    expect(report.hooks[1]?.checks[2]).toEqual({ ok: false, message: expect.stringMatching(/^stdout was not valid JSON \(exit=0, [0-9.]+s\): garbage$/) });
  });

  it('an approved script that is not executable gets `chmod +x`, is still called approved, and is not run', async () => {
    const h = home();
    const noexec = h.script('noexec.sh', 'touch "$HERMES_HOME/ran"', 0o644);
    writeFileSync(h.config, hooksYaml({ pre_tool_call: [noexec] }));
    await runMain(['approve', '--all'], { env: h.env });
    const r = await runMain(['doctor'], { env: h.env });
    expect(r.code).toBe(1);
    expect(r.stdout).toContain(`  [pre_tool_call] ${noexec}\n      ✗ not executable: ${noexec} — run: chmod +x ${noexec}\n      ✓ approved (`);
    expect(r.stdout).toContain('      ℹ skipped smoke run — fix the problem above first, then re-run doctor\n');
    expect(r.stdout).not.toContain('approve the hook first');
    expect(existsSync(join(h.home, 'ran'))).toBe(false);
  });

  it('a missing script names the config line to fix, and no ✓ approved is printed about it', async () => {
    const h = home();
    const missing = join(h.home, 'later.sh');
    writeFileSync(h.config, `# guards\nhooks:\n  pre_tool_call:\n    - command: ${missing}\n      fail_closed: true\n    - command: bash ${missing}\n`);
    // An approval Hermes wrote (no hash) for a script that is not there.
    writeFileSync(
      join(h.home, 'shell-hooks-allowlist.json'),
      JSON.stringify({ approvals: [{ event: 'pre_tool_call', command: missing, approved_at: '2026-01-01T00:00:00Z', script_mtime_at_approval: null }] }),
      { mode: 0o600 },
    );
    const { code, report } = await doctorJson(h.env);
    expect(code).toBe(1);
    expect(report.hooks[0]?.checks).toEqual([
      { ok: false, message: `file not found: ${missing} — fix the path in ${h.config} line 4 (being fail_closed, it blocks every call it matches until then)` },
      { ok: null, message: 'an approval is recorded (2026-01-01T00:00:00Z), but there is no script to run — fix the path, then approve it again' },
      { ok: null, message: 'skipped smoke run — fix the problem above first, then re-run doctor' },
    ]);
    expect(report.hooks[1]?.checks[0]).toEqual({ ok: false, message: `file not found: ${missing} — fix the path in ${h.config} line 6` });
    const text = await runMain(['doctor'], { env: h.env });
    expect(text.stdout).not.toContain('✓ approved');
  });

  it('a command that is not on PATH, or an environment assignment, says what was looked up and how to fix it', async () => {
    const h = home();
    writeFileSync(h.config, hooksYaml({ pre_llm_call: ['no-such-hook-binary --flag', 'FOO=1 /bin/true'] }));
    const { report } = await doctorJson(h.env);
    expect(report.hooks[0]?.checks[0]).toEqual({
      ok: false,
      message: `command not found: no-such-hook-binary — it is not on PATH; use its full path, or fix the command in ${h.config} line 3`,
    });
    expect(report.hooks[1]?.checks[0]).toEqual({
      ok: false,
      message: 'command not found: FOO=1 — environment assignments need `env FOO=1 …` (commands run without a shell)',
    });
  });
});

describe('HERMES_SAFE_MODE: nothing runs, nothing is sent', () => {
  let server: Server | null = null;
  afterEach(async () => {
    await new Promise<void>((r) => (server ? server.close(() => r()) : r()));
    server = null;
  });

  /** A real webhook receiver on 127.0.0.1 counting the requests that reach it. */
  async function receiver(): Promise<{ url: string; requests: () => number }> {
    let count = 0;
    server = createServer((req, res) => {
      count += 1;
      req.resume();
      req.on('end', () => res.writeHead(204).end());
    });
    await new Promise<void>((r) => server!.listen(0, '127.0.0.1', () => r()));
    const { port } = server.address() as AddressInfo;
    return { url: `http://127.0.0.1:${port}/hook`, requests: () => count };
  }

  it('doctor --ping sends nothing and smoke-runs nothing in safe mode, and says so; without it, the ping arrives', async () => {
    const h = home();
    const hook = h.script('hook.sh', 'touch "$HERMES_HOME/ran"; echo \'{"context":"x"}\'');
    const rx = await receiver();
    writeFileSync(h.config, `${hooksYaml({ pre_llm_call: [hook] })}  outbound:\n    - url: ${rx.url}\n      events: [pre_llm_call]\n      secret: s3cret\n`);
    await runMain(['approve', '--all'], { env: h.env });

    const safe = { ...h.env, HERMES_SAFE_MODE: '1' };
    const { code, report } = await doctorJson(safe, '--ping');
    // The one issue is the config's plain-http warning; nothing was sent or run to find another.
    expect(code).toBe(1);
    expect(report).toMatchObject({ issues: 1, safe_mode: true, pings: [], ping_skipped: 'HERMES_SAFE_MODE is set: no webhook was sent' });
    expect(report.hooks[0]?.checks[2]).toEqual({ ok: null, message: 'skipped smoke run — HERMES_SAFE_MODE is set: nothing runs in safe mode' });
    const text = await runMain(['doctor', '--ping'], { env: safe });
    expect(text.stdout.split('\n')[0]).toBe('HERMES_SAFE_MODE is set: no smoke run and no webhook ping — in safe mode no user hook, plugin or webhook runs.');
    expect(text.stdout).toContain('  ping skipped: HERMES_SAFE_MODE is set: no webhook was sent\n');
    expect(rx.requests()).toBe(0);
    expect(existsSync(join(h.home, 'ran'))).toBe(false);

    // The same command without safe mode reaches the receiver and runs the hook: the test can fail.
    const live = await doctorJson(h.env, '--ping');
    expect(live.report).toMatchObject({ issues: 1, safe_mode: false, pings: [expect.objectContaining({ ok: true })], ping_skipped: null });
    expect(rx.requests()).toBe(1);
    expect(existsSync(join(h.home, 'ran'))).toBe(true);
  });

  it('test lists what it would run and spawns nothing (exit 0); --ignore-safe-mode runs it and says production would not', async () => {
    const h = home();
    const blocker = h.script('blocker.sh', 'touch "$HERMES_HOME/ran"; echo \'{"action":"block","message":"guarded"}\'');
    writeFileSync(h.config, hooksYaml({ pre_tool_call: [blocker, { command: blocker.replace('.sh', '-other.sh'), matcher: 'write_file' }] }));
    const safe = { ...h.env, HERMES_SAFE_MODE: 'yes' };

    const r = await runMain(['test', 'pre_tool_call'], { env: safe });
    expect(r.code).toBe(0);
    expect(r.stdout.split('\n')[2]).toBe('HERMES_SAFE_MODE is set: nothing was run — 1 hook(s) would run without it; --ignore-safe-mode runs them.');
    expect(r.stdout).toMatch(/\n {2}#0 · safe mode, not run +\S+blocker\.sh \[not approved\]\n {6}error: HERMES_SAFE_MODE is set: not run\n/);
    expect(r.stdout).toContain('Decision: ALLOW');
    expect(existsSync(join(h.home, 'ran'))).toBe(false);

    const json = JSON.parse((await runMain(['test', 'pre_tool_call', '--json'], { env: safe })).stdout);
    expect(json.hooks.map((x: { status: string }) => x.status)).toEqual(['safe_mode', 'not_matched']);
    expect(json.production).toEqual({
      decision: json.decision,
      differs: false,
      why: 'HERMES_SAFE_MODE is set: neither this dry run nor `hermes-hooks run` runs user hooks or plugins',
      safe_mode: true,
      not_run: [{ index: 0, command: blocker, reason: 'safe_mode', effect: 'skipped' }],
    });
    expect(existsSync(join(h.home, 'ran'))).toBe(false);

    const ignored = await runMain(['test', 'pre_tool_call', '--ignore-safe-mode', '--json'], { env: safe });
    expect(ignored.code).toBe(2);
    expect(existsSync(join(h.home, 'ran'))).toBe(true);
    const report = JSON.parse(ignored.stdout);
    expect(report.decision).toMatchObject({ action: 'block', message: 'guarded' });
    expect(report.production).toMatchObject({ decision: { action: 'allow' }, differs: true, safe_mode: true });
    expect(report.production.why).toBe('`hermes-hooks run` would ALLOW, not BLOCK: HERMES_SAFE_MODE is set: 1 hook(s) listed here do not run there');
    const text = await runMain(['test', 'pre_tool_call', '--ignore-safe-mode'], { env: safe });
    expect(text.stdout).toContain('HERMES_SAFE_MODE is set but ignored (--ignore-safe-mode): the hooks below ran; in production none would.\n');
    expect(text.stdout).toContain('\nProduction: `hermes-hooks run` would ALLOW, not BLOCK: HERMES_SAFE_MODE is set: 1 hook(s) listed here do not run there\n');
  });
});

describe('test tells the truth about production', () => {
  it('a modified fail_closed guard: the dry run allows, `run` would block — one line, and --json carries it', async () => {
    const h = home();
    const guard = h.script('guard.sh', 'cat >/dev/null; echo "{}"');
    writeFileSync(h.config, hooksYaml({ pre_tool_call: [{ command: guard, fail_closed: true }] }));
    await runMain(['approve', '--all'], { env: h.env });
    writeFileSync(guard, '#!/usr/bin/env bash\ncat >/dev/null\necho "{}"\n# edited\n');

    const r = await runMain(['test', 'pre_tool_call', '--json'], { env: h.env });
    expect(r.code).toBe(0);
    const report = JSON.parse(r.stdout);
    expect(report.decision.action).toBe('allow');
    expect(report.production).toMatchObject({
      decision: { action: 'block', decided_by: 0, message: expect.stringMatching(/^hook \S+guard\.sh awaits approval \(modified since approval: /) },
      differs: true,
      safe_mode: false,
      not_run: [{ index: 0, command: guard, reason: 'modified', effect: 'blocks' }],
    });
    expect(report.production.why).toBe(
      `\`hermes-hooks run\` would BLOCK, not ALLOW: #0 (${guard}) is modified since approval and fail_closed: it blocks every call it matches without running — approve with \`hermes-hooks approve\``,
    );
    // And `run` really does block it.
    const run = await runMain(['run', 'pre_tool_call'], { env: h.env, stdin: '{"tool_name":"terminal","tool_input":{"command":"ls"}}' });
    expect(run.code).toBe(2);
    expect(JSON.parse(run.stdout)).toMatchObject({ action: 'block', message: report.production.decision.message });

    const text = await runMain(['test', 'pre_tool_call'], { env: h.env });
    const lines = text.stdout.split('\n');
    expect(lines.filter((l) => l.startsWith('Production: '))).toEqual([`Production: ${report.production.why}`]);
  });

  it('an unapproved hook that blocks in the dry run is skipped by `run`: it would allow', async () => {
    const h = home();
    const blocker = h.script('blocker.sh', 'echo \'{"action":"block","message":"nope"}\'');
    writeFileSync(h.config, hooksYaml({ pre_tool_call: [blocker] }));
    const report = JSON.parse((await runMain(['test', 'pre_tool_call', '--json'], { env: h.env })).stdout);
    expect(report.decision.action).toBe('block');
    expect(report.production).toMatchObject({
      decision: { action: 'allow', decided_by: null },
      differs: true,
      not_run: [{ index: 0, reason: 'not_approved', effect: 'skipped' }],
    });
    // HERMES_ACCEPT_HOOKS makes `run` approve and run it: no difference.
    const accepted = JSON.parse((await runMain(['test', 'pre_tool_call', '--json'], { env: { ...h.env, HERMES_ACCEPT_HOOKS: '1' } })).stdout);
    expect(accepted.production).toEqual({ decision: accepted.decision, differs: false, why: null, safe_mode: false, not_run: [] });
  });

  it('stdout that is not JSON, or JSON that is not an object, is a warning on the hook — never a clean ✓ ok', async () => {
    const h = home();
    const text = h.script('text.sh', "printf 'all good\\033[2J\\n'");
    const array = h.script('array.sh', 'echo "[1, 2]"');
    const clean = h.script('clean.sh', 'echo "{}"');
    writeFileSync(h.config, hooksYaml({ post_tool_call: [text, array, clean] }));
    const report = JSON.parse((await runMain(['test', 'post_tool_call', '--json'], { env: h.env })).stdout);
    expect(report.hooks.map((x: { status: string; warning: string | null }) => [x.status, x.warning])).toEqual([
      ['ok', 'stdout is not valid JSON, so it was ignored: "all good\\u001b[2J"'],
      ['ok', 'stdout is JSON but not an object, so it was ignored: "[1, 2]"'],
      ['ok', null],
    ]);
    const out = (await runMain(['test', 'post_tool_call'], { env: h.env })).stdout;
    expect(out).toMatch(new RegExp(`\\n {2}#0 ! unreadable stdout +exit 0 .*${text}`));
    expect(out).toMatch(new RegExp(`\\n {2}#1 ! unreadable stdout +exit 0 .*${array}`));
    expect(out).toMatch(new RegExp(`\\n {2}#2 ✓ ok +exit 0 .*${clean}`));
    expect(out).toContain('      warning: stdout is JSON but not an object, so it was ignored: "[1, 2]"\n');
  });

  it('the built-in tool-loop guardrail is listed only when it gave a verdict', async () => {
    const dir = makeHome('tool_loop_guardrails:\n  hard_stop_enabled: true\n  hard_stop_after:\n    exact_failure: 1\n');
    const engine = await createHookEngine({ home: dir, env: baseEnv(), interactive: false, exitCleanup: false });
    try {
      const call = { tool_name: 'terminal', args: { command: 'make' }, session_id: 's1' };
      const quiet = await engine.emit('pre_tool_call', call);
      expect(quiet.hooks.map((x) => x.kind)).toEqual(['builtin']);
      expect(reportedHooks(quiet.hooks)).toEqual([]);
      await engine.emit('post_tool_call', { ...call, status: 'error', result: '{"error":"boom"}' });
      const stopped = await engine.emit('pre_tool_call', call);
      expect(stopped.decision.action).toBe('block');
      expect(reportedHooks(stopped.hooks)).toEqual([expect.objectContaining({ kind: 'builtin', directive: expect.objectContaining({ action: 'block' }) })]);
    } finally {
      await engine.close({ finalize: false });
    }
  });
});

describe('run stays quiet and right', () => {
  const PAYLOAD = '{"tool_name":"terminal","tool_input":{"command":"ls"}}';

  it('stderr carries only what concerns the event being run', async () => {
    const h = home();
    const ok = h.script('ok.sh', 'echo "{}"');
    const other = h.script('other.sh', 'echo "{}"');
    writeFileSync(h.config, hooksYaml({ pre_tool_call: [ok], post_tool_call: [other], pre_llm_call: [{ command: other }] }));
    await runMain(['approve', ok], { env: h.env });
    const r = await runMain(['run', 'pre_tool_call'], { env: h.env, stdin: PAYLOAD });
    expect(r).toMatchObject({ code: 0, stderr: '' });
    // The unapproved hook of another event is still reported when that event runs — without prompt advice.
    const post = await runMain(['run', 'post_tool_call'], { env: h.env, stdin: PAYLOAD });
    expect(post.stderr).toBe(
      `hermes-hooks: warning: shell hook for post_tool_call (${other}) is not approved — skipped. ` +
        `Approve it with \`hermes-hooks approve --event post_tool_call ${other}\`, or use --accept-hooks / HERMES_ACCEPT_HOOKS=1 / hooks_auto_accept: true.\n`,
    );
  });

  it('run --dialect: stderr carries only what concerns the agent event being run', async () => {
    const h = home();
    const guard = h.script('guard.sh', 'cat >/dev/null; echo \'{"action":"block","message":"no rm"}\'');
    const other = h.script('other.sh', 'echo "{}"');
    writeFileSync(h.config, hooksYaml({ pre_tool_call: [guard], post_tool_call: [other], on_session_start: [other] }));
    await runMain(['approve', guard], { env: h.env });
    const claude = '{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"rm -r x"}}';
    const r = await runMain(['run', 'PreToolUse', '--dialect', 'claude'], { env: h.env, stdin: claude });
    expect(r).toMatchObject({ code: 0, stderr: '' });
    expect(JSON.parse(r.stdout)).toEqual({
      hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'no rm' },
    });
    // Input that cannot be answered is a block naming that problem alone, not other events' consent.
    const mismatch = await runMain(['run', 'BeforeTool', '--dialect', 'gemini'], { env: h.env, stdin: claude });
    expect(mismatch.stderr).toBe("hermes-hooks: stdin is a 'PreToolUse' event but the command line says 'BeforeTool'\n");
    // The agent's event that maps to post_tool_call still reports that event's unapproved hook.
    const post = await runMain(['run', 'PostToolUse', '--dialect', 'claude'], { env: h.env, stdin: claude.replace('PreToolUse', 'PostToolUse') });
    expect(post.stderr).toBe(
      `hermes-hooks: warning: shell hook for post_tool_call (${other}) is not approved — skipped. ` +
        `Approve it with \`hermes-hooks approve --event post_tool_call ${other}\`, or use --accept-hooks / HERMES_ACCEPT_HOOKS=1 / hooks_auto_accept: true.\n`,
    );
  });

  it('exit 2 as a block is not a warning, in the Hermes wire or a dialect; another non-zero exit is', async () => {
    const h = home();
    const hermes = h.script('hermes.sh', 'cat >/dev/null; echo "refused" >&2; exit 2');
    const claude = h.script('claude.sh', 'cat >/dev/null; echo "claude says no" >&2; exit 2');
    writeFileSync(h.config, `hooks:\n  pre_tool_call:\n    - command: ${hermes}\n    - command: ${claude}\n      dialect: claude\n`);
    await runMain(['approve', '--all'], { env: h.env });
    const r = await runMain(['run', 'pre_tool_call'], { env: h.env, stdin: PAYLOAD });
    expect(r.code).toBe(2);
    expect(JSON.parse(r.stdout)).toMatchObject({ action: 'block', message: 'refused' });
    expect(r.stderr).toBe('');

    writeFileSync(hermes, '#!/usr/bin/env bash\ncat >/dev/null\necho "crashed" >&2\nexit 3\n');
    await runMain(['approve', hermes], { env: h.env });
    const crashed = await runMain(['run', 'pre_tool_call'], { env: h.env, stdin: PAYLOAD });
    expect(crashed.stderr).toBe(
      `hermes-hooks: warning: shell hook (event=pre_tool_call command=${hermes}) exited 3: on pre_tool_call only exit 2 blocks; exit 3 is a warning and the call went ahead — use exit 2 or print {"action":"block"}; stderr=crashed\n`,
    );
  });

  it('non-JSON stdout warns once per hook per engine, naming the hook and its first bytes escaped', async () => {
    const h = home();
    const noisy = h.script('noisy.sh', "printf 'debug: \\033[31mred\\033[0m %s\\n' \"$(printf 'x%.0s' $(seq 1 100))\"");
    writeFileSync(h.config, hooksYaml({ post_tool_call: [noisy] }));
    const warnings: string[] = [];
    const engine = await createHookEngine({
      home: h.home,
      env: h.env,
      acceptHooks: true,
      interactive: false,
      exitCleanup: false,
      logger: { warn: (m) => warnings.push(m) },
    });
    try {
      for (let i = 0; i < 3; i++) await engine.emit('post_tool_call', { tool_name: 'terminal', args: {} });
    } finally {
      await engine.close({ finalize: false });
    }
    const expected =
      `shell hook (event=post_tool_call command=${noisy}): stdout is not valid JSON, so it was ignored: ` +
      `"debug: \\u001b[31mred\\u001b[0m ${'x'.repeat(60)}"…`;
    expect(warnings.filter((w) => w.includes('stdout'))).toEqual([expected]);
  });
});

describe('through the real binary', () => {
  it('doctor: an approved fail_closed hook that prints garbage is ✗, exit 1', async () => {
    const h = home();
    const garbage = h.script('garbage.sh', 'echo garbage');
    writeFileSync(h.config, hooksYaml({ pre_tool_call: [{ command: garbage, fail_closed: true }] }));
    expect((await runBin(['approve', '--all'], { env: h.env })).code).toBe(0);
    const r = await runBin(['doctor'], { env: h.env });
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/\n {6}✗ fails closed on the synthetic payload: every call it matches will be blocked: unparseable stdout/);
  });

  it('test under HERMES_SAFE_MODE spawns nothing and exits 0', async () => {
    const h = home();
    const hook = h.script('hook.sh', 'touch "$HERMES_HOME/ran"; echo \'{"action":"block","message":"x"}\'');
    writeFileSync(h.config, hooksYaml({ pre_tool_call: [hook] }));
    const r = await runBin(['test', 'pre_tool_call', '--json'], { env: { ...h.env, HERMES_SAFE_MODE: '1' } });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).hooks[0].status).toBe('safe_mode');
    expect(existsSync(join(h.home, 'ran'))).toBe(false);
  });

  it('run: nothing on stderr about other events, and exit 2 blocks quietly', async () => {
    const h = home();
    const block = h.script('block.sh', 'cat >/dev/null; echo no >&2; exit 2');
    const other = h.script('other.sh', 'true');
    writeFileSync(h.config, hooksYaml({ pre_tool_call: [block], post_tool_call: [other] }));
    await runBin(['approve', block], { env: h.env });
    const r = await runBin(['run', 'pre_tool_call'], { env: h.env, stdin: '{"tool_name":"terminal","tool_input":{}}' });
    expect(r).toMatchObject({ code: 2, stderr: '' });
    expect(JSON.parse(r.stdout)).toMatchObject({ action: 'block', message: 'no' });
  });
});
