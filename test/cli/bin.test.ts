// The built executable (`node dist/cli/bin.js`) as a real process: exit codes, the --json report
// through a real pipe (schema-valid and never cut short), terminals (under a real pseudo-terminal
// via util-linux `script`) and SIGINT, SIGTERM and SIGHUP while hooks run.

import { Ajv2020 } from 'ajv/dist/2020.js';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ANSI, BIN, HOOKS, ROOT, baseEnv, cleanupTemps, hooksYaml, isAlive, makeHome, readJson, runBin, runUnderPty, sh, waitFor } from './_helpers.js';

beforeAll(() => {
  if (!existsSync(BIN)) throw new Error(`${BIN} is missing: run 'npm run build' before these tests`);
});
afterEach(cleanupTemps);

const ajv = new Ajv2020({ strict: true, allErrors: true });
const validateReport = ajv.compile(readJson<object>(join(ROOT, 'protocol/test-report.schema.json')));
const BLOCK = '{"action":"block","message":"no from the fixture"}';

function home(hooks: Parameters<typeof hooksYaml>[0]): { home: string; env: NodeJS.ProcessEnv } {
  const h = makeHome(hooksYaml(hooks));
  return { home: h, env: baseEnv({ HERMES_HOME: h }) };
}

describe('hermes-hooks as a process', () => {
  it('--version and --help', async () => {
    const { version } = readJson<{ version: string }>(join(ROOT, 'package.json'));
    expect(await runBin(['--version'])).toMatchObject({ code: 0, stdout: `${version}\n`, stderr: '' });
    const help = await runBin(['test', '--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('Examples:');
  });

  it('test --json: exit 2 when blocked, and the report validates against the published schema', async () => {
    const { env } = home({ pre_tool_call: [`${HOOKS}/record.sh a '${BLOCK}'`, `${HOOKS}/modify.py`] });
    const r = await runBin(['test', 'pre_tool_call', '--json'], {
      env,
      stdin: JSON.stringify({ tool_name: 'terminal', tool_input: { command: 'rm -rf /' }, session_id: 's-1' }),
    });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('');
    const report = JSON.parse(r.stdout);
    expect(validateReport(report), JSON.stringify(validateReport.errors)).toBe(true);
    expect(report.decision).toMatchObject({ action: 'block', message: 'no from the fixture', decided_by: 0 });
    expect(report.payload.session_id).toBe('s-1');
  });

  it('exit 0 when not blocked, 1 on errors', async () => {
    const { env } = home({ pre_llm_call: [`${HOOKS}/record.sh a`] });
    expect((await runBin(['test', 'pre_llm_call'], { env })).code).toBe(0);
    const unknown = await runBin(['test', 'pre_llm_cal'], { env });
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain("did you mean 'pre_llm_call'");
    expect((await runBin(['test', 'pre_llm_call'], { env, stdin: 'nope' })).code).toBe(1);
    expect((await runBin(['frobnicate'], { env })).code).toBe(1);
  });

  it('no stdin at all (/dev/null, as in CI) → the synthetic payload', async () => {
    const { home: h, env } = home({ pre_tool_call: [`${HOOKS}/record.sh a`] });
    const r = await runBin(['test', 'pre_tool_call', '--json'], { env, stdin: 'ignore' });
    expect(r.code).toBe(0);
    expect(readJson(join(h, 'seen-a.json'))).toMatchObject({ tool_name: 'terminal', session_id: 'test-session' });
  });

  it('piped output is never cut short: a 600 KiB report arrives whole', async () => {
    const { env } = home({ post_tool_call: [`${HOOKS}/big.sh 300`, `${HOOKS}/big.sh 300 second`] });
    const r = await runBin(['test', 'post_tool_call', '--json'], { env });
    expect(r.code).toBe(0);
    expect(r.stdout.length).toBeGreaterThan(600 * 1024);
    const report = JSON.parse(r.stdout);
    expect(report.hooks.filter((h: { kind: string }) => h.kind === 'shell').map((h: { stdout: string }) => h.stdout.length)).toEqual([300 * 1024, 300 * 1024]);
  });

  it('a reader that stops early (| head) ends the command quietly with its own exit code, never an EPIPE crash', async () => {
    const { env } = home({ pre_tool_call: [`${HOOKS}/record.sh a`] });
    for (const args of [['doctor'], ['--help'], ['list']]) {
      // stdout is a pipe whose reading end is closed before the command writes: every write is EPIPE.
      const child = spawn(process.execPath, [BIN, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
      child.stdout.destroy();
      let stderr = '';
      child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      const [code] = (await once(child, 'close')) as [number | null];
      expect(stderr, args.join(' ')).not.toMatch(/EPIPE|Unhandled|internal error/);
      expect(code, args.join(' ')).toBe((await runBin(args, { env })).code);
    }
  });
});

describe('on a terminal', () => {
  const cli = (...args: string[]): string => `exec ${[process.execPath, BIN, ...args].map(sh).join(' ')}`;

  it('test never waits for terminal input: synthetic payload, coloured report', async () => {
    const { home: h, env } = home({ pre_tool_call: [`${HOOKS}/record.sh a '${BLOCK}'`] });
    // Nothing is ever typed and the terminal stays open: reading it would hang until the kill.
    const r = await runUnderPty(cli('test', 'pre_tool_call'), { env, killAfterMs: 30_000 });
    expect(r.code).toBe(2);
    expect(r.output).toContain('(synthetic payload)');
    expect(r.output).toMatch(ANSI);
    expect(r.output).toContain('\u001b[31mBLOCK\u001b[39m');
    expect(readJson(join(h, 'seen-a.json'))).toMatchObject({ session_id: 'test-session' });
  }, 60_000);

  it('NO_COLOR turns colour off even on a terminal', async () => {
    const { env } = home({ pre_tool_call: [`${HOOKS}/record.sh a '${BLOCK}'`] });
    const r = await runUnderPty(cli('test', 'pre_tool_call'), { env: { ...env, NO_COLOR: '1' }, killAfterMs: 30_000 });
    expect(r.code).toBe(2);
    expect(r.output).toContain('Decision: BLOCK by #0');
    expect(r.output).not.toMatch(ANSI);
  }, 60_000);

  it('run never prompts, even on a terminal: the unapproved hook is skipped with the warning', async () => {
    const { home: h, env } = home({ pre_tool_call: [`${HOOKS}/record.sh a '${BLOCK}'`] });
    const r = await runUnderPty(cli('run', 'pre_tool_call'), { env, killAfterMs: 30_000 });
    expect(r.code).toBe(0);
    expect(r.output).not.toContain('[y/N]');
    expect(r.output).toContain('is not approved — skipped');
    expect(r.output).toContain('"action":"allow"');
    expect(existsSync(join(h, 'ran.log'))).toBe(false);
    expect(existsSync(join(h, 'shell-hooks-allowlist.json'))).toBe(false);
  }, 60_000);
});

describe('SIGINT, SIGTERM and SIGHUP while hooks run', () => {
  it.each([
    ['test', 'SIGINT', ['test', 'pre_tool_call']],
    ['run --accept-hooks', 'SIGINT', ['run', 'pre_tool_call', '--accept-hooks']],
    ['run --accept-hooks', 'SIGTERM', ['run', 'pre_tool_call', '--accept-hooks']],
    // The terminal closing: by default it killed the CLI and left the hooks running.
    ['run --accept-hooks', 'SIGHUP', ['run', 'pre_tool_call', '--accept-hooks']],
    ['test', 'SIGHUP', ['test', 'pre_tool_call']],
  ] as const)(
    '%s: the CLI dies of %s and leaves no hook or grandchild behind',
    async (_name, signal, argv) => {
      const { home: h, env } = home({
        pre_tool_call: [
          { command: `${HOOKS}/spawn-tree.sh`, timeout: 120 },
          { command: `${HOOKS}/spawn-tree.sh second`, timeout: 120 },
        ],
      });
      const pidsFile = join(h, 'pids');
      const pids = (): number[] => (existsSync(pidsFile) ? readFileSync(pidsFile, 'utf8').split('\n').filter(Boolean).map(Number) : []);
      let cliPid = 0;
      const done = runBin([...argv], { env, stdin: 'ignore', onSpawn: (pid) => (cliPid = pid), killAfterMs: 60_000 });
      // Two hooks, each recording itself and its background child.
      expect(await waitFor(() => pids().length === 4, 30_000)).toBe(true);
      expect(pids().every(isAlive)).toBe(true);
      process.kill(cliPid, signal);
      const r = await done;
      expect(r.signal).toBe(signal);
      expect(await waitFor(() => !pids().some(isAlive), 10_000)).toBe(true);
    },
    90_000,
  );
});
