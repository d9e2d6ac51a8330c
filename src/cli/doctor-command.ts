// `hermes-hooks doctor`: per hook — runnable as configured, consent, modified since approval, and a
// smoke run on the synthetic payload only when approved, judging whether the answer is one the
// event honours (Hermes' doctor called any JSON healthy, #92553). `--ping` sends a signed test
// delivery to each outbound target. Exit 1 when any problem is found.

import { access, constants } from 'node:fs/promises';
import { parseDialectsConfig, defaultDialectMaps } from '../dialects/names.js';
import { inspectStdout } from '../directives/parse-stdout.js';
import { smokeRunHook } from '../engine/smoke-run.js';
import { EVENTS, syntheticKwargs } from '../events.js';
import { createOutboundDispatcher } from '../outbound/dispatcher.js';
import { describeOutboundTarget } from '../outbound/describe.js';
import { splitCommand } from '../spawn/argv.js';
import type { HookOutcome, HookSpec } from '../types.js';
import { discoveryOf, parseCommandArgs } from './_args.js';
import { painter, type Paint } from './_color.js';
import { writeLine, type CliIO } from './_io.js';
import { openProfile, openStore } from './_profile.js';
import { formatDiagnostic } from './_report.js';

const HELP = `Usage: hermes-hooks doctor [--json] [--ping] [discovery options]

For every configured hook: the script exists and is runnable as configured, consent state, modified
since approval, and — only for approved hooks — a smoke run on the event's synthetic payload that
reports timeouts, launch errors, non-JSON stdout and answers the event does not honour.
  --ping   also send a signed test delivery to each outbound webhook target
Exit 1 when any problem is found.
`;

interface Check {
  ok: boolean | null; // null = informational
  message: string;
}

export async function doctorCommand(args: string[], io: CliIO): Promise<number> {
  const { values } = parseCommandArgs('doctor', args, { json: { type: 'boolean' }, ping: { type: 'boolean' } });
  if (values.help) {
    io.stdout.write(HELP);
    return 0;
  }
  const profile = await openProfile(discoveryOf(values), io);
  const store = await openStore(profile, io);
  const maps = profile.config.exists ? parseDialectsConfig(profile.config.source).maps : defaultDialectMaps();
  const report: { event: string; index: number; command: string; checks: Check[]; smoke: HookOutcome | null }[] = [];

  for (const spec of profile.config.specs) {
    const checks: Check[] = [];
    const consent = await store.state(spec);
    checks.push(await runnableCheck(spec, consent.script_path, io));
    if (consent.state === 'approved') {
      checks.push({ ok: true, message: `approved (${consent.approved_at ?? '?'})${consent.pinned ? '' : ' — hash not pinned: re-approve to pin it'}` });
    } else if (consent.state === 'modified') {
      checks.push({ ok: false, message: `${consent.reason} — review the script, then 'hermes-hooks approve' it again` });
    } else {
      checks.push({
        ok: false,
        message: `not approved — hook will NOT run (${spec.fail_closed && spec.event === 'pre_tool_call' ? 'and, being fail_closed, blocks the calls it matches' : "run 'hermes-hooks approve', --accept-hooks, or answer the TTY prompt"})`,
      });
    }
    let smoke: HookOutcome | null = null;
    if (consent.state === 'approved' && checks[0]!.ok) {
      smoke = await smokeRunHook(spec, syntheticKwargs(spec.event), { home: profile.home, profile: profile.profile, cwd: io.cwd, env: io.env, dialectMaps: maps });
      checks.push(smokeCheck(spec, smoke));
    } else {
      checks.push({ ok: null, message: 'skipped smoke run — approve the hook first, then re-run doctor' });
    }
    report.push({ event: spec.event, index: spec.index, command: spec.command, checks, smoke });
  }

  const pings: { target: string; ok: boolean; detail: string }[] = [];
  if (values.ping && profile.outbound.length) {
    const dispatcher = createOutboundDispatcher(profile.outbound, { profile: profile.profile, cwd: io.cwd });
    for (const t of profile.outbound) {
      const r = await dispatcher.ping(t);
      pings.push({ target: t.name ?? t.url, ok: r.ok, detail: `${r.outcome}${r.status_code ? ` ${r.status_code}` : ''}${r.error ? `: ${r.error}` : ''}${r.signed ? ', signed' : ', UNSIGNED'}` });
    }
    await dispatcher.close();
  }

  const configProblems = profile.diagnostics.filter((d) => d.level !== 'info');
  const issues = report.reduce((n, r) => n + r.checks.filter((c) => c.ok === false).length, 0) + pings.filter((p) => !p.ok).length + configProblems.length;

  if (values.json) {
    writeLine(io.stdout, JSON.stringify({
      config: profile.configFile,
      healthy: issues === 0,
      issues,
      hooks: report,
      outbound: profile.outbound.map(describeOutboundTarget),
      pings,
      diagnostics: profile.diagnostics,
    }));
    return issues === 0 ? 0 : 1;
  }
  const paint = painter(io);
  if (!profile.config.specs.length) writeLine(io.stdout, `No shell hooks configured in ${profile.configFile} — nothing to check.`);
  else writeLine(io.stdout, `Checking ${profile.config.specs.length} configured shell hook(s) in ${profile.configFile}...\n\n`);
  for (const r of report) {
    writeLine(io.stdout, `  [${r.event}] ${r.command}`);
    for (const c of r.checks) writeLine(io.stdout, `      ${mark(c, paint)} ${c.message}`);
    writeLine(io.stdout);
  }
  for (const p of pings) writeLine(io.stdout, `  ping ${p.target}: ${p.ok ? paint('green', '✓') : paint('red', '✗')} ${p.detail}`);
  for (const d of configProblems) writeLine(io.stdout, `  ${formatDiagnostic(d, paint)}`);
  writeLine(io.stdout, issues === 0 ? paint('green', 'All hooks look healthy.') : paint('red', `${issues} issue(s) found.  Fix before relying on these hooks.`));
  return issues === 0 ? 0 : 1;
}

function mark(c: Check, paint: Paint): string {
  return c.ok === null ? paint('dim', 'ℹ') : c.ok ? paint('green', '✓') : paint('red', '✗');
}

/** Bare invocation (argv[0] is the script) needs exec permission; interpreter-prefixed needs read. */
async function runnableCheck(spec: HookSpec, scriptPath: string | null, io: CliIO): Promise<Check> {
  const split = splitCommand(spec.command, { homedir: io.env.HOME });
  if (!split.ok) return { ok: false, message: split.error };
  if (!scriptPath || !scriptPath.startsWith('/')) {
    return { ok: false, message: `script or command not found${scriptPath ? ` (${scriptPath})` : ''} (fix the path, or put it on PATH)` };
  }
  const bare = split.argv[0] === scriptPath || (split.argv[0] ?? '').endsWith(`/${scriptPath.split('/').pop()}`) && !scriptPath.includes(' ');
  const mode = bare && split.argv[0] !== undefined && !/^(bash|sh|zsh|python3?|node|env|\/usr\/bin\/env)$/.test(split.argv[0].split('/').pop() ?? '') ? constants.X_OK : constants.R_OK;
  try {
    await access(scriptPath, mode);
    return { ok: true, message: `script exists and is ${mode === constants.X_OK ? 'executable' : 'readable'} (${scriptPath})` };
  } catch {
    return { ok: false, message: `script missing or not ${mode === constants.X_OK ? 'executable (chmod +x the file, or fix the path)' : 'readable'} (${scriptPath})` };
  }
}

function smokeCheck(spec: HookSpec, o: HookOutcome): Check {
  const t = `(exit=${o.exit_code ?? o.signal ?? '-'}, ${(o.duration_ms / 1000).toFixed(3)}s)`;
  switch (o.status) {
    case 'timeout':
      return { ok: false, message: `timed out on the synthetic payload (timeout=${spec.timeout}s)` };
    case 'launch_failed':
      return { ok: false, message: `execution error: ${o.error}` };
    case 'output_limit':
      return { ok: false, message: 'printed more than the output limit on the synthetic payload' };
    case 'skipped':
      return { ok: false, message: `not run: ${o.error}` };
    default:
      break;
  }
  const stdout = o.stdout.trim();
  const honours = EVENTS[spec.event].honours;
  if (o.directive) {
    const action = o.directive.action;
    if (!(honours as readonly string[]).includes(action)) {
      return { ok: false, message: `answered '${action}', which ${spec.event} does not honour (it honours: ${honours.join(', ') || 'nothing — observer only'}) ${t}` };
    }
    return { ok: true, message: `answered ${JSON.stringify(o.directive)} on the synthetic payload ${t}` };
  }
  if (o.status === 'nonzero_exit') return { ok: false, message: `exited ${o.exit_code ?? o.signal} on the synthetic payload${o.stderr.trim() ? `: ${o.stderr.trim().slice(0, 120)}` : ''} ${t}` };
  if (!stdout) return { ok: true, message: `ran clean with empty stdout ${t} — observer only` };
  try {
    const v: unknown = JSON.parse(stdout);
    if (typeof v !== 'object' || v === null || Array.isArray(v)) return { ok: false, message: `stdout is JSON but not an object ${t}: ${stdout.slice(0, 120)}` };
    // An answer only another event reads (a block on post_tool_call, a continue on pre_llm_call) is ignored here.
    const meant = spec.dialect === 'hermes' ? (inspectStdout('pre_tool_call', stdout).directive ?? inspectStdout('pre_verify', stdout).directive) : null;
    if (meant) {
      return { ok: false, message: `answered '${meant.action}', which ${spec.event} does not honour (it honours: ${honours.join(', ') || 'nothing — observer only'}) ${t}` };
    }
    return { ok: null, message: `produced a JSON object with no directive ${spec.event} reads ${t}: ${stdout.slice(0, 120)}` };
  } catch {
    return { ok: false, message: `stdout was not valid JSON ${t}: ${stdout.slice(0, 120)}` };
  }
}
