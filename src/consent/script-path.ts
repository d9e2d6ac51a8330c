// Which file a hook command "is": the file whose bytes the approval pins. It is chosen from the
// very argv spawn will exec (`splitCommand`, the one splitter), walking through wrappers (`env`,
// `nice`, `timeout` …) to the program, and for a known interpreter past its options — skipping
// the ones that take a value (`node -r X`, `python3 -W X`, `bash -O X`) — to the script it runs.
// When the interpreter runs code from the command line, a module, stdin or a package rather than
// a file (`python3 -c …`, `python3 -m …`, `node -e …`, `npx …`), the interpreter binary is pinned
// and `note` says so. An unknown program is what exec runs, so it is pinned itself — except a bare
// unknown name followed by a script-looking argument (`uv run hook.py`), where the script is the
// better guess (and Hermes' choice). Options missing from the tables below are taken as flags
// without a value. Pure.

import { splitCommand } from '../spawn/argv.js';

export const SCRIPT_SUFFIXES: readonly string[] = [
  '.sh', '.bash', '.zsh', '.fish', '.py', '.pyw', '.rb', '.pl', '.lua', '.js', '.mjs', '.cjs', '.ts', '.mts', '.cts', '.tsx', '.jsx',
];

export type PinKind = 'script' | 'program' | 'interpreter';

export interface PinTarget {
  /** The argv spawn execs; null when the command does not split (it then cannot run either). */
  argv: string[] | null;
  /** Why the command does not split, or `empty command`; null otherwise. */
  error: string | null;
  /** The chosen word as the program or interpreter receives it (`~/` already expanded). */
  token: string;
  /**
   * How the word becomes a file: `path` = a bare program name exec looks up on PATH (`searchPath`
   * when an `env PATH=…` prefix set one); `cwd` = relative to the hook's working directory
   * (joined with `chdir` when `env -C`, `ruby -C` or `bun --cwd` moved it).
   */
  lookup: 'path' | 'cwd';
  searchPath: string | null;
  chdir: string | null;
  kind: PinKind;
  /** Why this word was chosen when it is not the obvious one (interpreter pinned, guessed script). */
  note: string | null;
}

type Step =
  | { script: number; chdir?: string | null; lookup?: 'path' | 'cwd' }
  | { inline: string }
  | { next: number; chdir?: string | null; searchPath?: string | null; words?: string[] };

export function choosePinTarget(command: string, opts: { homedir?: string } = {}): PinTarget {
  const split = splitCommand(command, opts.homedir === undefined ? {} : { homedir: opts.homedir });
  const base: PinTarget = { argv: null, error: null, token: command, lookup: 'cwd', searchPath: null, chdir: null, kind: 'program', note: null };
  if (!split.ok) return { ...base, error: split.error };
  let words = [...split.argv];
  base.argv = split.argv;
  let i = 0;
  let chdir: string | null = null;
  let searchPath: string | null = null;
  const program = (at: number, kind: PinKind = 'program', note: string | null = null): PinTarget => {
    const token = words[at] as string;
    const bare = !token.includes('/');
    return { ...base, token, lookup: bare ? 'path' : 'cwd', searchPath: bare ? searchPath : null, chdir: bare ? null : chdir, kind, note };
  };

  for (let hops = 0; hops < 16; hops++) {
    const prog = words[i];
    if (prog === undefined || prog === '') return { ...base, token: prog ?? '', error: 'empty command' };
    const name = basename(prog);
    const family = familyOf(name);
    if (family === null) {
      // An unknown program: exec runs it. A bare name with a script-looking argument is most
      // likely a runner (`uv run hook.py`): pin that script, as Hermes would.
      if (!prog.includes('/')) {
        const s = words.findIndex((w, k) => k > i && hasScriptSuffix(w));
        if (s > 0) {
          const token = words[s] as string;
          return {
            ...base, token, lookup: 'cwd', searchPath: null, chdir, kind: 'script',
            note: `${name} is not a known interpreter: pinned its first argument that looks like a script`,
          };
        }
      }
      return program(i);
    }
    const step = STEPS[family](words, i);
    if ('inline' in step) {
      return program(i, 'interpreter', `${step.inline}: the ${name} binary is pinned, not the code it runs`);
    }
    if ('script' in step) {
      if (step.chdir !== undefined && step.chdir !== null) chdir = chdir === null ? step.chdir : `${chdir}/${step.chdir}`;
      const token = words[step.script];
      if (token === undefined) return program(i, 'interpreter', `${name} is given no script file: the ${name} binary is pinned`);
      if (family === 'deno' && /^[a-z][a-z0-9+.-]*:/i.test(token)) {
        return program(i, 'interpreter', `${name} runs ${token}, which is not a local file: the ${name} binary is pinned`);
      }
      const lookup = step.lookup ?? 'cwd';
      return { ...base, token, lookup, searchPath: lookup === 'path' ? searchPath : null, chdir: lookup === 'path' ? null : chdir, kind: 'script', note: null };
    }
    // A wrapper: go on with the program it runs.
    if (step.words) words = step.words;
    if (step.chdir !== undefined && step.chdir !== null) chdir = chdir === null ? step.chdir : `${chdir}/${step.chdir}`;
    if (step.searchPath !== undefined) searchPath = step.searchPath;
    if (step.next >= words.length) return program(i);
    i = step.next;
  }
  return program(i);
}

export function hasScriptSuffix(word: string): boolean {
  const w = word.toLowerCase();
  return SCRIPT_SUFFIXES.some((s) => w.endsWith(s));
}

function basename(p: string): string {
  const parts = p.split('/');
  return parts[parts.length - 1] as string;
}

type Family = 'env' | 'nice' | 'nohup' | 'setsid' | 'timeout' | 'stdbuf' | 'node' | 'python' | 'shell' | 'ruby' | 'perl' | 'deno' | 'bun' | 'npx';

function familyOf(name: string): Family | null {
  if (name === 'env' || name === 'nice' || name === 'nohup' || name === 'setsid' || name === 'timeout' || name === 'stdbuf') return name;
  if (name === 'node' || name === 'nodejs' || name === 'tsx') return 'node';
  if (/^(python|pypy)[0-9.]*$/.test(name)) return 'python';
  if (['bash', 'sh', 'zsh', 'dash', 'ksh', 'mksh', 'ash'].includes(name)) return 'shell';
  if (name === 'ruby') return 'ruby';
  if (name === 'perl') return 'perl';
  if (name === 'deno') return 'deno';
  if (name === 'bun') return 'bun';
  if (['npx', 'pnpx', 'bunx', 'pnpm', 'yarn', 'npm'].includes(name)) return 'npx';
  return null;
}

/** Long options: `--opt=value` is one word; `--opt value` takes the next word when opt is listed. */
function longOpt(word: string, withValue: ReadonlySet<string>): { takesNext: boolean; name: string } {
  const eq = word.indexOf('=');
  const name = eq < 0 ? word : word.slice(0, eq);
  return { name, takesNext: eq < 0 && withValue.has(name) };
}

const STEPS: Record<Family, (w: string[], i: number) => Step> = {
  env(w, i) {
    let j = i + 1;
    let chdir: string | null = null;
    let searchPath: string | null | undefined;
    const value = new Set(['--unset', '--chdir', '--split-string']);
    while (j < w.length) {
      const a = w[j] as string;
      if (a === '--') return { next: j + 1, chdir, ...(searchPath !== undefined ? { searchPath } : {}) };
      if (a.startsWith('--')) {
        const { name, takesNext } = longOpt(a, value);
        const v = takesNext ? w[j + 1] : a.slice(name.length + 1);
        if (name === '--chdir' && v !== undefined) chdir = v;
        if (name === '--split-string' && v !== undefined) return splitString(w, i, j, takesNext ? 2 : 1, v);
        j += takesNext ? 2 : 1;
        continue;
      }
      if (a.startsWith('-') && a.length > 1) {
        // -u NAME, -C DIR, -S STRING (value attached or next); -i, -0, -v are flags.
        const k = [...a.slice(1)].findIndex((c) => c === 'u' || c === 'C' || c === 'S');
        if (k < 0) {
          j += 1;
          continue;
        }
        const opt = a[k + 1] as string;
        const attached = a.slice(k + 2);
        const v = attached !== '' ? attached : w[j + 1];
        const used = attached !== '' ? 1 : 2;
        if (opt === 'C' && v !== undefined) chdir = v;
        if (opt === 'S' && v !== undefined) return splitString(w, i, j, used, v);
        j += used;
        continue;
      }
      if (/^[A-Za-z_][A-Za-z0-9_]*=/.test(a)) {
        if (a.startsWith('PATH=')) searchPath = a.slice(5);
        j += 1;
        continue;
      }
      break;
    }
    return { next: j, chdir, ...(searchPath !== undefined ? { searchPath } : {}) };
  },
  nice(w, i) {
    let j = i + 1;
    while (j < w.length) {
      const a = w[j] as string;
      if (a === '--') return { next: j + 1 };
      if (a === '-n' || a === '--adjustment') j += 2;
      else if (a.startsWith('-')) j += 1; // -n10, --adjustment=10, -10
      else break;
    }
    return { next: j };
  },
  nohup(w, i) {
    return { next: w[i + 1] === '--' ? i + 2 : i + 1 };
  },
  setsid(w, i) {
    let j = i + 1;
    while (j < w.length && (w[j] as string).startsWith('-')) {
      if (w[j] === '--') return { next: j + 1 };
      j += 1;
    }
    return { next: j };
  },
  timeout(w, i) {
    let j = i + 1;
    const value = new Set(['--signal', '--kill-after']);
    while (j < w.length) {
      const a = w[j] as string;
      if (a === '--') {
        j += 1;
        break;
      }
      if (a === '-s' || a === '-k') j += 2;
      else if (a.startsWith('--')) j += longOpt(a, value).takesNext ? 2 : 1;
      else if (a.startsWith('-') && a.length > 1) j += 1;
      else break;
    }
    return { next: j + 1 }; // the DURATION, then the program
  },
  stdbuf(w, i) {
    let j = i + 1;
    const value = new Set(['--input', '--output', '--error']);
    while (j < w.length) {
      const a = w[j] as string;
      if (a === '--') return { next: j + 1 };
      if (a === '-i' || a === '-o' || a === '-e') j += 2;
      else if (a.startsWith('--')) j += longOpt(a, value).takesNext ? 2 : 1;
      else if (a.startsWith('-')) j += 1;
      else break;
    }
    return { next: j };
  },
  node(w, i) {
    const value = new Set([
      '-r', '--require', '--import', '--loader', '--experimental-loader', '-C', '--conditions', '--input-type',
      '--title', '--env-file', '--inspect-port', '--debug-port', '--openssl-config', '--icu-data-dir',
      '--redirect-warnings', '--report-dir', '--report-directory', '--report-filename', '--report-signal',
      '--diagnostic-dir', '--heapsnapshot-signal', '--cpu-prof-dir', '--cpu-prof-name', '--heap-prof-dir',
      '--heap-prof-name', '--unhandled-rejections', '--dns-result-order', '--disable-proto',
      '--experimental-policy', '--policy-integrity', '--tls-keylog', '--tls-cipher-list', '--secure-heap',
      '--secure-heap-min', '--use-largepages', '--stack-trace-limit', '--watch-path', '--test-reporter',
      '--test-reporter-destination', '--test-name-pattern', '--experimental-config-file',
    ]);
    let j = i + 1;
    while (j < w.length) {
      const a = w[j] as string;
      if (a === '--') return { script: j + 1 };
      if (a === '-') return { inline: `${basename(w[i] as string)} - reads the program from stdin` };
      if (a === '-e' || a === '--eval' || a === '-p' || a === '--print' || a.startsWith('--eval=') || a.startsWith('--print=')) {
        return { inline: `${basename(w[i] as string)} ${a.split('=')[0]} runs code from the command line` };
      }
      if (!a.startsWith('-')) return { script: j };
      j += longOpt(a, value).takesNext ? 2 : 1;
    }
    return { script: j };
  },
  python(w, i) {
    const name = basename(w[i] as string);
    let j = i + 1;
    while (j < w.length) {
      const a = w[j] as string;
      if (a === '--') return { script: j + 1 };
      if (a === '-') return { inline: `${name} - reads the program from stdin` };
      if (!a.startsWith('-')) return { script: j };
      if (a.startsWith('--')) {
        j += longOpt(a, new Set(['--check-hash-based-pycs'])).takesNext ? 2 : 1;
        continue;
      }
      // A cluster like -uBW ignore: c and m end it (code / module); W, X take the rest or the next word.
      let used = 1;
      for (let k = 1; k < a.length; k++) {
        const c = a[k] as string;
        if (c === 'c') return { inline: `${name} -c runs code from the command line` };
        if (c === 'm') return { inline: `${name} -m runs a module found on its import path, not a file given here` };
        if (c === 'W' || c === 'X' || c === 'Q') {
          if (k === a.length - 1) used = 2;
          break;
        }
      }
      j += used;
    }
    return { script: j };
  },
  shell(w, i) {
    const name = basename(w[i] as string);
    let j = i + 1;
    const value = new Set(['--rcfile', '--init-file']);
    while (j < w.length) {
      const a = w[j] as string;
      if (a === '--' || a === '-') return { script: j + 1 };
      if (a.startsWith('--')) {
        j += longOpt(a, value).takesNext ? 2 : 1;
        continue;
      }
      if (!(a.startsWith('-') || a.startsWith('+')) || a.length === 1) return { script: j };
      // -e, -x, -eu, +x …; -o/-O (and +o/+O) take the next word; -c runs code, -s reads stdin.
      const flags = a.slice(1);
      if (flags.includes('c')) return { inline: `${name} -c runs code from the command line` };
      if (flags.includes('s')) return { inline: `${name} -s reads the program from stdin` };
      const takes = [...flags].filter((c) => c === 'o' || c === 'O').length;
      j += 1 + takes;
    }
    return { script: j };
  },
  ruby(w, i) {
    const name = basename(w[i] as string);
    let j = i + 1;
    let chdir: string | null = null;
    let lookup: 'path' | 'cwd' = 'cwd';
    const value = new Set(['--encoding', '--external-encoding', '--internal-encoding']);
    while (j < w.length) {
      const a = w[j] as string;
      if (a === '--') return { script: j + 1, chdir, lookup };
      if (a === '-') return { inline: `${name} - reads the program from stdin` };
      if (!a.startsWith('-')) return { script: j, chdir, lookup };
      if (a.startsWith('--')) {
        j += longOpt(a, value).takesNext ? 2 : 1;
        continue;
      }
      const c = a[1] as string;
      const attached = a.slice(2);
      if (c === 'e') return { inline: `${name} -e runs code from the command line` };
      if ('IrCEF'.includes(c)) {
        if (c === 'C') chdir = attached !== '' ? attached : (w[j + 1] ?? null);
        j += attached !== '' ? 1 : 2;
        continue;
      }
      if (a.includes('S')) lookup = 'path';
      if (a.includes('e')) return { inline: `${name} -e runs code from the command line` };
      j += 1;
    }
    return { script: j, chdir, lookup };
  },
  perl(w, i) {
    const name = basename(w[i] as string);
    let j = i + 1;
    let lookup: 'path' | 'cwd' = 'cwd';
    while (j < w.length) {
      const a = w[j] as string;
      if (a === '--') return { script: j + 1, lookup };
      if (a === '-') return { inline: `${name} - reads the program from stdin` };
      if (!a.startsWith('-')) return { script: j, lookup };
      const c = a[1] as string;
      const attached = a.slice(2);
      if (c === 'e' || c === 'E') return { inline: `${name} -${c} runs code from the command line` };
      if (c === 'I' || c === 'M' || c === 'm') {
        j += attached !== '' ? 1 : 2;
        continue;
      }
      if (/^-[a-zA-Z]*S/.test(a) && !'ilx0C'.includes(c)) lookup = 'path';
      j += 1;
    }
    return { script: j, lookup };
  },
  deno(w, i) {
    const sub = w[i + 1];
    if (sub === 'eval') return { inline: 'deno eval runs code from the command line' };
    const known = ['run', 'serve'];
    const other = ['task', 'test', 'repl', 'install', 'uninstall', 'compile', 'bench', 'fmt', 'lint', 'check', 'add', 'remove', 'x', 'jupyter', 'cache', 'doc', 'info', 'upgrade', 'publish', 'outdated', 'init', 'clean', 'coverage', 'types', 'completions', 'lsp', 'vendor', 'bundle'];
    if (sub !== undefined && other.includes(sub)) return { inline: `deno ${sub} does not run one file given here` };
    let j = sub !== undefined && known.includes(sub) ? i + 2 : i + 1;
    const value = new Set(['-c', '--config', '--import-map', '--cert', '--location', '--seed', '-L', '--log-level', '--ext', '--preload', '--env-file', '--inspect', '--inspect-brk', '--inspect-wait', '--watch', '--lock']);
    // Deno's own option parser treats most values as attached (`--allow-read=x`); these accept the next word.
    const needsNext = new Set(['-c', '--config', '--import-map', '--cert', '--location', '--seed', '-L', '--log-level', '--ext', '--preload']);
    while (j < w.length) {
      const a = w[j] as string;
      if (a === '--') return { script: j + 1 };
      if (!a.startsWith('-')) return { script: j };
      const { name } = longOpt(a, value);
      j += !a.includes('=') && needsNext.has(name) ? 2 : 1;
    }
    return { script: j };
  },
  bun(w, i) {
    let j = i + 1;
    if (w[j] === 'run') j += 1;
    else if (w[j] === 'x' || w[j] === 'exec') return { inline: `bun ${w[j]} runs a package or shell command, not a file given here` };
    let chdir: string | null = null;
    const value = new Set(['-r', '--preload', '--cwd', '-c', '--config', '--tsconfig-override', '--env-file', '--main-fields', '--extension-order', '-d', '--define', '-l', '--loader', '--conditions', '--port', '--jsx-factory', '--jsx-fragment', '--jsx-import-source', '--jsx-runtime', '--elide-lines', '--filter', '-F']);
    while (j < w.length) {
      const a = w[j] as string;
      if (a === '--') {
        j += 1;
        break;
      }
      if (a === '-e' || a === '--eval' || a === '-p' || a === '--print') return { inline: `bun ${a} runs code from the command line` };
      if (!a.startsWith('-')) break;
      const { name, takesNext } = longOpt(a, value);
      if (name === '--cwd') chdir = takesNext ? (w[j + 1] ?? null) : a.slice(6);
      j += takesNext ? 2 : 1;
    }
    const token = w[j];
    // `bun run build` runs a package.json script by that name: there is no file to pin.
    if (token !== undefined && !token.includes('/') && !hasScriptSuffix(token)) {
      return { inline: `bun runs the package script or binary '${token}', not a file given here` };
    }
    return { script: j, chdir };
  },
  npx(w, i) {
    const name = basename(w[i] as string);
    return { inline: `${name} runs a package's binary or script, which can change without a file here changing` };
  },
};

function splitString(w: string[], i: number, j: number, used: number, value: string): Step {
  // env -S splits its argument into words (quotes and backslashes, no `~`): approximate with ours,
  // splice them in place of the option and read env's command line again from the start.
  const split = splitCommand(value, { homedir: '~' });
  const inner = split.ok ? split.argv : [value];
  return { next: i, words: [...w.slice(0, j), ...inner, ...w.slice(j + used)] };
}
