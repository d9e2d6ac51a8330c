// Which words of a hook command are resolved against the config file's directory, and which are not.

import { describe, expect, it } from 'vitest';
import { resolveRelativeCommand } from '../../src/config/relative-path.js';

const FILE = '/profiles/work/config.yaml';
const resolved = (command: string) => resolveRelativeCommand(command, FILE)?.command ?? null;

describe('resolveRelativeCommand', () => {
  it.each([
    ['./guard.sh', '/profiles/work/guard.sh'],
    ['hooks/guard.sh --strict ./data', '/profiles/work/hooks/guard.sh --strict ./data'],
    ['bash hooks/guard.sh', 'bash /profiles/work/hooks/guard.sh'],
    ['python3 -u guard.py', 'python3 -u /profiles/work/guard.py'],
    ['node -r ./setup.js ./hook.js x/y', 'node -r /profiles/work/setup.js /profiles/work/hook.js x/y'],
    ['"./my hooks/g.sh" ~/x', "'/profiles/work/my hooks/g.sh' ~/x"],
  ])('%s → %s', (command, expected) => {
    expect(resolved(command)).toBe(expected);
  });

  it.each([['/abs/guard.sh'], ['~/guard.sh'], ['jq .x'], ['bash -c ./x.sh'], ['python3 -m pkg.mod'], ['guard'], ["bash -ec 'a/b'"], ['env ./x.sh']])(
    '%s is left as written',
    (command) => {
      expect(resolved(command)).toBeNull();
    },
  );
});
