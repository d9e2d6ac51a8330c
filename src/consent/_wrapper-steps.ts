// Readers of wrapper programs (`env`, `nice`, `nohup`, `setsid`, `timeout`, `stdbuf`): each
// skips the wrapper's own options to the program it runs. Pure.

import { splitCommand } from '../shell-words.js';
import { longOpt, type Step, type StepReader } from './_pin-words.js';

export type WrapperFamily = 'env' | 'nice' | 'nohup' | 'setsid' | 'timeout' | 'stdbuf';

export const WRAPPER_STEPS: Record<WrapperFamily, StepReader> = {
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
      else if (a.startsWith('-'))
        j += 1; // -n10, --adjustment=10, -10
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
};

function splitString(w: string[], i: number, j: number, used: number, value: string): Step {
  // env -S splits its argument into words (quotes and backslashes, no `~`): approximate with ours,
  // splice them in place of the option and read env's command line again from the start.
  const split = splitCommand(value, { homedir: '~' });
  const inner = split.ok ? split.argv : [value];
  return { next: i, words: [...w.slice(0, j), ...inner, ...w.slice(j + used)] };
}
