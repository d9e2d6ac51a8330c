// Fixed texts of the wire: what a block says when the hook gave no message, and how a fail_closed
// hook's failure is worded. Kept in one place so the engine, the CLI and the docs agree.

export const DEFAULT_BLOCK_MESSAGE = 'Blocked by shell hook.';

/** How many characters of stderr become the block message of an exit-2 hook. */
export const STDERR_MESSAGE_LIMIT = 400;

/** Block message of a fail_closed hook that failed: `hook <command> failed closed: <reason>`. */
export function failClosedMessage(command: string, reason: string): string {
  return `hook ${command} failed closed: ${reason}`;
}

export const FAIL_CLOSED_REASON = {
  unparseable: 'unparseable stdout (expected a JSON object)',
  outputLimit: 'output exceeded the capture limit and the hook was killed',
  timedOut: (timeoutSeconds: number): string => `timed out after ${timeoutSeconds}s`,
  exited: (code: number): string => `exited with status ${code} without a directive`,
  killed: (signal: string): string => `killed by ${signal} without a directive`,
  failed: 'exited abnormally without a directive',
  launchFailed: 'could not be started',
} as const;
