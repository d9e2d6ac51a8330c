// Small builders the agents' readers and answers share (private to agents/).

import { DEFAULT_BLOCK_MESSAGE } from '../../directives/messages.js';
import type { Directive, JsonObject } from '../../types.js';
import { isPlainObject } from '../../json.js';
import type { DialectAnswer, Reading } from './module.js';

export const block = (message: string | undefined): Directive => ({ action: 'block', message: message ?? DEFAULT_BLOCK_MESSAGE });
export const approve = (message: string | undefined): Directive => (message === undefined ? { action: 'approve' } : { action: 'approve', message });
export const contextOf = (text: string | undefined): Directive | null => (text === undefined ? null : { action: 'context', context: text });
export const continueWith = (message: string | undefined): Directive | null => (message === undefined ? null : { action: 'continue', message: message.trim() });
export const none = (garbled = false): Reading => ({ directive: null, garbled });
export const obj = (v: unknown): JsonObject => (isPlainObject(v) ? v : {});

export { num, str } from '../values.js';

/** Our block message when the hooks gave none, in every agent's answer. */
export const BLOCKED = 'Blocked by hermes-hooks.';

export const OK_EMPTY: DialectAnswer = { exitCode: 0, stdout: '', stderr: '' };
export const json = (value: JsonObject): DialectAnswer => ({ exitCode: 0, stdout: `${JSON.stringify(value)}\n`, stderr: '' });

/** `answer` with `notice` on its stderr: for agents that document no field they show the person for it. */
export function withStderrNotice(answer: DialectAnswer, notice: string | null | undefined): DialectAnswer {
  return notice ? { ...answer, stderr: `${answer.stderr}${notice}\n` } : answer;
}

/**
 * `answer` with `notice` in the top-level `systemMessage` that Claude Code, Codex and Gemini CLI show
 * the person (JSON on exit 0); on an exit-2 block, where only stderr is read, after the reason.
 */
export function withSystemMessage(answer: DialectAnswer, notice: string | null | undefined): DialectAnswer {
  if (notice === null || notice === undefined) return answer;
  if (answer.exitCode === 2) return { ...answer, stderr: `${answer.stderr.trimEnd()}\n${notice}\n` };
  if (answer.exitCode !== 0) return answer;
  const parsed: unknown = answer.stdout.trim() === '' ? {} : JSON.parse(answer.stdout);
  return isPlainObject(parsed) ? json({ ...parsed, systemMessage: notice }) : answer;
}
