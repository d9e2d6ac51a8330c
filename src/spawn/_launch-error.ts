// Launch-failure texts, as Hermes words them (reference §3.2), so a failed launch is its own
// outcome and never masquerades as an exit code. Pure.

/** `[Errno 8] Exec format error: '<path>'` — what Python's subprocess reports for ENOEXEC. */
export function execFormatErrorText(path: string): string {
  return `[Errno 8] Exec format error: '${path}'`;
}

/** Where a launch looked argv[0] up: the child's PATH and working directory. */
export interface LaunchContext {
  path?: string | undefined;
  cwd?: string | undefined;
  /** The `#!` interpreter when argv[0] is a script that exists (then ENOENT is about the interpreter). */
  interpreter?: string | null | undefined;
}

/**
 * Maps a spawn error (errno code + message) to the HookRun `error` text. A command that is not
 * found says what was looked up, where that helps: commands run without a shell, so `FOO=1 cmd`
 * looks for a program called `FOO=1`.
 */
export function launchErrorText(code: string | undefined, message: string | undefined, argv0: string, context: LaunchContext = {}): string {
  switch (code) {
    case 'ENOENT':
      return notFoundText(argv0, context);
    case 'EACCES':
    case 'EPERM':
      return 'command not executable';
    case 'ENOEXEC':
      return execFormatErrorText(argv0);
    default:
      return message && message.length > 0 ? message : `cannot launch '${argv0}'${code ? ` (${code})` : ''}`;
  }
}

function notFoundText(argv0: string, { path, cwd, interpreter }: LaunchContext): string {
  if (interpreter) return `command not found: the #! interpreter \`${interpreter}\` does not exist`;
  const assignment = /^[A-Za-z_][A-Za-z0-9_]*=/.exec(argv0);
  if (assignment) return `command not found: \`${argv0}\` — environment assignments need \`env ${argv0} …\` (commands run without a shell)`;
  // An absolute path names itself; the hook's own command line already shows it.
  if (argv0.startsWith('/')) return 'command not found';
  if (argv0.includes('/')) return `command not found: \`${argv0}\` (looked up relative to the working directory${cwd ? ` ${cwd}` : ''})`;
  return `command not found: \`${argv0}\` (looked up on PATH=${path ?? ''})`;
}
