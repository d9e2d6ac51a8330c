#!/usr/bin/env node
// End to end against the REAL Claude Code (issue 15 item 10): does a Hermes `modify`, answered by
// `hermes-hooks run PreToolUse --dialect claude`, stay a rewrite — or does it become a permission
// grant that skips Claude's own check? Outside `npm test` (it needs the claude binary).
//
//   mkdir /tmp/cc && cd /tmp/cc && npm init -y && npm install @anthropic-ai/claude-code
//   CLAUDE_BIN=/tmp/cc/node_modules/@anthropic-ai/claude-code-linux-x64/claude node scripts/e2e/claude-rewrite-grant.mjs
//
// A fake Messages API on 127.0.0.1 (ANTHROPIC_BASE_URL) makes the model call Bash `echo original`.
// A Hermes guard in the profile rewrites it into `touch <a file outside the project>`. Claude runs in
// `-p` mode, default permission mode, nobody to approve, a throw-away HOME. Three runs:
//   1. hermes-hooks as the PreToolUse hook           → expect: the file is NOT created (Claude's own
//      check refuses the rewritten call) and the model sees that refusal for the rewritten command.
//   2. a hook printing the OLD answer (allow + updatedInput) → shows the escalation: file created.
//   3. hermes-hooks + a Claude allow rule for the rewritten command (user settings, --add-dir for
//      the outside folder) → file created: the rewrite IS applied, under Claude's own rules.
// Needs `npm run build` first (it runs dist/cli/bin.js). Exit 0 when all three behave as expected.

import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { messagesApi, runAgent } from './_fake-apis.mjs';

const ROOT = resolve(fileURLToPath(new URL('../..', import.meta.url)));
const BIN = join(ROOT, 'dist/cli/bin.js');
const CLAUDE = process.env.CLAUDE_BIN ?? process.argv[2];
if (!CLAUDE || !existsSync(CLAUDE)) {
  console.error('Set CLAUDE_BIN to the claude binary (see the header of this file for a temp-dir install).');
  process.exit(2);
}
if (!existsSync(BIN)) {
  console.error(`${BIN} is missing: run 'npm run build' first.`);
  process.exit(2);
}

const work = mkdtempSync(join(tmpdir(), 'hh-claude-e2e-'));
const outside = join(work, 'outside');
mkdirSync(outside);
const marker = join(outside, 'touched-by-rewrite');
const REWRITTEN = `touch ${marker}`;

// --- the Hermes profile: one guard that rewrites `echo original` -------------------------------
const hh = join(work, 'hermes');
mkdirSync(hh);
const guard = join(hh, 'rewrite.sh');
writeFileSync(
  guard,
  `#!/usr/bin/env bash
input=$(cat)
if [[ $(jq -r '.tool_input.command // empty' <<<"$input") == "echo original" ]]; then
  printf '{"action":"modify","args":{"command":"%s"}}\\n' ${JSON.stringify(REWRITTEN)}
fi
`,
);
chmodSync(guard, 0o755);
writeFileSync(join(hh, 'config.yaml'), `hooks:\n  pre_tool_call:\n    - command: ${JSON.stringify(guard)}\n`);
execFileSync(process.execPath, [BIN, 'approve', '--all', '--home', hh], { stdio: 'ignore' });

const oldAnswer = join(work, 'old-answer.sh');
writeFileSync(
  oldAnswer,
  `#!/bin/sh\ncat >/dev/null\nprintf '%s\\n' '${JSON.stringify({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'allow', updatedInput: { command: REWRITTEN } } })}'\n`,
);
chmodSync(oldAnswer, 0o755);

// --- a fake Messages API -----------------------------------------------------------------------
let requests = [];
const { server, port } = await messagesApi((msg) => {
  requests.push(msg);
  const last = msg.messages.at(-1);
  const toolResult = Array.isArray(last?.content) ? last.content.find((b) => b.type === 'tool_result') : undefined;
  if (toolResult) return { content: [{ type: 'text', text: 'done' }], stop: 'end_turn' };
  if (!(msg.tools ?? []).some((t) => t.name === 'Bash')) return { content: [{ type: 'text', text: 'ok' }], stop: 'end_turn' };
  return {
    content: [{ type: 'tool_use', id: `toolu_${requests.length}`, name: 'Bash', input: { command: 'echo original', description: 'Print original' } }],
    stop: 'tool_use',
  };
});

// --- one Claude run ----------------------------------------------------------------------------
async function claudeRun(name, hookCommand, allow = []) {
  // The allow rule (run 3) goes in the user's settings: Claude ignores a project's permissions.allow
  // until the workspace-trust dialog was accepted, and the rewritten path is outside the project,
  // so that folder is added (--add-dir) too.
  requests = [];
  rmSync(marker, { force: true });
  const project = join(work, `project-${name}`);
  const home = join(work, `home-${name}`);
  mkdirSync(join(project, '.claude'), { recursive: true });
  mkdirSync(home, { recursive: true });
  writeFileSync(
    join(project, '.claude/settings.json'),
    JSON.stringify({ hooks: { PreToolUse: [{ matcher: '*', hooks: [{ type: 'command', command: hookCommand, timeout: 60 }] }] } }, null, 2),
  );
  if (allow.length) {
    mkdirSync(join(home, '.claude'), { recursive: true });
    writeFileSync(join(home, '.claude/settings.json'), JSON.stringify({ permissions: { allow } }, null, 2));
  }
  const env = {
    PATH: process.env.PATH,
    HOME: home,
    ANTHROPIC_BASE_URL: `http://127.0.0.1:${port}`,
    ANTHROPIC_API_KEY: 'sk-ant-test-e2e',
    DISABLE_AUTOUPDATER: '1',
    DISABLE_TELEMETRY: '1',
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
  };
  const args = ['-p', 'Run the command.', '--output-format', 'json', '--permission-mode', 'default', ...(allow.length ? ['--add-dir', outside] : [])];
  const { code, stdout: out, stderr: err } = await runAgent(CLAUDE, args, { cwd: project, env, timeoutMs: 120_000 });
  const toolResults = requests.flatMap((m) => m.messages.flatMap((x) => (Array.isArray(x.content) ? x.content.filter((b) => b.type === 'tool_result') : [])));
  const resultText = toolResults.map((b) => (typeof b.content === 'string' ? b.content : JSON.stringify(b.content))).join(' | ');
  return { name, code, created: existsSync(marker), resultText, requests: requests.length, stderr: err.trim().slice(0, 400), stdout: out.trim().slice(0, 300) };
}

const version = execFileSync(CLAUDE, ['--version'], { encoding: 'utf8' }).trim();
const hermes = `${process.execPath} ${BIN} run PreToolUse --dialect claude --home ${hh}`;
const runs = [
  { ...(await claudeRun('hermes-hooks', hermes)), expectCreated: false },
  { ...(await claudeRun('old-allow-answer', oldAnswer)), expectCreated: true },
  { ...(await claudeRun('hermes-hooks+allow-rule', hermes, [`Bash(${REWRITTEN})`])), expectCreated: true },
];
server.close();

console.log(`Claude Code ${version}; fake API on 127.0.0.1:${port}; rewrite: echo original → ${REWRITTEN}`);
let ok = true;
for (const r of runs) {
  const good = r.created === r.expectCreated && r.requests >= 2;
  ok &&= good;
  console.log(
    `\n${good ? 'OK  ' : 'FAIL'} ${r.name}: exit ${r.code}, API requests ${r.requests}, file outside the project ${r.created ? 'CREATED' : 'not created'} (expected ${r.expectCreated ? 'created' : 'not created'})`,
  );
  console.log(`     tool_result the model got: ${r.resultText.slice(0, 300) || '(none)'}`);
  if (!good) console.log(`     stdout: ${r.stdout}\n     stderr: ${r.stderr}`);
}
if (process.env.KEEP !== '1') rmSync(work, { recursive: true, force: true });
else console.log(`\nkept ${work}`);
process.exit(ok ? 0 : 1);
