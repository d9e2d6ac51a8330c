// The broken-guard rows of the per-agent e2e scripts (issue 30, "said where you see it"): a guard
// that cannot do its part, one `ls` through the agent, and where the agent put the message.

import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cli, killServesOf, picked, printConfig, ROWS, serveIn, setAgentTimeout, table, timeoutChain, WIRINGS } from './_harness.mjs';

// A guard that cannot do its part — no x bit, or a Python traceback (exit 1) — is not fail_closed, so
// the call goes ahead (Hermes: fail open); hermes-hooks puts the problem in the answer's top-level
// systemMessage. These rows prove that text reaches a place the person (or the model) sees.

/** Each broken guard: its file, and the systemMessage line that must arrive (not the stderr warning's wording). */
const BROKEN = {
  'no x bit': {
    file: 'guard.sh',
    text: '#!/usr/bin/env bash\ncat >/dev/null\n',
    mode: 0o644,
    said: (p) => new RegExp(`hook ${p} (could not|cannot) start.*?chmod \\+x`),
  },
  traceback: {
    file: 'guard.py',
    text: '#!/usr/bin/env python3\nimport sys\nsys.stdin.read()\nraise ValueError("e2e broken guard")\n',
    mode: 0o755,
    said: (p) => new RegExp(`hook ${p} exited 1.*?ValueError: e2e broken guard`),
  },
};
const BROKEN_KINDS = picked('E2E_BROKEN', Object.keys(BROKEN));

/** A home whose only pre_tool_call guard is broken the `kind` way, approved like makeHome's. */
export function makeBrokenHome(kind) {
  const b = BROKEN[kind];
  const home = mkdtempSync('/tmp/hhb-');
  const guard = join(home, b.file);
  writeFileSync(guard, b.text);
  chmodSync(guard, b.mode);
  writeFileSync(join(home, 'config.yaml'), `hooks:\n  pre_tool_call:\n    - command: ${JSON.stringify(guard)}\n`);
  cli(['approve', '--all', '--home', home]);
  return { home, guard, said: b.said(guard.replace(/[.]/g, '\\.')), cleanup: () => rmSync(home, { recursive: true, force: true }) };
}

/**
 * The broken-guard rows: for each broken kind (E2E_BROKEN, default all) and each of `wirings` picked by
 * E2E_WIRINGS (`client` with serve up — the default wiring — and `run`), one `ls` through `call`, which
 * returns `{ outcome, ms, places }`: `places` maps where the agent shows things (stdout, stderr, its
 * JSON stream, transcript, the model requests) to their text. `seen` lists the places holding the
 * message (`raw …` places, a hook's stdout echoed as it came, are listed apart and do not count); a row is
 * ok when the tool ran (fail open) and the message arrived somewhere shown.
 */
export async function runBrokenGuards(agent, { wirings, call, unitMs = false }) {
  const rows = [];
  if (!ROWS.includes('broken')) return rows;
  for (const kind of BROKEN_KINDS) {
    const { home, said, cleanup } = makeBrokenHome(kind);
    try {
      for (const wiring of WIRINGS.filter((w) => wirings.includes(w) && w !== 'http')) {
        const snippet = printConfig(agent, home, { wiring });
        const chain = timeoutChain(snippet, { unitMs });
        setAgentTimeout(snippet, chain.agent, { unitMs });
        const env = chain.client !== undefined ? { HERMES_HOOKS_TIMEOUT: String(chain.client) } : {};
        const serve = wiring === 'run' ? { stop: async () => {} } : await serveIn('up', home, { requestTimeout: chain.serve });
        try {
          const { places = {}, ...r } = await call(snippet, 'touch MARK && ls', { env, broken: true });
          // A place named `raw …` only echoes the hook's stdout as it came (a log): it proves nothing was shown.
          const hits = Object.entries(places).filter(([, text]) => said.test(text ?? ''));
          const seen = hits.filter(([where]) => !where.startsWith('raw ')).map(([where]) => where);
          const raw = hits.filter(([where]) => where.startsWith('raw ')).map(([where]) => where.slice(4));
          const shown = hits[0]?.[1].match(said)?.[0];
          const verdict = r.outcome !== 'allowed' ? 'FAIL (not fail open)' : seen.length === 0 ? 'FAIL (not shown)' : 'ok';
          const serveState = wiring === 'run' ? '-' : 'up';
          const where = { seen: seen.join(', ') || 'nowhere', raw: raw.join(', '), said: shown?.slice(0, 80) };
          rows.push({ broken: kind, wiring, serve: serveState, ...r, verdict, ...where });
        } finally {
          await serve.stop();
        }
      }
    } finally {
      killServesOf(home);
      cleanup();
    }
  }
  return rows;
}

/** Prints the broken-guard table; returns the exit code (0: every row ok). */
export function reportBroken(rows, cols = []) {
  if (rows.length === 0) return 0;
  console.log('\nbroken guard (the message must reach the person or the model):');
  console.log(table(rows, ['broken', 'wiring', 'serve', 'outcome', 'verdict', 'seen', 'raw', ...cols]));
  return rows.every((r) => r.verdict === 'ok') ? 0 : 1;
}
