#!/usr/bin/env node
// End to end against the REAL Claude Code with the mod wiring (issue 32): `print-config claude --mod
// DIR` writes a plugin, `claude -p --plugin-dir DIR` loads it, and the mod sends each tool call to
// serve over its socket from inside Claude (no hook process). A fake Messages API on 127.0.0.1 asks
// for one Bash call `touch MARK && <command>`; MARK existing afterwards means the tool ran.
//
//   CLAUDE_MOD_BIN=/tmp/agents-new/node_modules/@anthropic-ai/claude-code/bin/claude.exe node scripts/e2e/claude-mod.mjs [--root CHECKOUT]
//
// Needs Claude Code 2.1.287+ (mods). Rows: the usual guard (rm -rf blocked, anything else allowed) in
// each serve state (up, frozen, killed, never, never with autostart off) — the mod starts serve
// through the bundled client when nothing answers; a rewriting guard (the call must run rewritten);
// a wedged fail_closed guard (serve blocks it at its timeout, 12 s: longer than the mod's 10 s
// budget, which stops inside $ calls). No scaling: the mod's own deadline is liveness (~2 s), not a
// long timeout. Exit 0 when every row is ok.

import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { messagesApi, runAgent } from './_fake-apis.mjs';
import { cli, expected, killServesOf, makeHome, picked, printMod, serveIn, table } from './_harness.mjs';

const CLAUDE = process.env.CLAUDE_MOD_BIN ?? '/tmp/agents-new/node_modules/@anthropic-ai/claude-code/bin/claude.exe';
if (!existsSync(CLAUDE)) {
  console.error(`Set CLAUDE_MOD_BIN to a claude binary 2.1.287+ (not found: ${CLAUDE}); see the header of this file.`);
  process.exit(2);
}

const api = { command: '', toolUseAt: 0, toolResultAt: 0, toolResult: '' };
const { server, port: apiPort } = await messagesApi((msg) => {
  const last = msg.messages.at(-1);
  const toolResult = Array.isArray(last?.content) ? last.content.find((b) => b.type === 'tool_result') : undefined;
  if (toolResult) {
    api.toolResultAt ||= performance.now();
    api.toolResult = typeof toolResult.content === 'string' ? toolResult.content : JSON.stringify(toolResult.content);
    return { content: [{ type: 'text', text: 'done' }], stop: 'end_turn' };
  }
  if (!(msg.tools ?? []).some((t) => t.name === 'Bash')) return { content: [{ type: 'text', text: 'ok' }], stop: 'end_turn' };
  api.toolUseAt = performance.now();
  return {
    content: [{ type: 'tool_use', id: `toolu_mod_${Date.now()}`, name: 'Bash', input: { command: api.command, description: 'e2e' } }],
    stop: 'tool_use',
  };
});

const work = mkdtempSync(join(tmpdir(), 'hh-claude-mod-e2e-'));

/** One `claude -p --plugin-dir DIR` run; `ran(home)` says what the tool did. */
async function claudeRun(pluginDir, command, env = {}) {
  const home = mkdtempSync(join(work, 'home-'));
  mkdirSync(join(home, '.claude'), { recursive: true });
  mkdirSync(join(home, 'project'));
  const mark = join(home, 'tool-ran');
  Object.assign(api, { command: command.replaceAll('MARK', mark).replace('DIR', home), toolUseAt: 0, toolResultAt: 0, toolResult: '' });
  const t0 = performance.now();
  const { code, stderr } = await runAgent(CLAUDE, ['-p', 'Run the command.', '--output-format', 'json', '--allowedTools', 'Bash', '--plugin-dir', pluginDir], {
    cwd: join(home, 'project'),
    env: {
      PATH: process.env.PATH,
      HOME: home,
      ANTHROPIC_BASE_URL: `http://127.0.0.1:${apiPort}`,
      ANTHROPIC_API_KEY: 'sk-ant-e2e-dummy',
      DISABLE_AUTOUPDATER: '1',
      DISABLE_TELEMETRY: '1',
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
      ...env,
    },
    timeoutMs: 180_000,
  });
  const ms = api.toolUseAt && api.toolResultAt ? Math.round(api.toolResultAt - api.toolUseAt) : undefined;
  const outcome = !api.toolResultAt
    ? 'no tool_result'
    : existsSync(`${mark}.rewritten`)
      ? 'rewritten'
      : existsSync(mark) || existsSync(`${mark}.orig`)
        ? 'allowed'
        : 'blocked';
  const note = (api.toolResult || stderr.trim() || `exit ${code}`).replace(/\s+/g, ' ').slice(0, 120);
  return { outcome, ms, total_ms: Math.round(performance.now() - t0), note };
}

/** A home whose only pre_tool_call hook is `entry` (a script body, plus YAML keys), approved. */
function homeWith(name, body, keys = '') {
  const home = mkdtempSync('/tmp/hhm-');
  const script = join(home, name);
  writeFileSync(script, body);
  chmodSync(script, 0o755);
  writeFileSync(join(home, 'config.yaml'), `hooks:\n  pre_tool_call:\n    - command: ${JSON.stringify(script)}\n${keys}`);
  cli(['approve', '--all', '--home', home]);
  return home;
}

const REWRITE = `#!/usr/bin/env node
let s = ''; process.stdin.on('data', (c) => (s += c)).on('end', () => {
  const c = JSON.parse(s).tool_input?.command ?? '';
  if (c.includes('.orig')) process.stdout.write(JSON.stringify({ action: 'modify', args: { command: c.replace('.orig', '.rewritten') } }));
});
`;

const rows = [];
const STATES = picked('E2E_STATES', ['up', 'frozen', 'killed', 'never', 'noauto']);
const EXTRA = picked('E2E_EXTRA', ['rewrite', 'wedged']);
const { home, cleanup } = makeHome();
const homes = [home];
try {
  const dir = printMod('claude', home, join(work, 'mod'));
  for (const state of STATES) {
    const serve = await serveIn(state, home);
    try {
      for (const command of ['touch MARK && rm -rf DIR/x', 'touch MARK && ls']) {
        const r = await claudeRun(dir, command, state === 'noauto' ? { HERMES_HOOKS_AUTOSTART: '0' } : {});
        rows.push({ guard: 'rm -rf', serve: state, command, expected: expected(command, 'mod', state), ...r });
      }
    } finally {
      await serve.stop();
    }
  }
  if (EXTRA.includes('rewrite')) {
    const h = homeWith('rewrite.js', REWRITE);
    homes.push(h);
    const serve = await serveIn('up', h);
    try {
      const r = await claudeRun(printMod('claude', h, join(work, 'mod-rewrite')), 'touch MARK.orig');
      rows.push({ guard: 'rewrite', serve: 'up', command: 'touch MARK.orig', expected: 'rewritten', ...r });
    } finally {
      await serve.stop();
    }
  }
  if (EXTRA.includes('wedged')) {
    const h = homeWith('wedged.sh', '#!/bin/sh\nsleep 60\n', '      timeout: 12\n      fail_closed: true\n');
    homes.push(h);
    const serve = await serveIn('up', h);
    try {
      const r = await claudeRun(printMod('claude', h, join(work, 'mod-wedged')), 'touch MARK && ls');
      rows.push({ guard: 'wedged, fail_closed, 12 s', serve: 'up', command: 'touch MARK && ls', expected: 'blocked', ...r });
    } finally {
      await serve.stop();
    }
  }
} finally {
  for (const h of homes) killServesOf(h);
  cleanup();
  for (const h of homes.slice(1)) rmSync(h, { recursive: true, force: true });
  server.close();
  if (process.env.KEEP !== '1') rmSync(work, { recursive: true, force: true });
}

for (const r of rows) {
  r.verdict = r.outcome === r.expected ? 'ok' : r.expected === 'blocked' ? 'FAIL (open)' : 'FAIL';
  r.command = r.command.replace('touch MARK && ', '');
}
const version = (await runAgent(CLAUDE, ['--version'], { timeoutMs: 60_000 })).stdout.trim();
console.log(`Claude Code ${version} with the hermes-hooks mod (--plugin-dir); fake Messages API on 127.0.0.1:${apiPort}`);
console.log(table(rows, ['guard', 'serve', 'command', 'outcome', 'expected', 'verdict', 'ms', 'total_ms', 'note']));
process.exit(rows.every((r) => r.verdict === 'ok') ? 0 : 1);
