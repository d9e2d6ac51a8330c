import { spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { shellQuote } from '../../src/consent/policy.js';
import { formatPrompt, isYes, promptOnTty } from '../../src/consent/prompt.js';

const CHILD = path.join(import.meta.dirname, '../fixtures/consent/prompt-child.mjs');
const ROOT = path.join(import.meta.dirname, '../..');
const QUESTION = 'Allow this hook to run? [y/N]: ';

let home: string;
let hookA: string;
let hookB: string;

beforeEach(() => {
  home = mkdtempSync(path.join(os.tmpdir(), 'consent-tty-'));
  hookA = path.join(home, 'a.sh');
  hookB = path.join(home, 'b.sh');
  for (const f of [hookA, hookB]) {
    writeFileSync(f, '#!/bin/sh\nexit 0\n');
    chmodSync(f, 0o755);
  }
});

afterEach(() => rmSync(home, { recursive: true, force: true }));

interface PtyRun {
  output: string;
  code: number | null;
  result: { tty: boolean; actions: string[]; warnings: string[] };
}

/**
 * Run the prompt child under a real pseudo-terminal via util-linux `script`. `input` is fed up
 * front; `onQuestion(n)` may answer the n-th question once it is on screen.
 */
function runUnderPty(
  hooks: [string, string][],
  opts: { input?: string; onQuestion?: (n: number) => string | null; env?: Record<string, string> } = {},
): Promise<PtyRun> {
  // `exec`: the node process itself must be the one the terminal's Ctrl-C reaches.
  const cmd = `exec ${[process.execPath, '--import', 'tsx', CHILD, home, ...hooks.flat()].map(shellQuote).join(' ')}`;
  return new Promise((resolve, reject) => {
    const child = spawn('script', ['-qfec', cmd, '/dev/null'], {
      cwd: ROOT,
      env: { ...process.env, SHELL: '/bin/sh', ...opts.env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const guard = setTimeout(() => child.kill('SIGKILL'), 60_000);
    let output = '';
    let questions = 0;
    child.stdout.on('data', (chunk) => {
      output += chunk;
      const seen = output.split(QUESTION).length - 1;
      while (opts.onQuestion && questions < seen) {
        const answer = opts.onQuestion(++questions);
        if (answer !== null) child.stdin.write(answer);
      }
    });
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(guard);
      const clean = output.replace(/\r\n/g, '\n');
      // The answer typed at the question is not always echoed with its newline, so RESULT may
      // share the question's line.
      const m = /RESULT (\{.*\})$/m.exec(clean);
      if (!m) return reject(new Error(`no RESULT line (exit ${code}):\n${clean}`));
      resolve({ output: clean, code, result: JSON.parse(m[1] as string) });
    });
    if (opts.input !== undefined) child.stdin.write(opts.input);
    if (!opts.onQuestion) child.stdin.end();
  });
}

const approvals = (): string[] => {
  const file = path.join(home, 'shell-hooks-allowlist.json');
  if (!existsSync(file)) return [];
  return JSON.parse(readFileSync(file, 'utf8')).approvals.map((e: { event: string; command: string }) => `${e.event} ${e.command}`);
};

describe('promptOnTty under a real pseudo-terminal', () => {
  it('"y" approves: the question is shown on the terminal and the approval is recorded', async () => {
    const run = await runUnderPty([['pre_tool_call', `bash ${hookA}`]], { input: 'y\n' });
    expect(run.result).toEqual({ tty: true, actions: ['run'], warnings: [] });
    expect(run.output).toContain('⚠ hermes-hooks is about to register a shell hook that will run a\n  command on your behalf.');
    expect(run.output).toContain(`    Event:   pre_tool_call\n    Command: bash ${hookA}\n    Script:  ${hookA}\n    SHA-256: `);
    expect(run.output).toContain('The command runs with your full user credentials.');
    expect(run.output).toContain(QUESTION);
    expect(approvals()).toEqual([`pre_tool_call bash ${hookA}`]);
    expect(run.code).toBe(0);
  }, 90_000);

  it('anything but y/yes declines; nothing is recorded', async () => {
    const run = await runUnderPty([['pre_tool_call', hookA]], { input: 'sure\n' });
    expect(run.result.actions).toEqual(['skip']);
    expect(run.result.warnings[0]).toContain('was declined at the prompt');
    expect(approvals()).toEqual([]);
  }, 90_000);

  it('answers typed ahead go to the questions in order ("YES", then "n")', async () => {
    const run = await runUnderPty(
      [
        ['pre_tool_call', hookA],
        ['post_tool_call', hookB],
      ],
      { input: ' YES \nn\n' },
    );
    expect(run.result.actions).toEqual(['run', 'skip']);
    expect(run.output.split(QUESTION)).toHaveLength(3);
    expect(approvals()).toEqual([`pre_tool_call ${hookA}`]);
  }, 90_000);

  it('Ctrl-C at the question declines and the program carries on', async () => {
    const run = await runUnderPty(
      [
        ['pre_tool_call', hookA],
        ['post_tool_call', hookB],
      ],
      { onQuestion: (n) => (n === 1 ? '\x03' : 'y\n') },
    );
    expect(run.result.actions).toEqual(['skip', 'run']);
    expect(approvals()).toEqual([`post_tool_call ${hookB}`]);
  }, 90_000);

  it('an unanswered question declines after the optional timeout', async () => {
    const run = await runUnderPty([['pre_tool_call', hookA]], { onQuestion: () => null, env: { PROMPT_TIMEOUT_MS: '500' } });
    expect(run.result).toMatchObject({ tty: true, actions: ['skip'] });
    expect(approvals()).toEqual([]);
  }, 90_000);

  it('end of input (Ctrl-D / closed terminal input) declines', async () => {
    const run = await runUnderPty([['pre_tool_call', hookA]], { input: '' });
    expect(run.result).toMatchObject({ tty: true, actions: ['skip'] });
    expect(approvals()).toEqual([]);
  }, 90_000);
});

describe('promptOnTty without a terminal', () => {
  const info = () => {
    const base = { event: 'pre_tool_call', command: '/x.sh', state: 'not_approved' as const, script_path: '/x.sh', script_sha256: null, reason: 'r' };
    return { ...base, text: formatPrompt(base) };
  };

  it('declines at once, printing nothing, when stdin is not a TTY', async () => {
    const input = new PassThrough() as unknown as NodeJS.ReadStream;
    const output = new PassThrough();
    let printed = '';
    output.on('data', (c) => (printed += c));
    await expect(promptOnTty(info(), { input, output })).resolves.toBe(false);
    expect(printed).toBe('');
  });

  it('the policy child on plain pipes never prompts and never hangs', async () => {
    const out = await new Promise<string>((resolve, reject) => {
      const child = spawn(process.execPath, ['--import', 'tsx', CHILD, home, 'pre_tool_call', hookA], { cwd: ROOT, stdio: ['pipe', 'pipe', 'pipe'] });
      let text = '';
      child.stdout.on('data', (c) => (text += c));
      child.stderr.on('data', (c) => (text += c));
      child.on('error', reject);
      child.on('close', () => resolve(text));
      // stdin stays open: a prompt waiting on it would hang here.
    });
    expect(out).not.toContain(QUESTION);
    expect(out).toContain('"tty":false,"actions":["skip"]');
  }, 60_000);
});

describe('formatPrompt / isYes', () => {
  it('names a missing script', () => {
    const text = formatPrompt({ event: 'e', command: 'jq .', state: 'not_approved', script_path: 'jq', script_sha256: null, reason: '' });
    expect(text).toContain('    Script:  jq\n    SHA-256: (script missing or unreadable)\n');
  });
  it('says when the interpreter is what is pinned, and shows every field inert', () => {
    const text = formatPrompt({
      event: 'pre_tool_call',
      command: "python3 -c 'x'\u001b[1A\u001b[2K\r    Command: /bin/true",
      state: 'modified',
      script_path: '/usr/bin/python3',
      script_note: 'python3 -c runs code from the command line: the python3 binary is pinned, not the code it runs',
      script_sha256: 'a'.repeat(64),
      reason: 'modified since approval: /usr/bin/python3 changed\u202e',
    });
    expect(text).toContain('    /usr/bin/python3 changed\\u202e\n');
    expect(text).toContain("    Command: python3 -c 'x'\\e[1A\\e[2K\\r    Command: /bin/true\n");
    expect(text).toContain(
      `    Script:  /usr/bin/python3\n    SHA-256: ${'a'.repeat(64)}\n    Note:    python3 -c runs code from the command line: the python3 binary is pinned, not the code it runs\n`,
    );
    expect(text).not.toMatch(/[\u001b\r\u202e]/);
  });
  it.each([
    ['y', true],
    ['Y', true],
    [' yes\r', true],
    ['YES', true],
    ['', false],
    ['n', false],
    ['yep', false],
    ['y es', false],
  ])('%j → %s', (answer, yes) => {
    expect(isYes(answer)).toBe(yes);
  });
});
