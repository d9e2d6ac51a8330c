// Readers of interpreters (node, python, shells, ruby, perl, deno, bun, the npx family): each
// skips the interpreter's options — the ones listed as taking a value take the next word — to
// the script it runs, or says why it runs code from elsewhere (`-c`, `-m`, stdin, a package). Pure.

import { basename, hasScriptSuffix, longOpt, type StepReader } from './_pin-words.js';

export type InterpreterFamily = 'node' | 'python' | 'shell' | 'ruby' | 'perl' | 'deno' | 'bun' | 'npx';

export const INTERPRETER_STEPS: Record<InterpreterFamily, StepReader> = {
  node(w, i) {
    const value = new Set([
      '-r',
      '--require',
      '--import',
      '--loader',
      '--experimental-loader',
      '-C',
      '--conditions',
      '--input-type',
      '--title',
      '--env-file',
      '--inspect-port',
      '--debug-port',
      '--openssl-config',
      '--icu-data-dir',
      '--redirect-warnings',
      '--report-dir',
      '--report-directory',
      '--report-filename',
      '--report-signal',
      '--diagnostic-dir',
      '--heapsnapshot-signal',
      '--cpu-prof-dir',
      '--cpu-prof-name',
      '--heap-prof-dir',
      '--heap-prof-name',
      '--unhandled-rejections',
      '--dns-result-order',
      '--disable-proto',
      '--experimental-policy',
      '--policy-integrity',
      '--tls-keylog',
      '--tls-cipher-list',
      '--secure-heap',
      '--secure-heap-min',
      '--use-largepages',
      '--stack-trace-limit',
      '--watch-path',
      '--test-reporter',
      '--test-reporter-destination',
      '--test-name-pattern',
      '--experimental-config-file',
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
      if (flags.includes('c')) {
        // The code is the first word that is not an option (`bash -c -e CODE` is rare but valid).
        let k = j + 1;
        while (k < w.length && /^[-+][a-zA-Z]+$/.test(w[k] as string)) k += 1;
        const code = w[k];
        return { inline: `${name} -c runs code from the command line`, ...(code !== undefined ? { code } : {}) };
      }
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
    const other = [
      'task',
      'test',
      'repl',
      'install',
      'uninstall',
      'compile',
      'bench',
      'fmt',
      'lint',
      'check',
      'add',
      'remove',
      'x',
      'jupyter',
      'cache',
      'doc',
      'info',
      'upgrade',
      'publish',
      'outdated',
      'init',
      'clean',
      'coverage',
      'types',
      'completions',
      'lsp',
      'vendor',
      'bundle',
    ];
    if (sub !== undefined && other.includes(sub)) return { inline: `deno ${sub} does not run one file given here` };
    let j = sub !== undefined && known.includes(sub) ? i + 2 : i + 1;
    const value = new Set([
      '-c',
      '--config',
      '--import-map',
      '--cert',
      '--location',
      '--seed',
      '-L',
      '--log-level',
      '--ext',
      '--preload',
      '--env-file',
      '--inspect',
      '--inspect-brk',
      '--inspect-wait',
      '--watch',
      '--lock',
    ]);
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
    const value = new Set([
      '-r',
      '--preload',
      '--cwd',
      '-c',
      '--config',
      '--tsconfig-override',
      '--env-file',
      '--main-fields',
      '--extension-order',
      '-d',
      '--define',
      '-l',
      '--loader',
      '--conditions',
      '--port',
      '--jsx-factory',
      '--jsx-fragment',
      '--jsx-import-source',
      '--jsx-runtime',
      '--elide-lines',
      '--filter',
      '-F',
    ]);
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
