// The project's errors: one base class with a stable `code` (for hosts that branch on it) and the
// standard `cause`, and one way to turn anything thrown into text for a message.

/** The base of every error hermes-hooks throws on purpose. `code` is stable; the message is for people. */
export class HooksError extends Error {
  readonly code: string;
  constructor(code: string, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
    this.code = code;
  }
}

/**
 * The text of anything thrown: an Error's message, an error-like object's message (its `code` put in
 * front when the message lacks it, as system errors carry it: "ENOENT: no such file …"), else
 * String() of the value — never a throw of its own, whatever was thrown.
 */
export function errorText(err: unknown): string {
  try {
    if (err instanceof Error) return err.message;
    if (err !== null && typeof err === 'object' && 'message' in err && typeof err.message === 'string') {
      const code = 'code' in err && typeof err.code === 'string' ? err.code : null;
      return code !== null && !err.message.startsWith(code) ? `${code}: ${err.message}` : err.message;
    }
    return String(err);
  } catch {
    return Object.prototype.toString.call(err);
  }
}
