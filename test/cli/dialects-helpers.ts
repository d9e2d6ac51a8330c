// Helpers for the end-to-end dialect tests: run the CLI against temp profile homes — in-process
// (`main(argv, io)`, cli()) for the bulk of the tables, or the built `node dist/cli/bin.js` as a
// real process (cliBin()) where the binary itself matters — and read an answer the way each agent
// reads a hook's output (reference/peer-hook-protocols.md §b1–§b4), so a test can say "Codex would
// block this" rather than compare bytes.

import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runMain } from './_helpers.js';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const BIN = join(ROOT, 'dist/cli/bin.js');
/** Fixtures shared with test/dialects (agent-style hooks, exact stdin samples, agent configs). */
export const DIALECT_FIXTURES = join(ROOT, 'test/fixtures/dialects');
/** This suite's own fixtures. */
export const CLI_FIXTURES = join(ROOT, 'test/fixtures/cli-dialects');

export const dialectHook = (name: string): string => join(DIALECT_FIXTURES, 'hooks', name);
export const cliHook = (name: string): string => join(CLI_FIXTURES, 'hooks', name);

export type Agent = 'claude' | 'codex' | 'gemini' | 'cursor';
export type Json = Record<string, unknown>;

/** One exact stdin sample, from test/fixtures/dialects/stdin or this suite's stdin folder. */
export function agentStdin(name: string): Json {
  for (const dir of [join(CLI_FIXTURES, 'stdin'), join(DIALECT_FIXTURES, 'stdin')]) {
    const file = join(dir, `${name}.json`);
    if (existsSync(file)) return JSON.parse(readFileSync(file, 'utf8')) as Json;
  }
  throw new Error(`no stdin sample ${name}`);
}

export function assertBuilt(): void {
  if (!existsSync(BIN)) throw new Error(`${BIN} is missing: run 'npm run build' before these tests`);
}

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** The environment every CLI run gets: no colour, no inherited Hermes settings, a temp HOME. */
function cleanEnv(extra: Record<string, string | undefined>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1' };
  for (const k of ['HERMES_HOME', 'HERMES_SAFE_MODE', 'HERMES_ACCEPT_HOOKS', 'HERMES_HOOK_EVENT', 'FORCE_COLOR']) delete env[k];
  for (const [k, v] of Object.entries(extra)) {
    if (v === undefined) delete env[k];
    else env[k] = v;
  }
  return env;
}

export interface CliOptions {
  stdin?: string | Json;
  cwd?: string;
  env?: Record<string, string | undefined>;
}

const stdinText = (stdin: CliOptions['stdin']): string => (stdin === undefined ? '' : typeof stdin === 'string' ? stdin : JSON.stringify(stdin));

/** `hermes-hooks ARGS` in-process (main(argv, io)): the same env, cwd and stdin as cliBin() gives. */
export async function cli(args: string[], opts: CliOptions = {}): Promise<CliResult> {
  return runMain(args, { stdin: stdinText(opts.stdin), env: cleanEnv(opts.env ?? {}), cwd: opts.cwd ?? ROOT });
}

/** Run `node dist/cli/bin.js ARGS` as a real process with `stdin` on a pipe. */
export function cliBin(args: string[], opts: CliOptions = {}): CliResult {
  return sh(process.execPath, [BIN, ...args], opts);
}

/** How a CLI call is made: in-process (the default) or through the built binary. */
export type Via = 'main' | 'bin';
export const cliVia = async (via: Via, args: string[], opts: CliOptions = {}): Promise<CliResult> => (via === 'bin' ? cliBin(args, opts) : cli(args, opts));

/** Run any program (the agent side of print-config: `sh -c <their command>`). */
export function sh(file: string, args: string[], opts: CliOptions = {}): CliResult {
  const r = spawnSync(file, args, {
    input: stdinText(opts.stdin),
    encoding: 'utf8',
    cwd: opts.cwd ?? ROOT,
    env: cleanEnv(opts.env ?? {}),
    timeout: 60_000,
    killSignal: 'SIGKILL',
  });
  if (r.error) throw r.error;
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** The `--json` report of `hermes-hooks test`. */
export interface TestReport {
  payload: Json;
  hooks: {
    index: number;
    command: string;
    status: string;
    dialect: string;
    exit_code: number | null;
    stdout: string;
    stderr: string;
    error: string | null;
    directive: Json | null;
  }[];
  decision: {
    action: string;
    message: string | null;
    args: Json | null;
    context: string | null;
    decided_by: number | null;
    modified_by: number[];
    conflicts: unknown[];
  };
  diagnostics: { level: string; path: string; message: string }[];
}

export async function testReport(
  home: string,
  event: string,
  payload: Json,
  extraArgs: string[] = [],
  via: Via = 'main',
): Promise<{ code: number | null; report: TestReport; stderr: string }> {
  const r = await cliVia(via, ['test', event, '--json', '--home', home, ...extraArgs], { stdin: payload });
  let report: TestReport;
  try {
    report = JSON.parse(r.stdout) as TestReport;
  } catch {
    throw new Error(`test printed no JSON report (exit ${r.code}):\n${r.stdout}\n${r.stderr}`);
  }
  return { code: r.code, report, stderr: r.stderr };
}

// ---------------------------------------------------------------------------------------------
// Temp homes

const made: string[] = [];

export function tempDir(prefix = 'hh-dialects-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  made.push(dir);
  return dir;
}

/** A profile home holding `config.yaml`. */
export function makeHome(configYaml: string): string {
  const home = tempDir('hh-dialects-home-');
  writeFileSync(join(home, 'config.yaml'), configYaml);
  return home;
}

/** A home whose hooks are all approved through the CLI (`approve --all --home`). */
export async function approvedHome(configYaml: string): Promise<string> {
  const home = makeHome(configYaml);
  const r = await cli(['approve', '--all', '--home', home]);
  if (r.code !== 0) throw new Error(`approve --all failed (${r.code}): ${r.stderr}`);
  return home;
}

export function removeTempDirs(): void {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
}

/** A YAML scalar for a path or command (double-quoted JSON string, valid YAML). */
export const q = (s: string): string => JSON.stringify(s);

// ---------------------------------------------------------------------------------------------
// How each agent reads a hook's answer (reference §b1–§b4). `failed` = the agent counts the hook
// as failed or its output as invalid, and (all four fail open) lets the action go ahead.

export type Verdict =
  | { kind: 'allow' }
  | { kind: 'block'; reason: string }
  | { kind: 'ask'; reason: string | null; input: Json | null }
  | { kind: 'rewrite'; input: Json }
  /** The input is rewritten AND the agent's own permission check is skipped: more than a modify says. */
  | { kind: 'granted-rewrite'; input: Json }
  | { kind: 'context'; context: string }
  | { kind: 'continue'; reason: string }
  | { kind: 'failed'; why: string };

function parseObject(text: string): Json | null {
  try {
    const v = JSON.parse(text) as unknown;
    return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Json) : null;
  } catch {
    return null;
  }
}

const nonEmpty = (v: unknown): v is string => typeof v === 'string' && v.trim() !== '';
const isObj = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

const TOOL_EVENTS: Record<Agent, string[]> = {
  claude: ['PreToolUse'],
  codex: ['PreToolUse'],
  gemini: ['BeforeTool'],
  cursor: ['preToolUse', 'beforeShellExecution', 'beforeMCPExecution', 'beforeReadFile'],
};
const STOP_EVENTS: Record<Agent, string> = { claude: 'Stop', codex: 'Stop', gemini: 'AfterAgent', cursor: 'stop' };

/** Claude Code (§b1): exit 2 blocks; JSON (first char `{`) decides on any exit; schema checked. */
function claudeReads(event: string, r: CliResult): Verdict {
  const out = r.stdout.trim();
  const json = out.startsWith('{') ? parseObject(out) : null;
  if (r.code === 2) {
    const hso = isObj(json?.['hookSpecificOutput']) ? (json!['hookSpecificOutput'] as Json) : {};
    const reason = [hso['permissionDecisionReason'], json?.['reason'], r.stderr.trim()].find(nonEmpty);
    return { kind: 'block', reason: reason ?? '' };
  }
  if (r.code !== 0 && json === null) return { kind: 'failed', why: `non-blocking error: exit ${r.code}` };
  if (json === null) {
    if (out === '') return { kind: 'allow' };
    return event === 'UserPromptSubmit' || event === 'SessionStart' ? { kind: 'context', context: out } : { kind: 'failed', why: `plain text on ${event}` };
  }
  const known = new Set(['continue', 'stopReason', 'suppressOutput', 'systemMessage', 'terminalSequence', 'decision', 'reason', 'hookSpecificOutput']);
  const unknown = Object.keys(json).filter((k) => !known.has(k));
  if (unknown.length) return { kind: 'failed', why: `schema: unknown top-level ${unknown.join(', ')}` };
  if (json['continue'] === false) return { kind: 'block', reason: String(json['stopReason'] ?? '') };
  const hso = json['hookSpecificOutput'];
  if (hso !== undefined) {
    if (!isObj(hso)) return { kind: 'failed', why: 'schema: hookSpecificOutput not an object' };
    if (hso['hookEventName'] !== event) return { kind: 'failed', why: `schema: hookEventName ${String(hso['hookEventName'])} on ${event}` };
  }
  const specific = (hso ?? {}) as Json;
  if (event === 'PreToolUse') {
    const d = specific['permissionDecision'];
    if (d !== undefined && !['allow', 'deny', 'ask', 'defer'].includes(d as string)) return { kind: 'failed', why: `schema: permissionDecision ${String(d)}` };
    const updated = specific['updatedInput'];
    if (updated !== undefined && !isObj(updated)) return { kind: 'failed', why: 'schema: updatedInput not an object' };
    if (d === 'deny') return { kind: 'block', reason: String(specific['permissionDecisionReason'] ?? '') };
    if (d === 'ask') return { kind: 'ask', reason: (specific['permissionDecisionReason'] as string) ?? null, input: (updated as Json) ?? null };
    // allow skips Claude's permission prompt; updatedInput alone rewrites and keeps it (issue 15 #10,
    // checked against the real binary).
    if (d === 'allow' && updated) return { kind: 'granted-rewrite', input: updated as Json };
    if (d === undefined && updated) return { kind: 'rewrite', input: updated as Json };
    if (json['decision'] === 'block') return { kind: 'block', reason: String(json['reason'] ?? '') };
    return nonEmpty(specific['additionalContext']) ? { kind: 'context', context: specific['additionalContext'] } : { kind: 'allow' };
  }
  if (event === 'Stop' || event === 'SubagentStop') {
    if (json['decision'] === 'block')
      return nonEmpty(json['reason']) ? { kind: 'continue', reason: json['reason'] } : { kind: 'failed', why: 'Stop block without a reason' };
    return { kind: 'allow' };
  }
  if (json['decision'] === 'block') return { kind: 'block', reason: String(json['reason'] ?? '') };
  return nonEmpty(specific['additionalContext']) ? { kind: 'context', context: specific['additionalContext'] } : { kind: 'allow' };
}

/** Codex (§b2): strict and fail-open. Exit 2 needs stderr; JSON is checked field by field. */
function codexReads(event: string, r: CliResult): Verdict {
  const out = r.stdout.trim();
  if (r.code === 2) return nonEmpty(r.stderr) ? { kind: 'block', reason: r.stderr.trim() } : { kind: 'failed', why: 'exit 2 with empty stderr' };
  if (r.code !== 0) return { kind: 'failed', why: `exit ${r.code}` };
  if (out === '') return { kind: 'allow' };
  if (!out.startsWith('{') && !out.startsWith('[')) return { kind: 'allow' }; // plain text is ignored
  const json = parseObject(out);
  if (json === null) return { kind: 'failed', why: 'unparseable JSON' };
  // additionalProperties:false on the output schema.
  const allowed = new Set(['hookSpecificOutput', 'systemMessage', 'decision', 'reason']);
  if (event === 'Stop' || event === 'UserPromptSubmit') allowed.add('continue').add('stopReason').add('suppressOutput');
  const unknown = Object.keys(json).filter((k) => !allowed.has(k));
  if (unknown.length) return { kind: 'failed', why: `unknown field(s) ${unknown.join(', ')}` };
  const hso = json['hookSpecificOutput'];
  if (hso !== undefined && !isObj(hso)) return { kind: 'failed', why: 'hookSpecificOutput not an object' };
  const specific = (hso ?? {}) as Json;
  if (hso !== undefined && specific['hookEventName'] !== event)
    return { kind: 'failed', why: `hookEventName ${String(specific['hookEventName'])} on ${event}` };
  const hsoAllowed = new Set(['hookEventName', 'permissionDecision', 'permissionDecisionReason', 'updatedInput', 'additionalContext']);
  const unknownHso = Object.keys(specific).filter((k) => !hsoAllowed.has(k));
  if (unknownHso.length) return { kind: 'failed', why: `unknown hookSpecificOutput field(s) ${unknownHso.join(', ')}` };
  if (event === 'PreToolUse') {
    const d = specific['permissionDecision'];
    const reason = specific['permissionDecisionReason'];
    const updated = specific['updatedInput'];
    if (json['decision'] === 'approve') return { kind: 'failed', why: 'legacy approve' };
    if (d === 'ask') return { kind: 'failed', why: 'ask is not supported' };
    if (d === 'allow') return isObj(updated) ? { kind: 'rewrite', input: updated } : { kind: 'failed', why: 'allow without updatedInput' };
    if (updated !== undefined) return { kind: 'failed', why: 'updatedInput without allow' };
    if (d === 'deny') return nonEmpty(reason) ? { kind: 'block', reason } : { kind: 'failed', why: 'deny with empty reason' };
    if (reason !== undefined) return { kind: 'failed', why: 'reason without a decision' };
    if (json['decision'] === 'block')
      return nonEmpty(json['reason']) ? { kind: 'block', reason: json['reason'] } : { kind: 'failed', why: 'block without reason' };
    return nonEmpty(specific['additionalContext']) ? { kind: 'context', context: specific['additionalContext'] } : { kind: 'allow' };
  }
  if (event === 'Stop') {
    if (json['decision'] === 'block')
      return nonEmpty(json['reason']) ? { kind: 'continue', reason: json['reason'] } : { kind: 'failed', why: 'Stop block without reason' };
    return { kind: 'allow' };
  }
  if (json['decision'] === 'block') return { kind: 'block', reason: String(json['reason'] ?? '') };
  return nonEmpty(specific['additionalContext']) ? { kind: 'context', context: specific['additionalContext'] } : { kind: 'allow' };
}

/** Gemini CLI (§b3): stdout (or stderr when stdout is empty) as JSON; plain text by exit code. */
function geminiReads(event: string, r: CliResult): Verdict {
  const text = r.stdout.trim() || r.stderr.trim();
  if (text === '') return { kind: 'allow' }; // no output object: nothing happens, whatever the exit code
  let json: Json | null = null;
  try {
    let v = JSON.parse(text) as unknown;
    if (typeof v === 'string') v = JSON.parse(v) as unknown;
    json = isObj(v) ? v : null;
  } catch {
    json = null;
  }
  if (json === null) return r.code === 0 || r.code === 1 ? { kind: 'allow' } : { kind: 'block', reason: text };
  if (json['continue'] === false) return { kind: 'block', reason: String(json['stopReason'] ?? '') };
  const d = json['decision'];
  if (d !== undefined && !['allow', 'deny', 'block', 'ask', 'approve'].includes(d as string)) return { kind: 'failed', why: `decision ${String(d)}` };
  const hso = isObj(json['hookSpecificOutput']) ? (json['hookSpecificOutput'] as Json) : {};
  if (json['hookSpecificOutput'] !== undefined && hso['hookEventName'] !== undefined && hso['hookEventName'] !== event) {
    return { kind: 'failed', why: `hookEventName ${String(hso['hookEventName'])} on ${event}` };
  }
  if (event === 'AfterAgent') {
    return d === 'deny' || d === 'block' ? { kind: 'continue', reason: String(json['reason'] ?? '') } : { kind: 'allow' };
  }
  if (d === 'deny' || d === 'block') return { kind: 'block', reason: String(json['reason'] ?? '') };
  const rewrite = isObj(hso['tool_input']) ? (hso['tool_input'] as Json) : null;
  if (d === 'ask') return { kind: 'ask', reason: (json['reason'] as string) ?? null, input: rewrite };
  // An explicit allow is read as a grant (whether Gemini skips its confirmation for it is not
  // something we rely on); tool_input alone is a rewrite.
  if (rewrite && event === 'BeforeTool')
    return d === 'allow' || d === 'approve' ? { kind: 'granted-rewrite', input: rewrite } : { kind: 'rewrite', input: rewrite };
  return nonEmpty(hso['additionalContext']) ? { kind: 'context', context: hso['additionalContext'] } : { kind: 'allow' };
}

/** Cursor (§b4): exit 2 blocks; `permission` JSON on permission events; updated_input on preToolUse. */
function cursorReads(event: string, r: CliResult): Verdict {
  const out = r.stdout.trim();
  if (r.code === 2) return { kind: 'block', reason: r.stderr.trim() };
  const json = parseObject(out);
  const permissionEvent = TOOL_EVENTS.cursor.includes(event);
  if (r.code !== 0) return { kind: 'failed', why: `exit ${r.code}` };
  if (json === null) {
    // Invalid JSON from a permission hook is reported to be treated as a block [3p]; either way, not accepted.
    return out === '' && !permissionEvent ? { kind: 'allow' } : { kind: 'failed', why: `not a JSON object: ${out.slice(0, 80)}` };
  }
  for (const camel of ['userMessage', 'agentMessage']) if (camel in json) return { kind: 'failed', why: `${camel} is the pre-2.0 spelling` };
  if (permissionEvent) {
    const p = json['permission'];
    if (!['allow', 'deny', 'ask'].includes(p as string)) return { kind: 'failed', why: `permission ${String(p)}` };
    const updated = json['updated_input'];
    if (updated !== undefined && event !== 'preToolUse') return { kind: 'failed', why: `updated_input on ${event}` };
    const message = [json['agent_message'], json['user_message']].find(nonEmpty) ?? '';
    if (p === 'deny') return { kind: 'block', reason: message };
    if (p === 'ask')
      return { kind: 'ask', reason: [json['user_message'], json['agent_message']].find(nonEmpty) ?? null, input: isObj(updated) ? updated : null };
    return isObj(updated) ? { kind: 'rewrite', input: updated } : { kind: 'allow' };
  }
  if (event === 'stop' || event === 'subagentStop')
    return nonEmpty(json['followup_message']) ? { kind: 'continue', reason: json['followup_message'] } : { kind: 'allow' };
  if (event === 'beforeSubmitPrompt' && json['continue'] === false) return { kind: 'block', reason: String(json['user_message'] ?? '') };
  return nonEmpty(json['additional_context']) ? { kind: 'context', context: json['additional_context'] } : { kind: 'allow' };
}

/** What `agent` does with a hook that answered `r` on `event`. */
export function agentReads(agent: Agent, event: string, r: CliResult): Verdict {
  switch (agent) {
    case 'claude':
      return claudeReads(event, r);
    case 'codex':
      return codexReads(event, r);
    case 'gemini':
      return geminiReads(event, r);
    case 'cursor':
      return cursorReads(event, r);
  }
}

export { STOP_EVENTS, TOOL_EVENTS };
