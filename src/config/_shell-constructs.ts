// Shell syntax in a hook command that runs without a shell (hook-lint.ts says what becomes of
// it): operators, expansions and a leading assignment, found with splitCommand's quoting rules.
// Pure.

export interface Construct {
  kind: string;
  text: string;
  /** Index of the argv token it is in. */
  token: number;
}

const SHELLS = new Set(['sh', 'bash', 'zsh', 'dash', 'ksh', 'mksh', 'fish']);

/**
 * Shell syntax in a command, scanned with the same quoting rules as splitCommand: operators count
 * only unquoted; expansions (`$VAR`, `$(…)`, backticks) unquoted or inside double quotes, where a
 * shell would expand them too — except in the script of `bash -c "…"`, which a shell does run.
 */
export function shellConstructs(command: string, argv: readonly string[]): Construct[] {
  const base = (argv[0] ?? '').split('/').pop() ?? '';
  const shellScript = SHELLS.has(base) && /^-[a-z]*c[a-z]*$/.test(argv[1] ?? '');
  const found: Construct[] = [];
  const seen = new Set<string>();
  let token = -1;
  let inToken = false;
  const add = (kind: string, text: string): void => {
    if (seen.has(`${kind} ${text}`)) return;
    seen.add(`${kind} ${text}`);
    found.push({ kind, text, token: Math.max(token, 0) });
  };
  const start = (): void => {
    if (!inToken) {
      inToken = true;
      token += 1;
    }
  };
  // An expansion at i is recorded; returns the characters it spans (0 = none).
  const expansion = (i: number): number => {
    const found = expansionAt(command, i);
    if (found === null) return 0;
    add(found.kind, found.text);
    return found.span;
  };

  let i = 0;
  const n = command.length;
  while (i < n) {
    const c = command[i] as string;
    if (c === ' ' || c === '\t' || c === '\n' || c === '\r') {
      inToken = false;
      i += 1;
      continue;
    }
    start();
    if (c === '\\') {
      i += 2;
    } else if (c === "'") {
      const close = command.indexOf("'", i + 1);
      i = close === -1 ? n : close + 1;
    } else if (c === '"') {
      i += 1;
      while (i < n && command[i] !== '"') {
        if (command[i] === '\\') {
          i += 2;
          continue;
        }
        const span = shellScript ? 0 : expansion(i);
        i += span > 0 ? span : 1;
      }
      i += 1;
    } else {
      const two = command.slice(i, i + 2);
      const op = ['||', '&&', '>>', '>&', '&>'].includes(two) ? two : '|&;><'.includes(c) ? c : null;
      if (op !== null) {
        add(OPERATOR_KINDS[op] as string, op);
        i += op.length;
        // An operator ends the word before it and starts a new one in a shell; here it is glued.
        continue;
      }
      if (token === 0 && i === firstTokenStart(command) && /^[A-Za-z_][A-Za-z0-9_]*=/.test(command.slice(i))) {
        const word = /^\S*/.exec(command.slice(i))?.[0] ?? '';
        add('assignment', word);
        i += word.length;
        continue;
      }
      const span = expansion(i);
      i += span > 0 ? span : 1;
    }
  }
  return found;
}

/** `$NAME`, `${…}`, `$(…)` or a backtick at i: what it is and the characters it spans; null when none. */
function expansionAt(command: string, i: number): { kind: string; text: string; span: number } | null {
  const c = command[i];
  if (c === '`') {
    const close = command.indexOf('`', i + 1);
    const text = close === -1 ? command.slice(i) : command.slice(i, close + 1);
    return { kind: 'command substitution', text, span: close === -1 ? command.length - i : close + 1 - i };
  }
  if (c !== '$') return null;
  const next = command[i + 1] ?? '';
  if (next === '(') return { kind: 'command substitution', text: `$(…)`, span: 2 };
  if (next === '{') {
    const close = command.indexOf('}', i + 2);
    const text = close === -1 ? command.slice(i) : command.slice(i, close + 1);
    return { kind: 'variable', text, span: close === -1 ? command.length - i : close + 1 - i };
  }
  const name = /^[A-Za-z_][A-Za-z0-9_]*/.exec(command.slice(i + 1));
  if (name) return { kind: 'variable', text: `$${name[0]}`, span: 1 + name[0].length };
  return null;
}

const OPERATOR_KINDS: Readonly<Record<string, string>> = {
  '|': 'pipe',
  '||': 'or-list',
  '&&': 'and-list',
  '&': 'background operator',
  ';': 'command separator',
  '>': 'redirection',
  '>>': 'redirection',
  '>&': 'redirection',
  '&>': 'redirection',
  '<': 'redirection',
};

function firstTokenStart(command: string): number {
  return command.length - command.trimStart().length;
}
