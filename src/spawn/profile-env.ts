// The environment a hook child of a routed profile starts from, when one serve hosts many profiles
// (serve --profiles). Hermes' multiplexing gateway reads a profile's credentials only from that
// profile's own `.env` (agent/secret_scope.py: get_secret, build_profile_secret_scope), never from
// the process environment, which holds the default profile's: so the default profile's secrets
// must not reach another profile's hooks. Pure: the caller reads the `.env` files.

/**
 * Deployment settings, not profile secrets: kept from serve's environment for every profile
 * (Hermes' _GLOBAL_ENV_EXACT / _GLOBAL_ENV_PREFIXES, agent/secret_scope.py).
 */
const GLOBAL_EXACT: ReadonlySet<string> = new Set([
  'HERMES_HOME',
  'HERMES_PROFILE',
  'HERMES_GATEWAY_LOCK_DIR',
  'HERMES_MAX_ITERATIONS',
  'HERMES_MAX_TOKENS',
  'HERMES_API_TIMEOUT',
  'HERMES_REDACT_SECRETS',
  'HERMES_NOUS_TIMEOUT_SECONDS',
  '_HERMES_GATEWAY',
  'PATH',
  'HOME',
  'USER',
  'LANG',
  'LC_ALL',
  'TZ',
  'PWD',
  'SHELL',
  'TMPDIR',
  'VIRTUAL_ENV',
  'PYTHONPATH',
  'SSL_CERT_FILE',
  'HERMES_KANBAN_DB',
  'HERMES_KANBAN_WORKSPACES_ROOT',
  'HERMES_KANBAN_BOARD',
]);
const GLOBAL_PREFIXES = ['HERMES_KANBAN_', 'HERMES_TELEGRAM_', 'TERMINAL_'] as const;
/** Names Hermes treats as credentials (hermes_cli/env_loader.py _CREDENTIAL_SUFFIXES). */
const CREDENTIAL_SUFFIXES = ['_API_KEY', '_TOKEN', '_SECRET', '_KEY'] as const;

/** A deployment setting every profile shares (never a profile secret). */
export function isGlobalEnvName(name: string): boolean {
  return GLOBAL_EXACT.has(name) || GLOBAL_PREFIXES.some((p) => name.startsWith(p));
}

/** A name that holds a credential by Hermes' naming rule, and is not a shared setting. */
export function isCredentialName(name: string): boolean {
  return !isGlobalEnvName(name) && CREDENTIAL_SUFFIXES.some((s) => name.endsWith(s));
}

/**
 * A `.env` file's KEY=VALUE lines as Hermes reads them for a secret scope (load_env_file):
 * `export ` prefix, `#` comments, one pair of matching quotes stripped. Never touches process.env.
 */
export function parseDotEnv(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const raw of text.split(/\r?\n/)) {
    let line = raw.trim();
    if (line === '' || line.startsWith('#')) continue;
    if (line.startsWith('export ')) line = line.slice('export '.length).trimStart();
    const eq = line.indexOf('=');
    if (eq < 0) continue;
    const key = line.slice(0, eq).trim();
    if (key === '') continue;
    let value = line.slice(eq + 1).trim();
    if (value.length >= 2 && value[0] === value.at(-1) && (value[0] === '"' || value[0] === "'")) value = value.slice(1, -1);
    out[key] = value;
  }
  return out;
}

export interface ProfileScope {
  /** The routed profile's home: its hooks' HERMES_HOME. */
  home: string;
  /** The routed profile's own `.env`: its secret scope. */
  secrets: Readonly<Record<string, string>>;
  /** Every name another profile's `.env` defines (the default profile's first of all). */
  foreignNames: Iterable<string>;
}

/**
 * serve's environment scoped to one routed profile: every other profile's `.env` names and every
 * credential-named variable (serve's own environment is the default profile's) removed, unless a
 * shared setting; then the profile's own `.env` on top, and HERMES_HOME its home.
 */
export function scopeEnvToProfile(base: NodeJS.ProcessEnv, scope: ProfileScope): NodeJS.ProcessEnv {
  const foreign = new Set(scope.foreignNames);
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(base)) {
    if (isGlobalEnvName(name) || (!foreign.has(name) && !isCredentialName(name))) env[name] = value;
  }
  for (const [name, value] of Object.entries(scope.secrets)) if (!isGlobalEnvName(name)) env[name] = value;
  env.HERMES_HOME = scope.home;
  return env;
}
