// `hermes-hooks replay JOURNAL`: every recorded event through the current hooks, as production would
// run them (consent enforced, never prompted; plugins yes, webhooks no: nothing but the hooks runs),
// then the events whose verdict changed. Exit 0 nothing changed, 1 something did, 2 on any error —
// so CI can gate a guard change on last week's traffic. Events recorded in another agent's dialect
// are read again in that dialect, on the same path `run --dialect` takes.

import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { answerParsedCall } from '../agent-wiring/call.js';
import { configLoadError, loadConfig } from '../config/load.js';
import { isAgentDialect } from '../dialects/agents/index.js';
import { parseDialectInput } from '../dialects/translate-call.js';
import { createHookEngineAt, type HookEngine } from '../engine/create-engine.js';
import { stderrLogger } from '../engine/logger.js';
import type { EmitRecord } from '../engine/options.js';
import { errorText } from '../errors.js';
import { isEventName } from '../events.js';
import { JournalError, readJournal } from '../journal/read.js';
import type { JournalLine } from '../journal/record.js';
import { changeLine, replayJournal } from '../journal/replay.js';
import { isPlainObject } from '../json.js';
import { discoveryOf, type ParsedArgs } from './_args.js';
import { REPLAY_HELP } from './_help.js';
import { CliError, writeLine, type CliIO } from './_io.js';
import { locateProfile, missingConfigNote } from './_profile.js';

export async function replayCommand({ values, positionals }: ParsedArgs, io: CliIO): Promise<number> {
  const file = positionals[0];
  if (!file) throw new CliError(`replay: missing JOURNAL\n${REPLAY_HELP}`, 2);
  const lines = await readLines(file, io);
  const location = await locateProfile(discoveryOf(values), io).catch((e: unknown) => {
    throw new CliError(errorText(e), 2);
  });
  const config = await loadConfig(location.configFile);
  const broken = configLoadError(config);
  if (broken) throw new CliError(`cannot use config: ${broken}`, 2);
  const logger = stderrLogger({ stream: io.stderr });
  const missing = missingConfigNote({ location, config });
  if (missing) logger.warn(missing);
  let last: EmitRecord | null = null;
  const engine = await createHookEngineAt(location, config, {
    env: io.env,
    cwd: io.cwd,
    interactive: false,
    outbound: false,
    logger,
    observe: (r) => {
      last = r;
    },
  });
  try {
    const report = await replayJournal(lines, async (line, no) => {
      last = null;
      const problem = await emitRecorded(engine, line);
      if (problem !== null) throw new CliError(`replay: ${file}:${no}: ${problem}`, 2);
      if (last === null) throw new CliError(`replay: ${file}:${no}: event: ${line.event} was not emitted`, 2);
      return (last as EmitRecord).emission;
    }).catch((e: unknown) => {
      throw e instanceof CliError ? e : new CliError(`replay: ${errorText(e)}`, 2);
    });
    if (values.json) writeLine(io.stdout, JSON.stringify(report));
    else {
      for (const n of report.not_run) writeLine(io.stdout, `not run (as in production): ${n.command} — ${n.why}`);
      for (const c of report.changed) writeLine(io.stdout, changeLine(c));
      writeLine(io.stdout, `${report.events} event(s) replayed from ${file}: ${report.changed.length} verdict(s) changed`);
    }
    return report.changed.length > 0 ? 1 : 0;
  } finally {
    await engine.close({ finalize: false });
  }
}

async function readLines(file: string, io: CliIO): Promise<{ no: number; line: JournalLine }[]> {
  let text: string;
  try {
    text = await readFile(path.resolve(io.cwd, file), 'utf8');
  } catch (e) {
    throw new CliError(`replay: cannot read journal ${file}: ${errorText(e)}`, 2);
  }
  try {
    return numbered(readJournal(text, file), text);
  } catch (e) {
    if (e instanceof JournalError) throw new CliError(`replay: ${e.message}`, 2);
    throw e;
  }
}

/** Each line with its line number in the file (blank lines are skipped by readJournal). */
function numbered(lines: JournalLine[], text: string): { no: number; line: JournalLine }[] {
  const nos: number[] = [];
  text.split('\n').forEach((l, i) => {
    if (l.trim() !== '') nos.push(i + 1);
  });
  return lines.map((line, i) => ({ no: nos[i]!, line }));
}

/**
 * One recorded event, sent as it was received: our payload to emit, another agent's stdin through
 * its dialect (as `run --dialect` does). Returns what makes the line unreplayable (`field: problem`), or null.
 */
async function emitRecorded(engine: HookEngine, line: JournalLine): Promise<string | null> {
  if (line.dialect === 'hermes') {
    if (!isEventName(line.event)) return `event: '${line.event}' is not a Hermes event`;
    if (!isPlainObject(line.received)) return 'received: must be the payload object';
    await engine.emit(line.event, line.received);
    return null;
  }
  if (!isAgentDialect(line.dialect)) return `dialect: '${line.dialect}' is not one this hermes-hooks speaks`;
  const parsed = parseDialectInput(line.dialect, engine.config.dialects.maps, line.received, { event: line.their_event });
  if ('error' in parsed) return `received: ${parsed.error}`;
  await answerParsedCall(engine, line.dialect, parsed, { received: { dialect: line.dialect, event: line.their_event, input: line.received } });
  return null;
}
