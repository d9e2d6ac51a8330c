// Validate the `hooks:` block of a parsed config.yaml into HookSpecs, exactly as Hermes does
// (reference §1, V4), plus our `dialect` field and entry dedupe. Pure: a ConfigSource in, specs
// and positioned diagnostics out. Never throws; a bad entry is skipped and the rest go on.
// Beyond Hermes, hook-lint.ts names what would quietly stop a guard from guarding (misspelled
// keys, shapes, commands that need a shell, matchers that name no tool); the specs are unchanged.

import { EVENTS, EVENT_NAMES, isEventName, type EventName } from '../events.js';
import type { Diagnostic, DiagnosticLevel, Dialect, HookSpec } from '../types.js';
import { isTruthyString, pyRepr, pyStr, pyStrip, pythonInt, pyTypeName } from '../util/python.js';
import { didYouMean as closestMatch } from '../util/did-you-mean.js';
import { AGENT_DIALECTS } from '../dialects/agents/index.js';
import { DEFAULT_DIALECT_MAPS, type DialectMaps } from '../dialects/names.js';
import { foreignHooksMessage, recogniseAgentHooks, type ForeignHooksKey } from '../dialects/recognise.js';
import { commandFinding, groupHint, HOOK_ENTRY_KEYS, matcherFindings, topLevelKeyFinding, unknownEntryKeyFinding, type Finding } from './hook-lint.js';
import { compileMatcher } from './matcher.js';
import { diagnosticAt, formatPath, type ConfigPath, type ConfigSource } from './source.js';
import { errorText } from '../errors.js';
import { duplicateKeyDiagnostics, itemNode, keySegment, resolveNode, valueNode } from './_yaml-nodes.js';
import { readStrict, refusedMessage, STRICT_KEY, strictCost, type RefusedGuard } from './strict.js';
import { resolveRelativeCommand } from './relative-path.js';
import { failClosedReading, matcherTypeWarning, timeoutWarning } from './value-readings.js';
import { DEFAULT_HOOK_TIMEOUT, MAX_HOOK_TIMEOUT } from '../deadlines.js';

export { DEFAULT_HOOK_TIMEOUT, MAX_HOOK_TIMEOUT } from '../deadlines.js';
/** Keys under `hooks:` that are not events and belong to other parsers (outbound webhooks …). */
export const RESERVED_HOOK_KEYS: readonly string[] = ['outbound', 'output_spill'];
export const DIALECTS: readonly Dialect[] = ['hermes', ...AGENT_DIALECTS];

export interface ParsedHooksConfig {
  specs: HookSpec[];
  diagnostics: Diagnostic[];
  /** Top-level `hooks_auto_accept`, read like Hermes (§1.6). */
  autoAccept: boolean;
  /** Keys under `hooks:` written in another agent's format (each also an error diagnostic). */
  foreign: ForeignHooksKey[];
  /** Top-level `hooks_fail_closed` (strict mode, ours): see strict.ts. */
  strict: boolean;
  /** Under strict mode, the tool-gate guards this file meant but that cannot be registered: each blocks. */
  refused: RefusedGuard[];
}

/** HERMES_SAFE_MODE / HERMES_ACCEPT_HOOKS: trimmed, case-insensitive 1/true/yes/on. */
export function isTruthyEnv(value: string | undefined): boolean {
  return typeof value === 'string' && isTruthyString(value);
}

/** `hooks_auto_accept`: booleans as they are; strings truthy like an env var; anything else false. */
export function parseAutoAccept(value: unknown): boolean {
  if (typeof value === 'boolean') return value;
  if (typeof value === 'string') return isTruthyString(value);
  return false;
}

/**
 * Hermes' suggestion for a mistyped event name (difflib, cutoff 0.6), or null. Any value is
 * compared by its Python `str()`, so a YAML key `1:` is looked up as "1".
 */
export function didYouMean(name: unknown, candidates: Iterable<string> = EVENT_NAMES): string | null {
  return closestMatch(pyStr(name), candidates);
}

export interface ParseHooksOptions {
  /** The tool-name maps (with the config's own `dialects:` applied) that matchers are checked against. */
  dialectMaps?: DialectMaps;
}

export function parseHooksConfig(source: ConfigSource, opts: ParseHooksOptions = {}): ParsedHooksConfig {
  if (source.syntaxError) return { specs: [], diagnostics: [source.syntaxError], autoAccept: false, foreign: [], strict: false, refused: [] };
  const parser = new HooksParser(source, opts.dialectMaps ?? DEFAULT_DIALECT_MAPS);
  try {
    return parser.run();
  } catch (e) {
    // Defensive only: the parser handles every YAML value; a bug must not take the host down.
    parser.diagnostics.push({
      level: 'error',
      path: 'hooks',
      line: null,
      column: null,
      message: `internal error while reading hooks: ${errorText(e)}`,
      file: source.file,
    });
    return { specs: [], diagnostics: parser.diagnostics, autoAccept: false, foreign: [], strict: false, refused: [] };
  }
}

class HooksParser {
  readonly diagnostics: Diagnostic[] = [];
  private readonly specs: HookSpec[] = [];
  /** Dedupe identity (event, matcher, command, dialect) → the spec kept. */
  private readonly seen = new Map<string, HookSpec>();
  private foreign: ForeignHooksKey[] = [];
  private strict = false;
  private readonly refused: RefusedGuard[] = [];

  constructor(
    private readonly source: ConfigSource,
    private readonly dialectMaps: DialectMaps,
  ) {}

  run(): ParsedHooksConfig {
    const { source } = this;
    // Maps keep YAML key order and key types (a `1:` key stays a number); last duplicate wins.
    const root = source.doc ? source.doc.toJS({ mapAsMap: true, maxAliasCount: 1000 }) : null;
    if (!(root instanceof Map)) {
      // Error: whatever hooks it holds, none is read (a `- hooks:` list, a stray scalar).
      if (root !== null && root !== undefined) {
        this.push('error', [], `the config must be a mapping of sections (hooks:, model: …); got ${pyTypeName(root)} — no hook is read from it`);
      }
      return this.result(false);
    }
    const rootNode = resolveNode(source, source.doc?.contents);
    this.diagnostics.push(...duplicateKeyDiagnostics(source, rootNode, [], (k) => k === 'hooks' || k === 'hooks_auto_accept' || k === STRICT_KEY));
    for (const key of root.keys()) {
      const found = typeof key === 'string' ? topLevelKeyFinding(key) : null;
      if (found) this.report([key as string], found, { key: true });
    }

    const autoAccept = parseAutoAccept(root.get('hooks_auto_accept'));
    const strict = readStrict(root.get(STRICT_KEY));
    this.strict = strict.strict;
    if (strict.warning !== null) this.warn([STRICT_KEY], `${STRICT_KEY} ${strict.warning}`);
    const hooks: unknown = root.get('hooks');
    if (!(hooks instanceof Map)) {
      // Error: every hook under a list or scalar `hooks:` is lost (`hooks:` with nothing is fine).
      if (hooks !== null && hooks !== undefined) {
        this.push(
          'error',
          ['hooks'],
          `must be a mapping of event name to a list of hooks (hooks: {pre_tool_call: [{command: …}]}); got ${pyTypeName(hooks)} — none of its hooks ` +
            `are registered`,
        );
      }
      return this.result(autoAccept);
    }
    const hooksNode = valueNode(source, rootNode, 'hooks');
    this.diagnostics.push(...duplicateKeyDiagnostics(source, hooksNode, ['hooks']));
    // Another agent's block pasted in: named as such, with the import that converts it.
    this.foreign = recogniseAgentHooks(hooks as Map<unknown, unknown>, root, this.dialectMaps);
    const foreignByKey = new Map(this.foreign.map((f) => [f.key, f]));

    for (const [key, value] of hooks as Map<unknown, unknown>) {
      if (typeof key === 'string' && RESERVED_HOOK_KEYS.includes(key)) continue;
      const evPath: ConfigPath = ['hooks', keySegment(key)];
      if (isEventName(key) && !EVENTS[key].shell) {
        // Error: the registration is refused, so a guard written here never runs.
        this.push(
          'error',
          evPath,
          `hook event '${key}' is Python-plugin-only: shell hooks cannot return its directive, so this registration is refused rather than silently ignored`,
          { key: true },
        );
        continue;
      }
      if (!isEventName(key)) {
        const foreign = typeof key === 'string' ? foreignByKey.get(key) : undefined;
        // Error: the hooks under an event Hermes never fires are lost.
        if (foreign) this.push('error', evPath, foreignHooksMessage(foreign, this.source.file), { key: true });
        else this.unknownEvent(key, evPath);
        continue;
      }
      if (value === null || value === undefined) continue;
      if (!Array.isArray(value)) {
        // Error: every hook of this event is lost.
        const hint = value instanceof Map ? ' — write each hook as a list item: `- command: …`' : '';
        this.refuse(key, evPath, `hooks.${key} must be a list of hook definitions; got ${pyTypeName(value)}${hint}`, null);
        continue;
      }
      const listNode = valueNode(this.source, hooksNode, key);
      value.forEach((raw, index) => this.entry(key, index, raw, listNode));
    }
    return this.result(autoAccept);
  }

  private result(autoAccept: boolean): ParsedHooksConfig {
    return { specs: this.specs, diagnostics: this.diagnostics, autoAccept, foreign: this.foreign, strict: this.strict, refused: this.refused };
  }

  private unknownEvent(key: unknown, path: ConfigPath): void {
    const suggestion = didYouMean(key);
    const message = suggestion
      ? `unknown hook event '${pyStr(key)}' in hooks: config — did you mean '${suggestion}'?`
      : `unknown hook event '${pyStr(key)}' in hooks: config (valid: ${[...EVENT_NAMES].sort().join(', ')})`;
    // Error: the hooks under an event that never fires are lost; a misspelled gate is refused whole.
    if (suggestion !== null && isEventName(suggestion)) this.refuse(suggestion, path, message, null, { key: true });
    else this.push('error', path, message, { key: true });
  }

  /**
   * An error that loses what the file meant for `event`. On the tool gate, under strict mode, it
   * also becomes a RefusedGuard (the engine registers it as a blocker) and says so.
   */
  private refuse(event: EventName, path: ConfigPath, message: string, matcher: string | null, opts: { key?: boolean } = {}): void {
    const gate = EVENTS[event].canBlock && this.strict;
    const d = diagnosticAt(this.source, 'error', path, gate ? `${message}${strictCost(true)}` : message, opts);
    this.diagnostics.push(d);
    if (gate) this.refused.push({ path: formatPath(path), matcher, message: refusedMessage({ ...d, message }) });
  }

  /** One list element (reference §1.3 parse_entry), then our dialect check and dedupe. */
  private entry(event: EventName, index: number, raw: unknown, listNode: unknown): void {
    const path: ConfigPath = ['hooks', event, index];
    const prefix = `hooks.${event}[${index}]`;
    // Errors from here on when the entry is dropped: that guard is lost.
    if (!(raw instanceof Map)) {
      const hint = typeof raw === 'string' ? ` — write it as: - command: ${JSON.stringify(raw)}` : '';
      this.refuse(event, path, `${prefix} must be a mapping with a 'command' key; got ${pyTypeName(raw)}${hint}`, null);
      return;
    }
    this.diagnostics.push(...duplicateKeyDiagnostics(this.source, itemNode(this.source, listNode, index), path));
    const field = (name: string): unknown => raw.get(name);
    // Hermes ignores keys it does not read; say so, and what a misspelling costs.
    for (const key of raw.keys()) {
      if (typeof key === 'string' && HOOK_ENTRY_KEYS.includes(key)) continue;
      const name = typeof key === 'string' ? key : pyStr(key);
      this.report(
        [...path, keySegment(key)],
        unknownEntryKeyFinding(name, event, (k) => raw.has(k)),
        { key: true },
      );
    }

    const command = field('command');
    const written = typeof field('matcher') === 'string' ? pyStrip(field('matcher') as string) || null : null;
    if (typeof command !== 'string' || pyStrip(command) === '') {
      this.refuse(event, [...path, 'command'], `${prefix} is missing a non-empty 'command' field${groupHint(raw)}`, groupHint(raw) ? null : written);
      return;
    }

    const dialect = this.entryDialect(field('dialect'), path, prefix);
    if (dialect === null) {
      if (this.strict && EVENTS[event].canBlock) this.refused.push(this.refusal(path, written));
      return;
    }
    // A relative program or script is resolved against this file's directory, before anything else sees it.
    // (No diagnostic: every report shows the resolved command, and a clean config stays silent.)
    const cmd = resolveRelativeCommand(pyStrip(command), this.source.file)?.command ?? pyStrip(command);
    const matcher = this.entryMatcher(event, field('matcher') ?? null, path, prefix);
    const timeout = this.entryTimeout(raw.has('timeout') ? field('timeout') : DEFAULT_HOOK_TIMEOUT, path, prefix);
    const failClosed = this.entryFailClosed(event, raw, path, prefix);
    if (matcher !== null) this.checkMatcher(matcher, dialect, path);
    const commandProblem = commandFinding(cmd, { failClosed, canBlock: EVENTS[event].canBlock });
    if (commandProblem) this.report([...path, 'command'], commandProblem);

    const where = this.position(path);
    const spec: HookSpec = {
      event,
      command: cmd,
      matcher,
      timeout,
      fail_closed: failClosed,
      dialect,
      index,
      path: formatPath(path),
      line: where.line,
      column: where.column,
    };
    this.keep(spec, path);
  }

  /** The dialect error just pushed for `path`, as the block strict mode makes of it. */
  private refusal(path: ConfigPath, matcher: string | null): RefusedGuard {
    const d = this.diagnostics[this.diagnostics.length - 1] as Diagnostic;
    const refused = { path: formatPath(path), matcher, message: refusedMessage(d) };
    d.message += strictCost(true);
    return refused;
  }

  /** `dialect`, default hermes; null when it names none (the hook is skipped: its output would be misread). */
  private entryDialect(rawDialect: unknown, path: ConfigPath, prefix: string): Dialect | null {
    if (rawDialect === null || rawDialect === undefined) return 'hermes';
    const d = typeof rawDialect === 'string' ? pyStrip(rawDialect).toLowerCase() : null;
    if (d === null || !(DIALECTS as readonly string[]).includes(d)) {
      this.push(
        'error',
        [...path, 'dialect'],
        `${prefix}.dialect must be one of ${DIALECTS.join(', ')} (got ${pyRepr(rawDialect)}); skipping this hook — ` +
          'reading its output in the wrong dialect could silently allow what it means to block',
      );
      return null;
    }
    return d as Dialect;
  }

  /**
   * The spec's matcher: a string on a tool-scoped event, trimmed, empty meaning none; anything
   * else is warned about and ignored, as Hermes does.
   */
  private entryMatcher(event: EventName, raw: unknown, path: ConfigPath, prefix: string): string | null {
    let matcher = raw;
    if (matcher !== null && typeof matcher !== 'string') {
      this.warn([...path, 'matcher'], matcherTypeWarning(matcher, prefix));
      matcher = null;
    }
    if (matcher !== null && !EVENTS[event].toolScoped) {
      this.warn(
        [...path, 'matcher'],
        `${prefix}.matcher=${pyRepr(matcher)} will be ignored at runtime — the matcher field is only honored for ` +
          `pre_tool_call / post_tool_call.  The hook will fire on every ${event} event.`,
      );
      matcher = null;
    }
    if (typeof matcher !== 'string') return null;
    const trimmed = pyStrip(matcher);
    return trimmed === '' ? null : trimmed;
  }

  /** `timeout` as a Python int in 1..MAX_HOOK_TIMEOUT: the default when it is not one, clamped above. */
  private entryTimeout(rawTimeout: unknown, path: ConfigPath, prefix: string): number {
    let timeout = pythonInt(rawTimeout);
    if (timeout === null) {
      this.warn([...path, 'timeout'], `${prefix}.timeout must be an int (got ${pyRepr(rawTimeout)}); using default ${DEFAULT_HOOK_TIMEOUT}s`);
      timeout = DEFAULT_HOOK_TIMEOUT;
    }
    // Read as Hermes reads it; said when that is not the number written (2.9 → 2, true → 1).
    const surprise = timeout >= 1 ? timeoutWarning(rawTimeout, timeout, prefix) : null;
    if (surprise !== null) this.warn([...path, 'timeout'], surprise);
    if (timeout < 1) {
      this.warn([...path, 'timeout'], `${prefix}.timeout must be >=1; using default ${DEFAULT_HOOK_TIMEOUT}s`);
      timeout = DEFAULT_HOOK_TIMEOUT;
    }
    if (timeout > MAX_HOOK_TIMEOUT) {
      this.warn([...path, 'timeout'], `${prefix}.timeout=${BigInt(timeout)}s exceeds max ${MAX_HOOK_TIMEOUT}s; clamping`);
      timeout = MAX_HOOK_TIMEOUT;
    }
    return timeout;
  }

  /** `fail_closed` (or `failClosed`): a boolean, honoured only where a hook can block. */
  private entryFailClosed(event: EventName, raw: Map<unknown, unknown>, path: ConfigPath, prefix: string): boolean {
    // The canonical key wins whenever it is present, even with a null value (reference §10.7).
    const fcKey = raw.has('fail_closed') ? 'fail_closed' : raw.has('failClosed') ? 'failClosed' : null;
    // Strict mode: a pre_tool_call hook that does not say `fail_closed: false` is fail_closed.
    const rawFailClosed = fcKey === null ? this.strict && EVENTS[event].canBlock : raw.get(fcKey);
    const read = failClosedReading(rawFailClosed, prefix, { canBlock: EVENTS[event].canBlock, strict: this.strict });
    let failClosed = read.value;
    if (read.warning !== null) this.warn([...path, fcKey ?? 'fail_closed'], read.warning);
    if (failClosed && !EVENTS[event].canBlock) {
      this.warn(
        [...path, fcKey ?? 'fail_closed'],
        `${prefix}.fail_closed=true will be ignored at runtime — fail_closed only applies to blocking-capable events ` +
          `(pre_tool_call).  The hook will fail open on ${event} like any other hook.`,
      );
      failClosed = false;
    }
    return failClosed;
  }

  /** A pattern that does not compile is matched literally (compileMatcher remembers that for the engine). */
  private checkMatcher(matcher: string, dialect: Dialect, path: ConfigPath): void {
    const compiled = compileMatcher(matcher);
    if (compiled.error !== null) {
      this.warn([...path, 'matcher'], `shell hook matcher ${pyRepr(matcher)} is invalid (${compiled.error}) — treating as literal equality`);
    }
    for (const f of matcherFindings(matcher, dialect, this.dialectMaps)) this.report([...path, 'matcher'], f);
  }

  /** Identical (event, matcher, command, dialect) entries register once; the first one's settings hold. */
  private keep(spec: HookSpec, path: ConfigPath): void {
    const identity = JSON.stringify([spec.event, spec.matcher, spec.command, spec.dialect]);
    const first = this.seen.get(identity);
    if (!first) {
      this.seen.set(identity, spec);
      this.specs.push(spec);
      return;
    }
    const base = `${spec.path} duplicates ${first.path} (same command, matcher and dialect); the duplicate is ignored`;
    // Settings that differ would be silently lost (a fail_closed: true among them): say so louder.
    if (spec.timeout === first.timeout && spec.fail_closed === first.fail_closed) this.push('info', path, base);
    else {
      this.push(
        'warning',
        path,
        `${base} with its settings (timeout=${spec.timeout}s, fail_closed=${spec.fail_closed}); ` +
          `${first.path} runs with timeout=${first.timeout}s, fail_closed=${first.fail_closed}`,
      );
    }
  }

  private position(path: ConfigPath): { line: number | null; column: number | null } {
    const d = diagnosticAt(this.source, 'info', path, '');
    return { line: d.line, column: d.column };
  }

  private report(path: ConfigPath, finding: Finding, opts: { key?: boolean } = {}): void {
    this.push(finding.level, path, finding.message, opts);
  }

  private warn(path: ConfigPath, message: string, opts: { key?: boolean } = {}): void {
    this.push('warning', path, message, opts);
  }

  private push(level: DiagnosticLevel, path: ConfigPath, message: string, opts: { key?: boolean } = {}): void {
    this.diagnostics.push(diagnosticAt(this.source, level, path, message, opts));
  }
}
