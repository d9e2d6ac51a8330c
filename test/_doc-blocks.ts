// The command blocks of README.md and docs/*.md, and how a shown transcript is compared with what
// its commands print. Pure: test/readme.test.ts runs the blocks; the rules are in its header.

export interface Block {
  /** The file the block is in, relative to the repo (`README.md`, `docs/cli.md`). */
  file: string;
  /** 1-based line of the opening fence. */
  line: number;
  exit: number;
  script: string;
  /** An install line: runs on a bare clone and must leave `hermes-hooks` installed. */
  install?: true;
  /** A transcript whose output is compared: the shown lines (`$ ` lines and continuations removed). */
  output?: string[];
  /** Blocks of one file with the same group run in order in one fresh copy and home. */
  group?: string;
}

const RUNNABLE = /^<!--\s*runnable((?:\s+(?:exit=\d+|install|output|group=[\w-]+))*)\s*-->\s*$/;
const NOT_RUNNABLE = /^<!--\s*not-runnable:\s*(\S.*?)\s*-->\s*$/;
/** Fences that hold commands: every one needs a marker. (`bash` fences hold script files.) */
const COMMAND_FENCE = /^```(?:sh|shell|console)\s*$/;

/**
 * Every runnable block of a Markdown text. A `sh` block with neither `<!-- runnable … -->` nor
 * `<!-- not-runnable: reason -->` right above its fence is an error, as is a marker not followed
 * by an `sh` fence.
 */
export function runnableBlocks(text: string, file = 'README.md'): Block[] {
  const lines = text.split('\n');
  const blocks: Block[] = [];
  let inFence = false;
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i] as string;
    if (inFence) {
      if (/^```\s*$/.test(l)) inFence = false;
      continue;
    }
    const m = RUNNABLE.exec(l);
    const skip = NOT_RUNNABLE.exec(l);
    if ((m || skip) && !/^```sh\s*$/.test(lines[i + 1] ?? '')) {
      throw new Error(`${file}:${i + 1}: a runnable marker must be followed directly by a \`\`\`sh fence`);
    }
    if (/^<!--\s*(?:not-)?runnable/.test(l) && !m && !skip) throw new Error(`${file}:${i + 1}: unreadable marker: ${l}`);
    if (COMMAND_FENCE.test(l)) throw new Error(`${file}:${i + 1}: a command block needs <!-- runnable … --> or <!-- not-runnable: reason --> right above it`);
    if (/^```/.test(l)) {
      inFence = true;
      continue;
    }
    if (!m && !skip) continue;
    const body: string[] = [];
    let j = i + 2;
    for (; j < lines.length && !/^```\s*$/.test(lines[j] as string); j++) body.push(lines[j] as string);
    if (j >= lines.length) throw new Error(`${file}:${i + 2}: unterminated command block`);
    i = j;
    if (!m) continue;
    const opts = m[1] ?? '';
    const exit = Number(/exit=(\d+)/.exec(opts)?.[1] ?? 0);
    const block: Block = { file, line: i - body.length, exit, script: commandsOf(body) };
    if (/\binstall\b/.test(opts)) block.install = true;
    else block.script = withoutInstall(block.script);
    if (/\boutput\b/.test(opts)) {
      if (!body.some((x) => x.startsWith('$ '))) throw new Error(`${file}:${block.line}: an output block must be a transcript ($ lines)`);
      block.output = outputOf(body);
    }
    const group = /group=([\w-]+)/.exec(opts)?.[1];
    if (group !== undefined) block.group = group;
    blocks.push(block);
  }
  return blocks;
}

/**
 * The set-up line `npm install && <demo>` runs its demo only: the copy is already as after
 * `npm install` (built dist/, node_modules), and installing inside `npm test` is not ours to do.
 */
function withoutInstall(script: string): string {
  return script.replace(/^npm (?:install|ci) && /, '');
}

/** A transcript's `$ ` commands (with their `\` continuations); any other block as it is. */
function commandsOf(body: string[]): string {
  if (!body.some((l) => l.startsWith('$ '))) return body.join('\n');
  const out: string[] = [];
  let continued = false;
  for (const l of body) {
    if (l.startsWith('$ ')) out.push(l.slice(2));
    else if (continued) out.push(l);
    else continue;
    continued = l.endsWith('\\');
  }
  return out.join('\n');
}

/** A transcript's output lines: all but the `$ ` lines and their continuations. */
function outputOf(body: string[]): string[] {
  const out: string[] = [];
  let continued = false;
  for (const l of body) {
    if (l.startsWith('$ ') || continued) continued = l.endsWith('\\');
    else out.push(l);
  }
  return out;
}

/** What may differ from run to run, replaced the same way in the shown and the printed text. */
export function normalise(text: string): string {
  return text
    .replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z/g, '<date>')
    .replace(/\b[0-9a-f]{12,64}\b/g, '<hash>')
    .replace(/\b\d+(?:\.\d+)? ?ms\b/g, '<ms>')
    .replace(/\b\d+\.\d+s\b/g, '<s>')
    .replace(/\|[█ ]+\|/g, '|<bar>|')
    .split('\n')
    .map((l) => l.replace(/ {2,}/g, ' ').trimEnd())
    .join('\n')
    .replace(/\n+$/, '');
}

/** Whether printed output matches the shown lines: `…` alone on a line is any lines, inside a line any text. */
export function outputMatches(shown: string[], printed: string): boolean {
  const lines = normalise(shown.join('\n')).split('\n');
  let re = '';
  lines.forEach((l, k) => {
    const last = k === lines.length - 1;
    if (l.trim() === '…') re += last ? '[\\s\\S]*' : '(?:[^\\n]*\\n)*?';
    else
      re +=
        l
          .split('…')
          .map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
          .join('[^\\n]*') + (last ? '' : '\\n');
  });
  return new RegExp(`^${re}$`).test(normalise(printed));
}
