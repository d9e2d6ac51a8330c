// Small builders the agents' readers and answers share (private to agents/).

import { DEFAULT_BLOCK_MESSAGE } from '../../directives/messages.js';
import type { Directive, JsonObject } from '../../types.js';
import { isPlainObject } from '../../_json.js';
import type { DialectAnswer, Reading } from './module.js';

export const block = (message: string | undefined): Directive => ({ action: 'block', message: message ?? DEFAULT_BLOCK_MESSAGE });
export const approve = (message: string | undefined): Directive => (message === undefined ? { action: 'approve' } : { action: 'approve', message });
export const contextOf = (text: string | undefined): Directive | null => (text === undefined ? null : { action: 'context', context: text });
export const continueWith = (message: string | undefined): Directive | null =>
  message === undefined ? null : { action: 'continue', message: message.trim() };
export const none = (garbled = false): Reading => ({ directive: null, garbled });
export const obj = (v: unknown): JsonObject => (isPlainObject(v) ? v : {});

export { num, str } from '../values.js';

/** Our block message when the hooks gave none, in every agent's answer. */
export const BLOCKED = 'Blocked by hermes-hooks.';

export const OK_EMPTY: DialectAnswer = { exitCode: 0, stdout: '', stderr: '' };
export const json = (value: JsonObject): DialectAnswer => ({ exitCode: 0, stdout: `${JSON.stringify(value)}\n`, stderr: '' });
