// Text a person reads on a terminal must be inert: a command, path, hook output or message that
// carries control characters could otherwise move the cursor, recolour or repaint the lines a
// person approves (`Command:` / `Script:`), or reorder them with bidi overrides. Every human-facing
// writer passes untrusted text through `inert` before adding its own colours. JSON output never
// goes through here: JSON.stringify already escapes C0/DEL, and machine readers want exact text.
// Pure.

// C0 (except the newline, handled by the caller's choice), DEL, C1, and the Unicode bidi
// controls: LRM/RLM/ALM, LRE/RLE/PDF/LRO/RLO, LRI/RLI/FSI/PDI; plus the line and paragraph
// separators, which some terminals and editors treat as line breaks.
// eslint-disable-next-line no-control-regex
const UNSAFE = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;
// eslint-disable-next-line no-control-regex
const UNSAFE_WITH_NEWLINE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

const NAMED: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t', '\u001b': '\\e' };

function escapeChar(c: string): string {
  const named = NAMED[c];
  if (named !== undefined) return named;
  const code = c.charCodeAt(0);
  return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
}

export interface InertOptions {
  /** Keep `\n` as a real line break (multi-line hook output, multi-line messages). Default false. */
  keepNewlines?: boolean;
}

/**
 * `text` with every control character shown as a visible escape: `\e` for ESC, `\n` `\r` `\t`,
 * `\xHH` for other C0/DEL/C1, `\uHHHH` for bidi controls. Printable text (including backslashes
 * and non-Latin scripts) is unchanged, so an ordinary command reads exactly as configured.
 */
export function inert(text: string, opts: InertOptions = {}): string {
  return text.replace(opts.keepNewlines ? UNSAFE : UNSAFE_WITH_NEWLINE, escapeChar);
}

/** True when `inert` would change `text`. */
export function hasControlChars(text: string): boolean {
  UNSAFE_WITH_NEWLINE.lastIndex = 0;
  return UNSAFE_WITH_NEWLINE.test(text);
}
