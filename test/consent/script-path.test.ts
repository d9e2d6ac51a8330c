import { describe, expect, it } from 'vitest';
import { shlexSplit } from '../../src/consent/_shlex.js';
import { expandUser, resolveScriptPath } from '../../src/consent/script-path.js';

const HOME = { homedir: '/home/u', username: 'u' };

describe('resolveScriptPath: the token Hermes stats (reference §5)', () => {
  it.each([
    ['python3 -u /p/h.py', '/p/h.py'],
    ['nice -n 10 /p/h.sh', '/p/h.sh'],
    ['/usr/bin/env bash /p/h.sh', '/p/h.sh'],
    ['/bin/echo hi', '/bin/echo'],
    ['my-binary --verbose', 'my-binary'],
    ["python3 -c 'print(1)'", 'python3'],
    ["python3 'unterminated", "python3 'unterminated"],
    ['', ''],
    ['   ', '   '],
    ['bash ~/hooks/x.sh', '/home/u/hooks/x.sh'],
    ['~/bin/tool --flag', '/home/u/bin/tool'],
    ['node ./rel/Hook.MJS', './rel/Hook.MJS'],
    ['ruby a.rb b.py', 'a.rb'],
    ['sh -c "cd /tmp && ./x"', 'cd /tmp && ./x'],
    ['"/path with space/h.sh" arg', '/path with space/h.sh'],
    ['bash /p/h.sh\\', 'bash /p/h.sh\\'],
  ])('%j → %j', (command, expected) => {
    expect(resolveScriptPath(command, HOME).path).toBe(expected);
  });

  it('says which token was chosen', () => {
    expect(resolveScriptPath('python3 -u /p/h.py', HOME)).toEqual({ path: '/p/h.py', index: 2, argv: ['python3', '-u', '/p/h.py'] });
    expect(resolveScriptPath("a 'b", HOME)).toEqual({ path: "a 'b", index: null, argv: null });
  });
});

describe('expandUser: os.path.expanduser', () => {
  it.each([
    ['~', '/home/u'],
    ['~/x', '/home/u/x'],
    ['~u/x', '/home/u/x'],
    ['~other/x', '~other/x'],
    ['a~/x', 'a~/x'],
  ])('%s → %s', (token, expected) => {
    expect(expandUser(token, HOME)).toBe(expected);
  });
  it('a root home gives /', () => {
    expect(expandUser('~', { homedir: '/' })).toBe('/');
    expect(expandUser('~/x', { homedir: '/' })).toBe('/x');
  });
});

describe('shlexSplit: Python shlex.split (POSIX, no comments)', () => {
  it.each([
    ['a b  c', ['a', 'b', 'c']],
    ["a '' b", ['a', '', 'b']],
    ['a"b c"d', ['ab cd']],
    ["'a\\b'", ['a\\b']],
    ['"a\\b"', ['a\\b']],
    ['"a\\"b"', ['a"b']],
    ['"a\\\\b"', ['a\\b']],
    ['a\\ b', ['a b']],
    ['x # not a comment', ['x', '#', 'not', 'a', 'comment']],
    ['$HOME *.sh', ['$HOME', '*.sh']],
    ['\t a\n', ['a']],
    ['""', ['']],
  ])('%j → %j', (text, expected) => {
    expect(shlexSplit(text)).toEqual(expected);
  });

  it.each([["'open"], ['"open'], ['trailing\\']])('%j does not split (ValueError)', (text) => {
    expect(shlexSplit(text)).toBeNull();
  });
});
