import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { applyConsentPolicy, defaultApproveHint, shellQuote, type ConsentPolicyOptions, type PromptInfo } from '../../src/consent/policy.js';
import { ConsentStore } from '../../src/consent/store.js';

let home: string;
let warnings: string[];
let asked: PromptInfo[];
let store: ConsentStore;
const cleanups: (() => void)[] = [];

const hook = (name: string, body = '#!/bin/sh\nexit 0\n'): string => {
  const f = path.join(home, name);
  writeFileSync(f, body);
  chmodSync(f, 0o755);
  return f;
};
const spec = (event: string, command: string, extra: { matcher?: string | null; fail_closed?: boolean } = {}) => ({
  event,
  command,
  matcher: extra.matcher ?? null,
  fail_closed: extra.fail_closed ?? false,
});
const opts = (over: Partial<ConsentPolicyOptions> = {}): ConsentPolicyOptions => ({
  store,
  accept: false,
  safeMode: false,
  interactive: false,
  warn: (m) => warnings.push(m),
  ...over,
});
const answering =
  (...answers: boolean[]) =>
  async (q: PromptInfo): Promise<boolean> => {
    asked.push(q);
    return answers.shift() ?? false;
  };
const fileCommands = (): string[] =>
  JSON.parse(readFileSync(path.join(home, 'shell-hooks-allowlist.json'), 'utf8')).approvals.map((e: any) => `${e.event} ${e.command}`);

beforeEach(async () => {
  home = mkdtempSync(path.join(os.tmpdir(), 'consent-policy-'));
  warnings = [];
  asked = [];
  store = await ConsentStore.open(home, { warn: (m) => warnings.push(`store: ${m}`) });
});
afterEach(() => {
  for (const c of cleanups.splice(0)) c();
  rmSync(home, { recursive: true, force: true });
});

describe('applyConsentPolicy', () => {
  it('safe mode: nothing runs, approved or not, with one warning', async () => {
    const a = hook('a.sh');
    await store.approve({ event: 'pre_tool_call', command: a });
    const out = await applyConsentPolicy(
      [spec('pre_tool_call', a), spec('pre_tool_call', hook('b.sh'), { fail_closed: true })],
      opts({ safeMode: true, accept: true, interactive: true, prompt: answering(true) }),
    );
    expect(out.map((o) => [o.action, o.consent.state])).toEqual([
      ['skip', 'approved'],
      ['skip', 'not_approved'],
    ]);
    expect(out[0]?.message).toBe('HERMES_SAFE_MODE is set: user hooks do not run');
    expect(warnings).toEqual(['HERMES_SAFE_MODE is set: user hooks do not run (2 shell hook(s) skipped)']);
    expect(asked).toEqual([]);
    expect(fileCommands()).toEqual([`pre_tool_call ${a}`]); // accept did not approve anything
  });

  it('approved → run, quietly', async () => {
    const a = hook('a.sh');
    await store.approve({ event: 'pre_tool_call', command: a });
    const out = await applyConsentPolicy([spec('pre_tool_call', a)], opts({ interactive: true, prompt: answering() }));
    expect(out).toEqual([{ spec: spec('pre_tool_call', a), consent: expect.objectContaining({ state: 'approved' }), action: 'run' }]);
    expect(warnings).toEqual([]);
    expect(asked).toEqual([]);
  });

  it('accept: records the approval (pinned) and runs, without prompting', async () => {
    const a = hook('a.sh');
    const out = await applyConsentPolicy([spec('pre_tool_call', a)], opts({ accept: true, interactive: true, prompt: answering(false) }));
    expect(out[0]).toMatchObject({ action: 'run', consent: { state: 'approved', pinned: true } });
    expect(out[0]?.message).toBe('approved via --accept-hooks / HERMES_ACCEPT_HOOKS=1 / hooks_auto_accept: true (was not approved)');
    expect(asked).toEqual([]);
    expect(fileCommands()).toEqual([`pre_tool_call ${a}`]);
  });

  it('not approved and nobody to ask → skip, with a warning that names every fix', async () => {
    const a = hook('a.sh');
    const out = await applyConsentPolicy([spec('post_tool_call', a)], opts({ prompt: answering(true) }));
    expect(out[0]).toMatchObject({ action: 'skip', consent: { state: 'not_approved' } });
    const expected =
      `shell hook for post_tool_call (${a}) is not approved — skipped. Approve it with \`hermes-hooks approve --event post_tool_call ${a}\`, ` +
      'or use --accept-hooks / HERMES_ACCEPT_HOOKS=1 / hooks_auto_accept: true, or approve at the TTY prompt next run.';
    expect(out[0]?.message).toBe(expected);
    expect(warnings).toEqual([expected]);
    expect(asked).toEqual([]); // interactive: false → never prompts
  });

  it('modified and nobody to ask → skip, saying what changed', async () => {
    const a = hook('a.sh', 'echo v1\n');
    await store.approve({ event: 'post_tool_call', command: a });
    writeFileSync(a, 'echo v2\n');
    const out = await applyConsentPolicy([spec('post_tool_call', a)], opts());
    expect(out[0]).toMatchObject({ action: 'skip', consent: { state: 'modified' } });
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(
      new RegExp(
        `^shell hook for post_tool_call \\(${a}\\) was modified since approval — skipped: ${a} changed \\(sha256 [0-9a-f]{12}… at approval .*, now [0-9a-f]{12}…\\)\\. Review the script, then approve it again with \`hermes-hooks approve --event post_tool_call ${a}\``,
      ),
    );
  });

  it('an unapproved fail_closed pre_tool_call hook blocks instead of vanishing', async () => {
    const a = hook('guard.sh');
    const out = await applyConsentPolicy([spec('pre_tool_call', a, { fail_closed: true })], opts());
    const message =
      `hook ${a} awaits approval (not approved yet): tool calls it guards are blocked until it is approved — ` +
      `run \`hermes-hooks approve --event pre_tool_call ${a}\` (or use --accept-hooks / HERMES_ACCEPT_HOOKS=1 / hooks_auto_accept: true)`;
    expect(out[0]).toMatchObject({ action: 'block', message, consent: { state: 'not_approved' } });
    expect(warnings).toEqual([message]);
  });

  it('a modified fail_closed pre_tool_call hook blocks, saying it was modified', async () => {
    const a = hook('guard.sh', 'v1');
    await store.approve({ event: 'pre_tool_call', command: a });
    writeFileSync(a, 'v2');
    const out = await applyConsentPolicy([spec('pre_tool_call', a, { fail_closed: true })], opts({ interactive: true, prompt: answering(false) }));
    expect(out[0]?.action).toBe('block');
    expect(out[0]?.message).toMatch(new RegExp(`^hook ${a} awaits approval \\(modified since approval: ${a} changed \\(sha256 `));
    expect(asked).toHaveLength(1);
  });

  it('prompt yes → approval recorded and the hook runs', async () => {
    const a = hook('a.sh');
    const out = await applyConsentPolicy([spec('pre_tool_call', a)], opts({ interactive: true, prompt: answering(true) }));
    expect(out[0]).toMatchObject({ action: 'run', message: 'approved via the prompt (was not approved)', consent: { state: 'approved' } });
    expect(fileCommands()).toEqual([`pre_tool_call ${a}`]);
    expect(warnings).toEqual([]);
  });

  it('the prompt carries event, command, script path and sha256, and the full question', async () => {
    const a = hook('a.sh', 'echo hi\n');
    await applyConsentPolicy([spec('pre_tool_call', `bash ${a} --x`)], opts({ interactive: true, prompt: answering(false) }));
    const q = asked[0] as PromptInfo;
    expect(q).toMatchObject({
      event: 'pre_tool_call',
      command: `bash ${a} --x`,
      state: 'not_approved',
      script_path: a,
      script_sha256: createHash('sha256').update('echo hi\n').digest('hex'),
    });
    expect(q.text).toContain(`    Event:   pre_tool_call\n    Command: bash ${a} --x\n    Script:  ${a}\n    SHA-256: ${q.script_sha256}\n`);
    expect(q.text).toContain('runs with your full user credentials');
    expect(q.text.endsWith('Allow this hook to run? [y/N]: ')).toBe(true);
  });

  it("a modified hook's prompt says what changed", async () => {
    const a = hook('a.sh', 'v1');
    await store.approve({ event: 'pre_tool_call', command: a });
    writeFileSync(a, 'v2');
    await applyConsentPolicy([spec('pre_tool_call', a)], opts({ interactive: true, prompt: answering(true) }));
    expect(asked[0]?.state).toBe('modified');
    expect(asked[0]?.text).toContain(`MODIFIED since:\n    ${a} changed (sha256 `);
    expect((await store.state({ event: 'pre_tool_call', command: a })).state).toBe('approved');
  });

  it('prompt no → skip with a "declined" warning; nothing recorded', async () => {
    const a = hook('a.sh');
    const out = await applyConsentPolicy([spec('pre_tool_call', a)], opts({ interactive: true, prompt: answering(false) }));
    expect(out[0]?.action).toBe('skip');
    expect(warnings).toEqual([
      `shell hook for pre_tool_call (${a}) was declined at the prompt — skipped. It will be asked again next start; or approve it with \`hermes-hooks approve --event pre_tool_call ${a}\`.`,
    ]);
    expect((await store.state({ event: 'pre_tool_call', command: a })).state).toBe('not_approved');
  });

  it('asks once per (event, command): another matcher reuses the answer, another event asks again', async () => {
    const a = hook('a.sh');
    const out = await applyConsentPolicy(
      [
        spec('pre_tool_call', a, { matcher: 'terminal' }),
        spec('pre_tool_call', a, { matcher: 'write_file' }),
        spec('post_tool_call', a),
        spec('post_tool_call', a, { matcher: 'x' }),
      ],
      opts({ interactive: true, prompt: answering(true, false) }),
    );
    expect(asked.map((q) => q.event)).toEqual(['pre_tool_call', 'post_tool_call']);
    expect(out.map((o) => o.action)).toEqual(['run', 'run', 'skip', 'skip']);
    expect(warnings).toHaveLength(1); // the same skip message is not repeated
    expect(fileCommands()).toEqual([`pre_tool_call ${a}`]);
  });

  it('a prompt that throws counts as no', async () => {
    const a = hook('a.sh');
    const out = await applyConsentPolicy(
      [spec('pre_tool_call', a)],
      opts({
        interactive: true,
        prompt: async () => {
          throw new Error('tty gone');
        },
      }),
    );
    expect(out[0]?.action).toBe('skip');
    expect(warnings[0]).toBe('consent prompt failed (tty gone); treating it as "no"');
  });

  it('accept with an unwritable home: warns and still runs this time', async () => {
    const a = hook('a.sh');
    if (process.getuid?.() === 0) {
      execFileSync('chattr', ['+i', home]);
      cleanups.push(() => execFileSync('chattr', ['-i', home]));
    } else {
      chmodSync(home, 0o555);
      cleanups.push(() => chmodSync(home, 0o755));
    }
    const out = await applyConsentPolicy([spec('pre_tool_call', a, { fail_closed: true })], opts({ accept: true }));
    expect(out[0]).toMatchObject({ action: 'run', consent: { state: 'approved' } });
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/^Failed to persist shell hook allowlist to .*\. The approval holds for this run/);
  });

  it('keeps the order and the spec objects it was given', async () => {
    const a = hook('a.sh');
    const b = hook('b.sh');
    await store.approve({ event: 'pre_tool_call', command: b });
    const specs = [spec('pre_tool_call', a), spec('pre_tool_call', b)];
    const out = await applyConsentPolicy(specs, opts());
    expect(out.map((o) => o.spec)).toEqual(specs);
    expect(out[1]?.spec).toBe(specs[1]);
    expect(out.map((o) => o.action)).toEqual(['skip', 'run']);
  });

  it('uses a custom approve hint when the host gives one', async () => {
    const out = await applyConsentPolicy([spec('pre_tool_call', '/x.sh')], opts({ approveHint: (e, c) => `myhost approve ${e} ${c}` }));
    expect(out[0]?.message).toContain('Approve it with `myhost approve pre_tool_call /x.sh`');
  });
});

describe('approve hint quoting', () => {
  it('quotes commands for a POSIX shell', () => {
    expect(defaultApproveHint('pre_tool_call', '/x.sh')).toBe('hermes-hooks approve --event pre_tool_call /x.sh');
    expect(shellQuote("python3 -c 'print(1)'")).toBe(`'python3 -c '\\''print(1)'\\'''`);
    const back = execFileSync('sh', ['-c', `printf %s ${shellQuote("python3 -c 'print(1)' $HOME")}`], { encoding: 'utf8' });
    expect(back).toBe("python3 -c 'print(1)' $HOME");
  });
});
