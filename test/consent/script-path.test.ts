import { describe, expect, it } from 'vitest';
import { choosePinTarget, type PinKind } from '../../src/consent/script-path.js';
import { splitCommand } from '../../src/shell-words.js';

const HOME = { homedir: '/home/u' };
const pick = (command: string): { token: string; kind: PinKind; lookup: string } => {
  const t = choosePinTarget(command, HOME);
  return { token: t.token, kind: t.kind, lookup: t.lookup };
};

describe('choosePinTarget: the word is taken from the argv spawn execs', () => {
  it('uses splitCommand, so a word hashes as it runs: `\\$` inside double quotes is `$`', () => {
    expect(pick('bash "/p/h\\$.sh"')).toEqual({ token: '/p/h$.sh', kind: 'script', lookup: 'cwd' });
    expect(splitCommand('bash "/p/h\\$.sh"')).toEqual({ ok: true, argv: ['bash', '/p/h$.sh'] });
  });

  it("a quoted '~' or ~user is not the home directory: it stays a relative path, as exec sees it", () => {
    expect(pick("bash '~'/g.sh")).toEqual({ token: '~/g.sh', kind: 'script', lookup: 'cwd' });
    expect(pick('~root/g2.sh')).toEqual({ token: '~root/g2.sh', kind: 'program', lookup: 'cwd' });
    expect(pick('~/bin/tool --flag')).toEqual({ token: '/home/u/bin/tool', kind: 'program', lookup: 'cwd' });
    expect(pick('bash ~/hooks/x.sh')).toEqual({ token: '/home/u/hooks/x.sh', kind: 'script', lookup: 'cwd' });
  });

  it('a command that does not split has nothing to pin', () => {
    expect(choosePinTarget("python3 'unterminated", HOME).error).toBe("command 'python3 'unterminated' cannot be parsed: No closing quotation");
    expect(choosePinTarget('   ', HOME).error).toBe('empty command');
    expect(choosePinTarget('""', HOME).error).toBe('empty command');
  });
});

describe('choosePinTarget: per interpreter, the script skips options that take a value', () => {
  it.each([
    // node (and nodejs, tsx)
    ['node -r ./setup.js ./hook.js', './hook.js'],
    ['node --require ./setup.js --import ./reg.mjs --loader ./l.mjs hook.mjs', 'hook.mjs'],
    ['node --require=./setup.js ./hook.js', './hook.js'],
    ['node --no-warnings --env-file .env -C dev ./hook.js', './hook.js'],
    ['node -- ./hook.js', './hook.js'],
    ['tsx -r ./setup.ts hook.ts', 'hook.ts'],
    // python
    ['python3 -W ignore -X dev hook.py', 'hook.py'],
    ['python3 -u -O -B /p/h.py', '/p/h.py'],
    ['python3 -uW ignore hook.py', 'hook.py'],
    ['python3 -Wignore hook.py', 'hook.py'],
    ['python3.12 -X importtime -- hook.py', 'hook.py'],
    ['python --check-hash-based-pycs never hook.py', 'hook.py'],
    // shells
    ['bash -O extglob -o pipefail /p/h.sh', '/p/h.sh'],
    ['bash -eu +o posix hook.sh', 'hook.sh'],
    ['sh -e ./hook.sh', './hook.sh'],
    ['zsh --rcfile ./rc.zsh hook.zsh', 'hook.zsh'],
    ['bash --norc -- ./hook.sh', './hook.sh'],
    // ruby, perl
    ['ruby -I ./lib -r json hook.rb', 'hook.rb'],
    ['ruby -Ilib -rjson -w hook.rb', 'hook.rb'],
    ['perl -I ./lib -Mstrict -w hook.pl', 'hook.pl'],
    ['perl -I lib -M strict hook.pl', 'hook.pl'],
    // deno, bun
    ['deno run --allow-read=. -c deno.json hook.ts', 'hook.ts'],
    ['deno hook.ts', 'hook.ts'],
    ['bun run --preload ./setup.ts ./hook.ts', './hook.ts'],
    ['bun -r ./setup.ts hook.ts', 'hook.ts'],
    // wrappers
    ['/usr/bin/env bash /p/h.sh', '/p/h.sh'],
    ['env -u DEBUG FOO=1 python3 -W error hook.py', 'hook.py'],
    ['env -S "python3 -u" hook.py', 'hook.py'],
    ['timeout -s KILL 5 node -r ./a.js ./b.js', './b.js'],
  ])('%j pins %j', (command, token) => {
    const t = choosePinTarget(command, HOME);
    expect({ token: t.token, kind: t.kind, note: t.note }).toEqual({ token, kind: 'script', note: null });
  });

  it.each([
    ["python3 -c 'print(1)'", 'python3', 'python3 -c runs code from the command line: the python3 binary is pinned, not the code it runs'],
    [
      'python3 -m mypkg.hook',
      'python3',
      'python3 -m runs a module found on its import path, not a file given here: the python3 binary is pinned, not the code it runs',
    ],
    ['python3 -uc "import x"', 'python3', 'python3 -c runs code from the command line: the python3 binary is pinned, not the code it runs'],
    ["node -e 'x()' ./ignored.js", 'node', 'node -e runs code from the command line: the node binary is pinned, not the code it runs'],
    ['node --print 1', 'node', 'node --print runs code from the command line: the node binary is pinned, not the code it runs'],
    ["bash -c 'cd /tmp && ./x'", 'bash', 'bash -c runs code from the command line: the bash binary is pinned, and the scripts its code runs'],
    ["sh -ec 'echo hi'", 'sh', 'sh -c runs code from the command line: the sh binary is pinned, and the scripts its code runs'],
    ["bash -O extglob -c 'x'", 'bash', 'bash -c runs code from the command line: the bash binary is pinned, and the scripts its code runs'],
    ["ruby -e 'puts 1'", 'ruby', 'ruby -e runs code from the command line: the ruby binary is pinned, not the code it runs'],
    ["perl -E 'say 1'", 'perl', 'perl -E runs code from the command line: the perl binary is pinned, not the code it runs'],
    ["deno eval 'x'", 'deno', 'deno eval runs code from the command line: the deno binary is pinned, not the code it runs'],
    ['deno run https://example.com/h.ts', 'deno', 'deno runs https://example.com/h.ts, which is not a local file: the deno binary is pinned'],
    [
      'npx my-guard --strict',
      'npx',
      "npx runs a package's binary or script, which can change without a file here changing: the npx binary is pinned, not the code it runs",
    ],
    ['bun run lint', 'bun', "bun runs the package script or binary 'lint', not a file given here: the bun binary is pinned, not the code it runs"],
    ['env python3 -c x', 'python3', 'python3 -c runs code from the command line: the python3 binary is pinned, not the code it runs'],
  ])('%j pins the interpreter %j and says why', (command, token, note) => {
    const t = choosePinTarget(command, HOME);
    expect({ token: t.token, kind: t.kind, lookup: t.lookup, note: t.note }).toEqual({ token, kind: 'interpreter', lookup: 'path', note });
  });

  it('a wrapper (nice, nohup, stdbuf, setsid, env) runs the program after its options: that program is pinned', () => {
    expect(pick('nice -n 10 /p/h.sh')).toEqual({ token: '/p/h.sh', kind: 'program', lookup: 'cwd' });
    expect(pick('nohup stdbuf -o L ./hook.sh')).toEqual({ token: './hook.sh', kind: 'program', lookup: 'cwd' });
    expect(pick('setsid -w env -i guard')).toEqual({ token: 'guard', kind: 'program', lookup: 'path' });
  });

  it('an unknown program is what exec runs; a bare runner with a script argument pins the script', () => {
    expect(pick('/bin/echo hi')).toEqual({ token: '/bin/echo', kind: 'program', lookup: 'cwd' });
    expect(pick('my-binary --verbose')).toEqual({ token: 'my-binary', kind: 'program', lookup: 'path' });
    expect(pick('./hooks/guard --config x.py')).toEqual({ token: './hooks/guard', kind: 'program', lookup: 'cwd' });
    const uv = choosePinTarget('uv run hook.py', HOME);
    expect([uv.token, uv.kind, uv.note]).toEqual(['hook.py', 'script', 'uv is not a known interpreter: pinned its first argument that looks like a script']);
  });

  it('env PATH=… and env -C / ruby -C / bun --cwd change where the file is looked up', () => {
    const p = choosePinTarget('env PATH=/opt/bin guard', HOME);
    expect([p.token, p.lookup, p.searchPath]).toEqual(['guard', 'path', '/opt/bin']);
    const c = choosePinTarget('env -C /work ./h.sh', HOME);
    expect([c.token, c.lookup, c.chdir]).toEqual(['./h.sh', 'cwd', '/work']);
    const r = choosePinTarget('ruby -C sub hook.rb', HOME);
    expect([r.token, r.chdir]).toEqual(['hook.rb', 'sub']);
    const b = choosePinTarget('bun --cwd app hook.ts', HOME);
    expect([b.token, b.chdir]).toEqual(['hook.ts', 'app']);
    const s = choosePinTarget('ruby -S rake', HOME);
    expect([s.token, s.lookup, s.kind]).toEqual(['rake', 'path', 'script']);
  });
});
