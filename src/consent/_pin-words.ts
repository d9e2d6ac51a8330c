// What the readers of a pinned command's words share: the step a reader returns, option
// parsing, and what looks like a script. Pure.

export const SCRIPT_SUFFIXES: readonly string[] = [
  '.sh',
  '.bash',
  '.zsh',
  '.fish',
  '.py',
  '.pyw',
  '.rb',
  '.pl',
  '.lua',
  '.js',
  '.mjs',
  '.cjs',
  '.ts',
  '.mts',
  '.cts',
  '.tsx',
  '.jsx',
];

/**
 * What one program's reader found in argv: the index of the script it runs, code it runs from
 * elsewhere (`inline`, why), or — for a wrapper — where the program it runs starts (with the
 * words rewritten when an option spliced some in, and a working directory or PATH it set).
 */
export type Step =
  | { script: number; chdir?: string | null; lookup?: 'path' | 'cwd' }
  /** `code`: the string a shell's -c runs (its commands are followed: consent/_shell-code.ts). */
  | { inline: string; code?: string }
  | { next: number; chdir?: string | null; searchPath?: string | null; words?: string[] };

/** Reads argv `w` from the program at `i`. */
export type StepReader = (w: string[], i: number) => Step;

export function hasScriptSuffix(word: string): boolean {
  const w = word.toLowerCase();
  return SCRIPT_SUFFIXES.some((s) => w.endsWith(s));
}

export function basename(p: string): string {
  const parts = p.split('/');
  return parts[parts.length - 1] as string;
}

/** Long options: `--opt=value` is one word; `--opt value` takes the next word when opt is listed. */
export function longOpt(word: string, withValue: ReadonlySet<string>): { takesNext: boolean; name: string } {
  const eq = word.indexOf('=');
  const name = eq < 0 ? word : word.slice(0, eq);
  return { name, takesNext: eq < 0 && withValue.has(name) };
}
