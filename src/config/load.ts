// Read a config.yaml and validate its hooks. The only file I/O of config/: a missing file is an
// empty config, an unreadable one is a single error diagnostic, never a throw.

import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import type { Diagnostic, HookSpec } from '../types.js';
import { defaultDialectMaps, type DialectMaps } from '../dialects/names.js';
import { parseDialectsConfig, type AgentPlatforms } from './dialects.js';
import { parseHooksConfig } from './hooks.js';
import type { ForeignHooksKey } from '../dialects/recognise.js';
import type { RefusedGuard } from './strict.js';
import { diagnosticAt, locatedMessage, parseConfigText, type ConfigSource } from './source.js';
import { isPlainObject } from '../json.js';
import { errorText } from '../errors.js';

/** A read config.yaml: its hook specs, its raw data, and its diagnostics. */
export interface LoadedConfig {
  file: string;
  /** False when there is no file (a fresh profile); nothing else is reported then. */
  exists: boolean;
  source: ConfigSource;
  specs: HookSpec[];
  diagnostics: Diagnostic[];
  /** Top-level `hooks_auto_accept`. */
  autoAccept: boolean;
  /** The config root as plain JS; `{}` when it is not a mapping. */
  data: Record<string, unknown>;
  /** The `dialects:` name maps (the defaults when the file says nothing) and their diagnostics. */
  dialects: { maps: DialectMaps; diagnostics: Diagnostic[]; platforms?: AgentPlatforms };
  /** Keys under `hooks:` written in another agent's format (each is also an error diagnostic). */
  foreign: ForeignHooksKey[];
  /** Top-level `hooks_fail_closed: true` (strict mode, config/strict.ts). */
  strict: boolean;
  /** Under strict mode, the tool-gate guards the file meant but that cannot be registered: each blocks the gate. */
  refused: RefusedGuard[];
}

/** Read and validate a config.yaml; a missing or unreadable file is a LoadedConfig that says so, not a rejection. */
export async function loadConfig(file: string): Promise<LoadedConfig> {
  try {
    return fromText(file, await readFile(file, 'utf8'));
  } catch (e) {
    return fromReadError(file, e);
  }
}

export function loadConfigSync(file: string): LoadedConfig {
  try {
    return fromText(file, readFileSync(file, 'utf8'));
  } catch (e) {
    return fromReadError(file, e);
  }
}

function fromText(file: string, text: string): LoadedConfig {
  const source = parseConfigText(text, file);
  const dialects = parseDialectsConfig(source);
  // Matchers are checked against the tool names this config's own `dialects:` maps give.
  const { specs, diagnostics, autoAccept, foreign, strict, refused } = parseHooksConfig(source, { dialectMaps: dialects.maps });
  const data = isPlainObject(source.data) ? source.data : {};
  return { file, exists: true, source, specs, diagnostics, autoAccept, data, dialects, foreign, strict, refused };
}

function fromReadError(file: string, error: unknown): LoadedConfig {
  const code = (error as NodeJS.ErrnoException)?.code;
  const source = parseConfigText('', file);
  const base = {
    file,
    source,
    specs: [],
    autoAccept: false,
    data: {},
    dialects: { maps: defaultDialectMaps(), diagnostics: [] },
    foreign: [],
    strict: false,
    refused: [],
  };
  // A missing file, or a missing directory on the way to it, is simply "no config yet".
  if (code === 'ENOENT' || code === 'ENOTDIR') return { ...base, exists: false, diagnostics: [] };
  const reason = code === 'EISDIR' ? 'it is a directory' : code === 'EACCES' || code === 'EPERM' ? 'permission denied' : errorText(error);
  return {
    ...base,
    exists: true,
    // `file` already names the path: the message does not repeat it.
    diagnostics: [{ level: 'error', path: '', line: null, column: null, message: `cannot read config file: ${reason}`, file }],
  };
}

/**
 * Why a config that exists gave no usable hooks block — unreadable, or not valid YAML — or null.
 * Commands that run hooks for a host treat this as an error: a broken file must not read as "no hooks".
 */
export function configLoadError(config: LoadedConfig): string | null {
  if (!config.exists) return null;
  const syntax = config.source.syntaxError;
  if (syntax) return locatedMessage(syntax, config.file);
  const unreadable = config.diagnostics.find((d) => d.level === 'error' && d.path === '' && d.message.startsWith('cannot read config file:'));
  return unreadable ? `${config.file}: ${unreadable.message}` : null;
}

/**
 * `hooks_auto_accept` in a config that is not the profile's own `<home>/config.yaml` (a repository's
 * `.hermes/config.yaml` given with --config) approves nothing: its hooks need the user's approval.
 * The warning that says so, at the key; null when there is nothing to say.
 */
export function foreignAutoAcceptDiagnostic(config: LoadedConfig, ownConfigFile: string): Diagnostic | null {
  if (!config.autoAccept) return null;
  return diagnosticAt(
    config.source,
    'warning',
    ['hooks_auto_accept'],
    `ignored here: it is honoured only in the profile's own config ${ownConfigFile}, not in a config given ` +
      "with --config; approve these hooks with 'hermes-hooks approve' (they do not run until approved)",
    { key: true },
  );
}
