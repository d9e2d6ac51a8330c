// `hermes-hooks doctor`: per hook — runnable as configured, consent, modified since approval, and a
// smoke run on the synthetic payload (marked as a test) only when approved and its event takes an
// answer (observers only with --smoke-all: their run is all side effect), judged by its outcome in production: a run
// that fails closed (a guard that would block every call), times out, crashes, prints what is not a
// JSON object or answers what the event does not honour is a problem (Hermes' doctor called any JSON
// healthy, #92553). `--ping` sends a signed test delivery to each outbound target. Under
// HERMES_SAFE_MODE nothing runs and nothing is sent. Exit 1 when any problem is found.

import { isTruthyEnv } from '../config/hooks.js';
import { shellQuote } from '../consent/policy.js';
import { inert } from '../display.js';
import { formatDrift, type ConsentInfo } from '../consent/state.js';
import { whatRunDoes } from '../consent/run-rule.js';
import { failClosedMessage, failsClosed, isFailClosedBlock, KEEP_A_HELPER, leftProcessesText } from '../directives/messages.js';
import { exitCodeAdvice } from '../dialects/advice.js';
import { honoursText } from '../directives/answer-problem.js';
import { inspectStdout } from '../directives/parse-stdout.js';
import { exitIsAnswer } from '../engine/run-hooks.js';
import { observesOnly, smokeKwargs, smokeRunHook } from '../engine/smoke-run.js';
import { EVENTS, syntheticKwargs } from '../events.js';
import { createOutboundDispatcher } from '../outbound/dispatcher.js';
import { describeOutboundTarget } from '../outbound/describe.js';
import type { Diagnostic, HookOutcome, HookSpec } from '../types.js';
import { discoveryOf, type ParsedArgs } from './_args.js';
import { checkCommand } from './_command-check.js';
import { painter, type Paint } from './_color.js';
import { writeLine, type CliIO } from './_io.js';
import { missingConfigNote, openProfile, openStore, type Profile } from './_profile.js';
import type { ConsentStore } from '../consent/store.js';
import { formatDiagnostic } from './_report.js';

interface Check {
  ok: boolean | null; // null = informational
  message: string;
}

interface Runnable extends Check {
  /** The script (or the program) the command names does not exist. */
  missing: boolean;
  /** The file checked, when there is one. */
  file: string | null;
}

interface HookReport {
  event: string;
  index: number;
  command: string;
  checks: Check[];
  smoke: HookOutcome | null;
  script: string | null;
  fails_closed: boolean;
}

interface Ping {
  target: string;
  ok: boolean;
  detail: string;
}

/** What doctor found, before it is printed. */
interface Findings {
  profile: Profile;
  store: ConsentStore;
  safeMode: boolean;
  report: HookReport[];
  pings: Ping[];
  pingSkipped: string | null;
  untrusted: Profile['untrusted'];
  configProblems: Diagnostic[];
  missing: string | null;
  missingIsProblem: boolean;
  issues: number;
}

export async function doctorCommand({ values }: ParsedArgs, io: CliIO): Promise<number> {
  const profile = await openProfile(discoveryOf(values), io, { wholeProfile: true });
  const store = await openStore(profile, io);
  const safeMode = isTruthyEnv(io.env.HERMES_SAFE_MODE);
  const report: HookReport[] = [];
  const smokeAll = values['smoke-all'] === true;
  for (const spec of profile.config.specs) report.push(await checkHook(spec, { profile, store, safeMode, smokeAll, io }));

  const pings: Ping[] = [];
  const pingSkipped = values.ping && profile.outbound.length && safeMode ? 'HERMES_SAFE_MODE is set: no webhook was sent' : null;
  if (values.ping && profile.outbound.length && !safeMode) pings.push(...(await pingTargets(profile, io)));

  // Files that fail the trust rule are ✗ lines of their own (with the fix), not config warnings.
  const untrusted = profile.untrusted.filter((u) => u.message !== '');
  const trustWarnings = new Set(profile.trustDiagnostics);
  const configProblems = profile.diagnostics.filter((d) => d.level !== 'info' && !trustWarnings.has(d));
  // A refused allowlist approves nothing: never "healthy", even with no hook configured yet.
  const allowlistIssue = store.refused;
  // A home the user named that holds no config.yaml is a problem (most likely the wrong path); the
  // implicit default without one is a fresh install. Neither is ever called healthy.
  const missing = missingConfigNote(profile);
  const missingIsProblem = missing !== null && profile.location.homeFrom !== 'default';
  const issues =
    report.reduce((n, r) => n + r.checks.filter((c) => c.ok === false).length, 0) +
    pings.filter((p) => !p.ok).length +
    configProblems.length +
    untrusted.length +
    (allowlistIssue !== null && report.length === 0 ? 1 : 0) +
    (missingIsProblem ? 1 : 0);

  const findings: Findings = { profile, store, safeMode, report, pings, pingSkipped, untrusted, configProblems, missing, missingIsProblem, issues };
  if (values.json) writeLine(io.stdout, JSON.stringify(doctorJson(findings)));
  else printFindings(io, findings);
  return issues === 0 ? 0 : 1;
}

/** One hook's checks: runnable, consent, and the smoke run when nothing above stands in its way. */
async function checkHook(spec: HookSpec, ctx: { profile: Profile; store: ConsentStore; safeMode: boolean; smokeAll: boolean; io: CliIO }): Promise<HookReport> {
  const { profile, store, safeMode, io } = ctx;
  const maps = profile.config.dialects.maps;
  const checks: Check[] = [];
  const consent = await store.state(spec);
  const runnable = await runnableCheck(spec, profile.configFile, io);
  // A fail_closed guard that cannot start fails closed on every call: say what that costs.
  const blocksAll = !runnable.ok && failsClosed(spec) ? ' (being fail_closed, it blocks every call it matches until then)' : '';
  checks.push({ ok: runnable.ok, message: `${runnable.message}${blocksAll}` });
  checks.push(consentCheck(spec, consent, runnable));
  let smoke: HookOutcome | null = null;
  // What `run` does with it, approving nothing (doctor never approves): only a hook that runs is smoke-run.
  const verdict = whatRunDoes({ kind: 'shell', consent: consent.state, failClosed: failsClosed(spec) }, { safeMode, accept: false });
  if (!verdict.runs && verdict.why === 'safe_mode') {
    checks.push({ ok: null, message: 'skipped smoke run — HERMES_SAFE_MODE is set: nothing runs in safe mode' });
  } else if (!runnable.ok) {
    // First things first: a missing script's recorded approval is not the problem (the check
    // above says to approve it again once the path is fixed).
    checks.push({ ok: null, message: 'skipped smoke run — fix the problem above first, then re-run doctor' });
  } else if (!verdict.runs) {
    checks.push({ ok: null, message: `skipped smoke run — ${consent.untrusted !== null ? 'fix what it runs' : 'approve the hook'} first, then re-run doctor` });
  } else if (observesOnly(spec.event) && !ctx.smokeAll) {
    // Its run would show nothing but its side effects (a fake entry in a real audit log): asked for only.
    checks.push({ ok: null, message: `not run: observer (${spec.event}); --smoke-all runs it with a test payload` });
  } else {
    smoke = await smokeRunHook(spec, smokeKwargs(spec.event), {
      home: profile.home,
      profile: profile.profile,
      cwd: io.cwd,
      env: io.env,
      dialectMaps: maps,
      store,
    });
    checks.push(smokeCheck(spec, smoke));
    // What it started was killed when its answer was taken: a helper meant to outlive it (a
    // backgrounded curl to a webhook) never finishes its job, on every call.
    const left = leftProcessesText(smoke);
    if (left !== null) checks.push({ ok: false, message: `${left} when its answer was taken (synthetic payload) — ${KEEP_A_HELPER}` });
  }
  return {
    event: spec.event,
    index: spec.index,
    command: spec.command,
    checks,
    smoke,
    script: runnable.file,
    fails_closed: smoke !== null && isFailClosedBlock(spec.command, smoke.directive),
  };
}

/** --ping: a signed test delivery to each outbound target. */
async function pingTargets(profile: Profile, io: CliIO): Promise<Ping[]> {
  const pings: Ping[] = [];
  const dispatcher = createOutboundDispatcher(profile.outbound, { profile: profile.profile, cwd: io.cwd });
  for (const t of profile.outbound) {
    const r = await dispatcher.ping(t);
    pings.push({
      target: t.name ?? t.url,
      ok: r.ok,
      detail: `${r.outcome}${r.status_code ? ` ${r.status_code}` : ''}${r.error ? `: ${r.error}` : ''}${r.signed ? ', signed' : ', UNSIGNED'}`,
    });
  }
  await dispatcher.close();
  return pings;
}

function doctorJson(f: Findings): Record<string, unknown> {
  const { profile, store } = f;
  return {
    config: profile.configFile,
    config_exists: profile.config.exists,
    ...(f.missing !== null ? { note: f.missing } : {}),
    healthy: f.issues === 0,
    issues: f.issues,
    safe_mode: f.safeMode,
    allowlist: { path: store.path, refused: store.refused },
    untrusted: f.untrusted.map((u) => ({ what: u.subject.what, path: u.subject.path, message: u.message, findings: u.news })),
    hooks: f.report,
    outbound: profile.outbound.map(describeOutboundTarget),
    pings: f.pings,
    ping_skipped: f.pingSkipped,
    diagnostics: profile.diagnostics,
  };
}

function printFindings(io: CliIO, f: Findings): void {
  const { profile, missing } = f;
  const paint = painter(io);
  if (f.safeMode)
    writeLine(io.stdout, paint('yellow', 'HERMES_SAFE_MODE is set: no smoke run and no webhook ping — in safe mode no user hook, plugin or webhook runs.'));
  if (missing !== null) writeLine(io.stdout, f.missingIsProblem ? paint('red', `✗ ${inert(missing)}`) : inert(missing));
  // Another agent's block under hooks: is not "nothing": its guards are there and not guarding (below).
  else if (!profile.config.specs.length && profile.config.foreign.length)
    writeLine(io.stdout, `No Hermes shell hooks in ${inert(profile.configFile)}: its hooks: block is another agent's — see the error below.`);
  else if (!profile.config.specs.length) writeLine(io.stdout, `No shell hooks configured in ${inert(profile.configFile)} — nothing to check.`);
  else writeLine(io.stdout, `Checking ${profile.config.specs.length} configured shell hook(s) in ${inert(profile.configFile)}...\n\n`);
  for (const u of f.untrusted) writeLine(io.stdout, `  ${paint('red', '✗')} ${inert(u.message)}\n`);
  if (f.store.refused !== null) writeLine(io.stdout, `  ${paint('red', '✗')} ${inert(f.store.refused)}\n`);
  for (const r of f.report) {
    writeLine(io.stdout, `  [${r.event}] ${inert(r.command)}`);
    for (const c of r.checks) writeLine(io.stdout, `      ${mark(c, paint)} ${inert(c.message)}`);
    writeLine(io.stdout);
  }
  if (f.pingSkipped) writeLine(io.stdout, `  ping skipped: ${f.pingSkipped}`);
  for (const p of f.pings) writeLine(io.stdout, `  ping ${p.target}: ${p.ok ? paint('green', '✓') : paint('red', '✗')} ${p.detail}`);
  for (const d of f.configProblems) writeLine(io.stdout, `  ${formatDiagnostic(d, paint)}`);
  if (!profile.config.strict && profile.config.specs.some((s) => s.event === 'pre_tool_call')) writeLine(io.stdout, STRICT_ADVICE);
  writeLine(
    io.stdout,
    f.issues > 0
      ? paint('red', `${f.issues} issue(s) found.  Fix before relying on these hooks.`)
      : missing !== null || (f.report.length === 0 && profile.outbound.length === 0)
        ? 'Nothing to check.'
        : paint('green', 'All hooks look healthy.'),
  );
}

const STRICT_ADVICE =
  'Recommended: hooks_fail_closed: true (top level of config.yaml): a pre_tool_call guard that cannot run, ' +
  'or a config mistake that drops one, then blocks the call instead of allowing it.';

function mark(c: Check, paint: Paint): string {
  return c.ok === null ? paint('dim', 'ℹ') : c.ok ? paint('green', '✓') : paint('red', '✗');
}

/** `<config> line N`: where to fix a command. */
function whereIn(configFile: string, spec: HookSpec): string {
  return spec.line !== null ? `${configFile} line ${spec.line}` : `${configFile} (${spec.path})`;
}

/**
 * Runnable as spawn will run it (cli/_command-check.ts): argv[0] exists and can be executed (on
 * PATH when a bare name), and the script an interpreter runs is a readable file. Every ✗ says
 * how to fix it.
 */
async function runnableCheck(spec: HookSpec, configFile: string, io: CliIO): Promise<Runnable> {
  const c = await checkCommand(spec.command, { cwd: io.cwd, env: io.env, where: ` in ${whereIn(configFile, spec)}` });
  return { ok: c.ok, missing: c.missing, file: c.file, message: c.message };
}

/** Consent, never contradicting the runnable check: no "✓ approved" about a script that is not there. */
function consentCheck(spec: HookSpec, consent: ConsentInfo, runnable: Runnable): Check {
  const fc = failsClosed(spec);
  if (consent.untrusted !== null) {
    return { ok: false, message: `not trusted — hook will NOT run${fc ? ' (being fail_closed, it blocks every call it matches)' : ''}: ${consent.untrusted}` };
  }
  if (runnable.missing && consent.state !== 'not_approved') {
    return {
      ok: null,
      message: `an approval is recorded (${consent.approved_at ?? '?'}), but there is no script to run — fix the path, then approve it again`,
    };
  }
  if (consent.state === 'approved') {
    return { ok: true, message: `approved (${consent.approved_at ?? '?'})` };
  }
  if (consent.state === 'unpinned') {
    const unpinned = `unpinned (approved ${consent.approved_at ?? '?'} without a script hash, by Hermes or by hand: it runs whatever the file holds)`;
    // Hermes' own rule for such an approval: a script whose mtime is later than at approval is modified.
    const drift = formatDrift(consent);
    if (drift !== null) return { ok: false, message: `${unpinned}, and the ${drift} — review the changes, then re-approve to pin it` };
    return { ok: null, message: `${unpinned}${consent.mtime_drift === false ? ', script unchanged since approval (mtime)' : ''} — re-approve to pin it` };
  }
  if (consent.allowlist_error !== null) {
    return { ok: false, message: `not approved — ${consent.allowlist_error}${fc ? '; until then, being fail_closed, it blocks every call it matches' : ''}` };
  }
  const fix = `hermes-hooks approve --event ${spec.event} ${shellQuote(spec.command)}`;
  if (consent.state === 'modified') {
    return {
      ok: false,
      message:
        `${consent.reason} — review the script, then 'hermes-hooks approve' it ` +
        `again${fc ? '; until then, being fail_closed, it blocks every call it matches' : ''}`,
    };
  }
  return {
    ok: false,
    message:
      `not approved — hook will NOT run ` +
      `(${fc ? `and, being fail_closed, blocks the calls it matches; run \`${fix}\`` : `run \`${fix}\`, --accept-hooks, or answer the TTY prompt`})`,
  };
}

const FAILS_CLOSED = 'fails closed on the synthetic payload: every call it matches will be blocked';

function smokeCheck(spec: HookSpec, o: HookOutcome): Check {
  const t = `(exit=${o.exit_code ?? o.signal ?? '-'}, ${(o.duration_ms / 1000).toFixed(3)}s)`;
  // The production verdict first: a guard whose run failed closed blocks everything it matches.
  if (isFailClosedBlock(spec.command, o.directive)) {
    const message = o.directive?.action === 'block' ? o.directive.message : '';
    const reason = message.slice(failClosedMessage(spec.command, '').length);
    // The warning quoting unreadable stdout adds to the reason; one naming the answer repeats it.
    const warning = o.warning && !o.warning.startsWith(reason) ? ` — ${o.warning}` : '';
    return { ok: false, message: `${FAILS_CLOSED}: ${reason} ${t}${warning}` };
  }
  switch (o.status) {
    case 'timeout':
      return { ok: false, message: `timed out on the synthetic payload (timeout=${spec.timeout}s)` };
    case 'launch_failed':
      return { ok: false, message: `execution error: ${o.error}` };
    case 'output_limit':
      return { ok: false, message: 'kept writing far past the output cap on the synthetic payload and was killed' };
    case 'skipped':
    case 'awaiting_approval': // consent, checked again at the launch, refused it
      return { ok: false, message: `not run: ${o.error}` };
    case 'safe_mode':
      return { ok: null, message: `not run: ${o.error}` };
    default:
      break;
  }
  const stdout = o.stdout.trim();
  const honours = EVENTS[spec.event].honours;
  const crashed = o.status === 'nonzero_exit' && !exitIsAnswer(spec.event, o);
  const stderr = o.stderr.trim() ? `: ${o.stderr.trim().slice(0, 120)}` : '';
  if (o.directive) {
    const action = o.directive.action;
    if (!(honours as readonly string[]).includes(action)) {
      return { ok: false, message: `answered '${action}', which ${spec.event} does not honour (it honours: ${honoursText(spec.event)}) ${t}` };
    }
    if (crashed)
      return {
        ok: false,
        message: `exited ${o.exit_code ?? o.signal} on the synthetic payload${stderr} ${t} — its answer ${JSON.stringify(o.directive)} still counts`,
      };
    if (action === 'block') {
      // A guard may mean to block the synthetic call; its own block with a message is not a fault.
      return {
        ok: null,
        message:
          `answered ${JSON.stringify(o.directive)} on the synthetic payload ${t} — it blocks the synthetic call (${syntheticCall(spec)}); fine ` +
          `if it means to`,
      };
    }
    return { ok: true, message: `answered ${JSON.stringify(o.directive)} on the synthetic payload ${t}` };
  }
  if (o.status === 'nonzero_exit') {
    const advice = exitCodeAdvice(spec.event, o);
    return {
      ok: false,
      message: `exited ${o.exit_code ?? o.signal} on the synthetic payload${stderr ? `${stderr} ` : ' '}${t}${advice ? ` — ${advice}` : ''}`,
    };
  }
  if (!stdout) {
    // Silence on a harmless call is what a guard should answer; only events that take no answer are observers.
    if (EVENTS[spec.event].canBlock)
      return { ok: true, message: `allowed the synthetic call (${syntheticCall(spec)}) with empty stdout ${t} — as a guard should allow a harmless call` };
    return { ok: true, message: `ran clean with empty stdout ${t}${honours.length ? '' : ` — ${spec.event} is observed, not answered`}` };
  }
  const info = inspectStdout(spec.event, stdout);
  if (info.kind === 'invalid_json') return { ok: false, message: `stdout was not valid JSON ${t}: ${stdout.slice(0, 120)}` };
  if (info.kind === 'not_object') return { ok: false, message: `stdout is JSON but not an object ${t}: ${stdout.slice(0, 120)}` };
  // Read by the event's own rules (an unknown word, a misplaced key, an answer for another event),
  // worded as run, test and serve word it.
  if (spec.dialect === 'hermes' && info.problem !== null) return { ok: info.problem.lost ? false : null, message: `${info.problem.message} ${t}` };
  return { ok: null, message: `produced a JSON object with no directive ${spec.event} reads ${t}: ${stdout.slice(0, 120)}` };
}

/** The synthetic call a tool hook was smoke-run on, e.g. `terminal {"command":"echo hello"}`. */
function syntheticCall(spec: HookSpec): string {
  const k = syntheticKwargs(spec.event);
  // pre_tts_synthesis blocks speech, not a tool call: name the script it refused.
  if (spec.event === 'pre_tts_synthesis') return `speaking ${JSON.stringify(k.text)}`;
  return `${String(k.tool_name)} ${JSON.stringify(k.args)}`;
}
