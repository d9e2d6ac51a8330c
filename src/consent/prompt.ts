// The consent question: its text (pure) and a real TTY implementation. The prompt reads stdin in
// the terminal's normal (cooked) mode, so the kernel does echo and line editing; Ctrl-C, Ctrl-D
// or a closed stdin decline. When stdin is not a TTY it declines at once: it can never hang.

import { StringDecoder } from 'node:string_decoder';
import { inert } from '../display.js';
import type { AwaitingConsentState } from '../consent-states.js';

/** What the consent prompt (HookEngineOptions.prompt) is asked about one hook. */
export interface PromptInfo {
  event: string;
  command: string;
  /** Why it is being asked: never approved, or modified since approval. */
  state: AwaitingConsentState;
  script_path: string | null;
  /** Why that file stands for the command (e.g. the interpreter is pinned for `python3 -c …`). */
  script_note?: string | null;
  script_sha256: string | null;
  /** The consent reason (what changed, for a modified hook). */
  reason: string;
  /** The full question, ready to print (ends with `[y/N]: `). */
  text: string;
}

// Every value from the config or the disk goes through `inert`: a command carrying terminal
// escapes must not repaint the lines a person approves.
export function formatPrompt(info: Omit<PromptInfo, 'text'>): string {
  const lines = ['', '⚠ hermes-hooks is about to register a shell hook that will run a', '  command on your behalf.'];
  if (info.state === 'modified') {
    lines.push('  It was approved before, but it has been MODIFIED since:', `    ${inert(info.reason.replace(/^modified since approval: /, ''))}`);
  }
  lines.push(
    '',
    `    Event:   ${inert(info.event)}`,
    `    Command: ${inert(info.command)}`,
    `    Script:  ${info.script_path === null ? '(none)' : inert(info.script_path)}`,
    `    SHA-256: ${info.script_sha256 ?? '(script missing or unreadable)'}`,
  );
  if (info.script_note) lines.push(`    Note:    ${inert(info.script_note)}`);
  lines.push('', '  The command runs with your full user credentials.  Only approve', '  commands you trust.', 'Allow this hook to run? [y/N]: ');
  return lines.join('\n');
}

export function isYes(answer: string): boolean {
  const a = answer.trim().toLowerCase();
  return a === 'y' || a === 'yes';
}

export interface TtyPromptOptions {
  input?: NodeJS.ReadStream;
  output?: NodeJS.WritableStream;
  /** Decline when nobody answers in time (default: wait for the user). */
  timeoutMs?: number;
}

// Type-ahead: text after the first newline belongs to the next question.
let pending = '';

/** Ask `info.text` on stderr, read one line from the TTY on stdin; true only for y / yes. */
export function promptOnTty(info: PromptInfo, opts: TtyPromptOptions = {}): Promise<boolean> {
  const input = opts.input ?? process.stdin;
  const output = opts.output ?? process.stderr;
  if (!input.isTTY || input.readableEnded || input.destroyed) return Promise.resolve(false);

  return new Promise<boolean>((resolve) => {
    const decoder = new StringDecoder('utf8');
    let buffer = pending;
    pending = '';
    let timer: NodeJS.Timeout | undefined;

    const finish = (answer: boolean, newline: boolean): void => {
      input.off('data', onData);
      input.off('end', onEnd);
      input.off('error', onEnd);
      process.off('SIGINT', onSigint);
      if (timer) clearTimeout(timer);
      input.pause();
      if (newline) output.write('\n');
      resolve(answer);
    };
    const consume = (): boolean => {
      // In raw mode (a host may have set it) Ctrl-C / Ctrl-D arrive as bytes.
      const cancel = buffer.search(/[\x03\x04]/);
      const nl = buffer.indexOf('\n');
      if (cancel >= 0 && (nl < 0 || cancel < nl)) {
        finish(false, true);
        return true;
      }
      if (nl < 0) return false;
      pending = buffer.slice(nl + 1);
      finish(isYes(buffer.slice(0, nl)), false);
      return true;
    };
    const onData = (chunk: Buffer | string): void => {
      buffer += typeof chunk === 'string' ? chunk : decoder.write(chunk);
      consume();
    };
    const onEnd = (): void => finish(false, true);
    const onSigint = (): void => finish(false, true);

    // Listen for Ctrl-C before the question is on screen, so an instant answer cannot kill us.
    process.on('SIGINT', onSigint);
    output.write(info.text);
    if (consume()) return;
    input.on('data', onData);
    input.on('end', onEnd);
    input.on('error', onEnd);
    if (opts.timeoutMs !== undefined) timer = setTimeout(() => finish(false, true), opts.timeoutMs);
    input.resume();
  });
}
