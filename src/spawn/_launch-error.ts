// Launch-failure texts, as Hermes words them (reference §3.2), so a failed launch is its own
// outcome and never masquerades as an exit code. Pure.

/** `[Errno 8] Exec format error: '<path>'` — what Python's subprocess reports for ENOEXEC. */
export function execFormatErrorText(path: string): string {
  return `[Errno 8] Exec format error: '${path}'`;
}

/** Maps a spawn error (errno code + message) to the HookRun `error` text. */
export function launchErrorText(code: string | undefined, message: string | undefined, argv0: string): string {
  switch (code) {
    case 'ENOENT':
      return 'command not found';
    case 'EACCES':
    case 'EPERM':
      return 'command not executable';
    case 'ENOEXEC':
      return execFormatErrorText(argv0);
    default:
      return message && message.length > 0 ? message : `cannot launch '${argv0}'${code ? ` (${code})` : ''}`;
  }
}
