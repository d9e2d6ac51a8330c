// `doctor --agent`: the bundled client's settings file (<home>/hermes-hooks-client.env, written by
// print-config), judged as the client judges it (scripts-examples/hosts/hermes-hooks-client,
// client_env_file and start_serve_now): a file that is not plain, not yours or root's, or writable by
// other users is refused and every call fails; a node or CLI it names that is gone fails every call
// that must start serve. Pure: the file's lstat and text come in through a probe.

import { isAbsolute, join } from 'node:path';
import { AGENT_LABELS, type AgentDialect } from '../dialects/agents/index.js';
import type { AgentCheck } from '../dialects/agents/module.js';
import { CLIENT_ENV_FILE_NAME } from './print-config.js';

/** The settings file as lstat and a read found it. */
export type ClientSettingsFile =
  | { kind: 'missing' }
  | { kind: 'not_file' }
  /** text null: it could not be read (error says why). */
  | { kind: 'file'; uid: number; mode: number; text: string | null; error?: string };

/** What one client-wired entry gives the client: `--home`, and `--node` / `--bin`, which win over the file's. */
export interface ClientWiringOptions {
  home: string | undefined;
  node: string | undefined;
  bin: string | undefined;
}

export interface ClientSettingsProbes {
  read(path: string): ClientSettingsFile;
  runnable(path: string, mode: 'exec'): 'ok' | 'missing' | 'not_executable' | 'not_file';
  which(name: string): string | null;
  uid: number;
}

/** The lines the client takes, as it takes them: `HERMES_HOOKS_(NODE|BIN|AGENT_ENV_x)=value`, the first non-empty one of each. */
export function clientSettingsValues(text: string): Map<string, string> {
  const values = new Map<string, string>();
  for (const line of text.split(/(?<=\n)/)) {
    const m = /^(HERMES_HOOKS_(?:NODE|BIN|AGENT_ENV_[A-Za-z0-9_]+))=(.*?)\r?\n?$/s.exec(line);
    if (m && (values.get(m[1]!) ?? '') === '') values.set(m[1]!, m[2]!);
  }
  return values;
}

/**
 * One check per settings file the agent's client entries read (one per --home; `defaultHome` for an
 * entry without one: $HERMES_HOME, else ~/.hermes, the client's own rule). None without client entries.
 */
export function clientSettingsChecks(
  dialect: AgentDialect,
  wirings: readonly ClientWiringOptions[],
  defaultHome: string,
  probes: ClientSettingsProbes,
): AgentCheck[] {
  const byFile = new Map<string, ClientWiringOptions>();
  for (const w of wirings) {
    const file = join(w.home ?? defaultHome, CLIENT_ENV_FILE_NAME);
    if (!byFile.has(file)) byFile.set(file, w);
  }
  return [...byFile].map(([file, w]) => fileCheck(dialect, file, w, probes));
}

function fileCheck(dialect: AgentDialect, file: string, w: ClientWiringOptions, probes: ClientSettingsProbes): AgentCheck {
  const rewire = `'hermes-hooks print-config ${dialect}' writes it again`;
  // Refused: the client fails every call, a running serve or not (it names the program a start runs).
  const refused = (why: string, fix: string): AgentCheck => ({
    ok: false,
    message:
      `${why}: the client refuses its settings, so ${AGENT_LABELS[dialect]}'s tool gate blocks every call (other events go ahead ` +
      `without hermes-hooks) — ${fix}`,
  });
  const got = probes.read(file);
  let values = new Map<string, string>();
  if (got.kind === 'missing') {
    // The wiring's own --bin (an older, longer print) stands in for the file's.
    if (w.bin === undefined) {
      return {
        ok: false,
        message:
          `${file} is missing: the client has no node or CLI to start serve with (it tries 'hermes-hooks' on the agent's PATH), so while serve is ` +
          `not running ${AGENT_LABELS[dialect]}'s tool gate blocks every call — ${rewire}`,
      };
    }
  } else if (got.kind === 'not_file') {
    return refused(`${file} is not a plain file`, `remove it; ${rewire}`);
  } else if (got.uid !== probes.uid && got.uid !== 0) {
    return refused(`${file} belongs to uid ${got.uid}, not to you (uid ${probes.uid}) or root`, `remove it; ${rewire}`);
  } else if ((got.mode & 0o022) !== 0) {
    return refused(`${file} is writable by other users (mode ${(got.mode & 0o7777).toString(8)})`, `run: chmod go-w ${file}`);
  } else if (got.text === null) {
    return refused(`cannot read ${file} (${got.error ?? 'unreadable'})`, rewire);
  } else values = clientSettingsValues(got.text);

  // What a serve start runs: `NODE BIN serve …`, checked as the client checks them. An empty value is
  // unset (the client's ${NAME:-default}); the wiring's own --node / --bin win over the file's.
  const pick = (option: string | undefined, name: string): { value: string; from: string } | undefined =>
    option
      ? { value: option, from: `the entry's ${name === 'HERMES_HOOKS_NODE' ? '--node' : '--bin'}` }
      : values.get(name)
        ? { value: values.get(name)!, from: `named in ${file}` }
        : undefined;
  const node = pick(w.node, 'HERMES_HOOKS_NODE');
  const bin = pick(w.bin, 'HERMES_HOOKS_BIN') ?? { value: 'hermes-hooks', from: `no HERMES_HOOKS_BIN in ${file}, so the one on PATH` };
  const stale = (what: string, named: { value: string; from: string }, why: string): AgentCheck => ({
    ok: false,
    message:
      `${what} ${named.value} (${named.from}) ${why}: the client cannot start serve, so while serve is not running ${AGENT_LABELS[dialect]}'s ` +
      `tool gate blocks every call — ${named.from.startsWith('the entry') ? `rerun 'hermes-hooks print-config ${dialect}' and use its entries` : rewire}`,
  });
  const nodeState = node === undefined ? 'ok' : found(node.value, probes);
  if (node !== undefined && nodeState !== 'ok')
    return stale('node', node, nodeState === 'missing' ? 'is not there (node moved or removed, e.g. by nvm)' : 'is not executable');
  const binState = found(bin.value, probes);
  if (binState !== 'ok') return stale('the CLI', bin, binState === 'missing' ? 'is not there (hermes-hooks moved or removed)' : 'is not executable');
  return { ok: true, message: `${file}: the client starts serve with ${node === undefined ? '' : `${node.value} `}${bin.value} (there and executable)` };
}

/** The client's on_path: a path with a slash must be an executable file; a bare name is looked up on PATH. */
function found(program: string, probes: ClientSettingsProbes): 'ok' | 'missing' | 'not_executable' {
  if (!program.includes('/')) return probes.which(program) === null ? 'missing' : 'ok';
  if (!isAbsolute(program)) return 'missing'; // relative to the agent's directory: nothing doctor can check
  const state = probes.runnable(program, 'exec');
  return state === 'ok' ? 'ok' : state === 'not_executable' ? 'not_executable' : 'missing';
}
