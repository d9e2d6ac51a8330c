// The commands inside a `bash -c CODE` string, so consent can follow them: each simple command's
// argv (assignments and redirections dropped, `~/` expanded), split at the shell's operators. What
// a reader of the text cannot know — a command substitution, a variable or glob where a program or
// a script is named, `eval`, a loop or function, a heredoc, a relative path after `cd` — makes the
// whole string unfollowable, with the reason: then nothing in it can be pinned, and approve says
// to put it in a script file instead. Pure.

export interface ShellCode {
  /** Each simple command's words, in order. */
  commands: string[][];
  /** Words (same indices) whose text came from an unquoted or double-quoted `$`, or a glob. */
  dynamic: boolean[][];
  /** Why the code cannot be followed; null when every command could be read. */
  unfollowable: string | null;
  /** A `cd`/`pushd`/`popd` came first: relative paths after it are not relative to the hook's directory. */
  movesDir: boolean;
}

/** What to do instead of `-c` code that cannot be followed (said by approve, consent and validate). */
export const UNFOLLOWABLE_FIX = 'put that code in a script file and make the script the command';

/** Why `-c` code cannot be approved, with the fix. */
export function unfollowableMessage(why: string): string {
  return `its -c code cannot be followed (${why}), so the scripts it runs could not be pinned — ${UNFOLLOWABLE_FIX}`;
}

/** Words that start or continue a compound command: the next word is a command. */
const PREFIX = new Set(['if', 'then', 'else', 'elif', 'do', 'while', 'until', '!', '{', 'time', 'exec', 'command', 'builtin', 'nohup']);
/** Words that end a compound command. */
const ENDS = new Set(['fi', 'done', '}']);
/** What a reader cannot follow in command position. */
const OPAQUE = new Set(['eval', 'for', 'case', 'select', 'function', 'coproc', 'trap', 'alias']);

/** Split `code` into simple commands; `homedir` expands a leading `~/` (and a lone `~`). */
export function readShellCode(code: string, homedir: string): ShellCode {
  const out: ShellCode = { commands: [], dynamic: [], unfollowable: null, movesDir: false };
  if (/\$\(|`|<\(|>\(|<<|\$\{?[0-9@*#?!$-]/.test(code)) {
    return { ...out, unfollowable: 'it runs a command substitution, a here-document or a positional parameter, whose commands cannot be read from the text' };
  }
  let words: string[] = [];
  let dyn: boolean[] = [];
  let cur = '';
  let curDyn = false;
  let inWord = false;
  let skipNext = false;
  const endWord = (): void => {
    if (!inWord) return;
    if (skipNext) skipNext = false;
    else {
      words.push(cur.startsWith('~/') || cur === '~' ? homedir + cur.slice(1) : cur);
      dyn.push(curDyn);
    }
    cur = '';
    curDyn = false;
    inWord = false;
  };
  const endCommand = (): void => {
    endWord();
    // Leading assignments and control words are not the command.
    let k = 0;
    while (k < words.length && (/^[A-Za-z_][A-Za-z0-9_]*=/.test(words[k] as string) || PREFIX.has(words[k] as string) || ENDS.has(words[k] as string))) k += 1;
    if (k < words.length) {
      out.commands.push(words.slice(k));
      out.dynamic.push(dyn.slice(k));
    }
    words = [];
    dyn = [];
  };
  let i = 0;
  while (i < code.length) {
    const c = code[i] as string;
    if (c === ' ' || c === '\t') {
      endWord();
      i += 1;
    } else if (c === '\n' || c === ';' || c === '|' || c === '&' || c === '(' || c === ')') {
      endCommand();
      i += 1;
    } else if (c === '<' || c === '>') {
      // A redirection: its operator (and an fd number before it) and its target are not words of the command.
      if (inWord && /^[0-9]*$/.test(cur)) {
        cur = '';
        inWord = false;
      } else endWord();
      while (i < code.length && /[<>&|]/.test(code[i] as string)) i += 1;
      while (code[i] === ' ' || code[i] === '\t') i += 1;
      skipNext = true;
      inWord = false;
    } else if (c === "'") {
      const close = code.indexOf("'", i + 1);
      if (close < 0) return { ...out, unfollowable: 'its quotes do not close' };
      cur += code.slice(i + 1, close);
      inWord = true;
      i = close + 1;
    } else if (c === '"') {
      let j = i + 1;
      while (j < code.length && code[j] !== '"') {
        if (code[j] === '\\' && j + 1 < code.length) j += 1;
        else if (code[j] === '$') curDyn = true;
        cur += code[j];
        j += 1;
      }
      if (j >= code.length) return { ...out, unfollowable: 'its quotes do not close' };
      inWord = true;
      i = j + 1;
    } else if (c === '\\') {
      cur += code[i + 1] ?? '';
      inWord = true;
      i += 2;
    } else {
      if (c === '$' || c === '*' || c === '?' || c === '[') curDyn = true;
      cur += c;
      inWord = true;
      i += 1;
    }
  }
  endCommand();
  for (const argv of out.commands) {
    const head = argv[0] as string;
    if (OPAQUE.has(head)) return { ...out, unfollowable: `it runs \`${head}\`, whose commands cannot be read from the text` };
    if (head === 'cd' || head === 'pushd' || head === 'popd') out.movesDir = true;
  }
  return out;
}
