// Rows of the per-agent e2e scripts beyond the serve states (issue 32): a guard with its own behaviour
// in a home of its own, through the `run` wiring and the default `client` wiring (serve up).
//   wedged   a fail_closed guard that hangs past its 2 s timeout: `rm -rf` AND `ls` must be blocked
//            (hermes-hooks fails it closed) well before the agent's own hook timeout.
//   rewrite  a guard that rewrites `touch …/tool-ran && ls` into `touch …/rewritten`: what the agent
//            does with it must be what its record says (support.rewrite: yes → the rewritten call runs;
//            ignored → the original runs, the rewrite dropped; no → either, said).
// `call(snippet, command, { env })` is the script's one agent run; it returns `{ outcome, rewritten, … }`
// where `rewritten` says whether the file the rewrite touches exists afterwards.

import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BIN, cli, killServesOf, picked, printConfig, serveIn, setAgentTimeout, table, timeoutChain, WIRINGS } from './_harness.mjs';

const GUARDS = {
  wedged: {
    entry: (guard) => `    - command: ${JSON.stringify(guard)}\n      fail_closed: true\n      timeout: 2\n`,
    text: '#!/usr/bin/env bash\ncat >/dev/null\nsleep 600\n',
    commands: ['touch MARK && rm -rf DIR/x', 'touch MARK && ls'],
  },
  rewrite: {
    entry: (guard) => `    - command: ${JSON.stringify(guard)}\n`,
    text:
      '#!/usr/bin/env python3\nimport json, sys\nd = json.load(sys.stdin)\nc = (d.get("tool_input") or {}).get("command", "")\n' +
      'if "tool-ran && ls" in c:\n    print(json.dumps({"action": "modify", "args": {"command": c.replace("tool-ran && ls", "rewritten")}}))\n',
    commands: ['touch MARK && ls'],
  },
};
const KINDS = picked('E2E_GUARDS', Object.keys(GUARDS));

/** What the agent's record says it does with a rewrite (the built checkout's). */
async function rewriteSupport(agent) {
  const { agentModule } = await import(new URL('../dialects/agents/index.js', `file://${BIN}`).href);
  return agentModule(agent).support?.rewrite ?? 'no';
}

function judge(kind, r, support) {
  if (kind === 'wedged') return { outcome: r.outcome, expected: 'blocked', verdict: r.outcome === 'blocked' ? 'ok' : 'FAIL (open)' };
  const outcome = r.rewritten && r.outcome !== 'allowed' ? 'rewritten' : r.outcome === 'allowed' ? 'original ran' : r.outcome;
  const expected = support === 'yes' ? 'rewritten' : support === 'ignored' ? 'original ran' : 'rewritten or original ran';
  return { outcome, expected: `${expected} (record: ${support})`, verdict: expected.split(' or ').includes(outcome) ? 'ok' : 'FAIL (record is wrong)' };
}

/** The rows for `agent` (E2E_GUARDS=wedged,rewrite picks them) through `wirings` ∩ E2E_WIRINGS, `run` and `client` only. */
export async function runGuardRows(agent, { wirings, call }) {
  const rows = [];
  const support = await rewriteSupport(agent);
  for (const kind of KINDS) {
    const g = GUARDS[kind];
    const home = mkdtempSync('/tmp/hhg-');
    const guard = join(home, 'guard');
    writeFileSync(guard, g.text);
    chmodSync(guard, 0o755);
    writeFileSync(join(home, 'config.yaml'), `hooks:\n  pre_tool_call:\n${g.entry(guard)}`);
    cli(['approve', '--all', '--home', home]);
    try {
      for (const wiring of WIRINGS.filter((w) => wirings.includes(w) && w !== 'http')) {
        const snippet = printConfig(agent, home, { wiring });
        const chain = timeoutChain(snippet);
        setAgentTimeout(snippet, chain.agent);
        const env = chain.client !== undefined ? { HERMES_HOOKS_TIMEOUT: String(chain.client) } : {};
        const serve = wiring === 'run' ? { stop: async () => {} } : await serveIn('up', home, { requestTimeout: chain.serve });
        try {
          for (const command of g.commands) {
            const r = await call(snippet, command, { env });
            const { outcome, expected, verdict } = judge(kind, r, support);
            rows.push({
              guard: kind,
              wiring,
              serve: wiring === 'run' ? '-' : 'up',
              command: command.replace('touch MARK && ', ''),
              ...r,
              outcome,
              expected,
              verdict,
            });
          }
        } finally {
          await serve.stop();
        }
      }
    } finally {
      killServesOf(home);
      rmSync(home, { recursive: true, force: true });
    }
  }
  return rows;
}

/** Prints the guard rows; returns the exit code (0: every row ok). */
export function reportGuardRows(rows, cols = []) {
  if (rows.length === 0) return 0;
  console.log('\nguards of their own (wedged fail_closed: both blocked; rewrite: as the record says):');
  console.log(table(rows, ['guard', 'wiring', 'serve', 'command', 'outcome', 'expected', 'verdict', ...cols]));
  return rows.every((r) => r.verdict === 'ok') ? 0 : 1;
}
