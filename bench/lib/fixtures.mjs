// A throw-away workspace for one benchmark: hook scripts and Hermes homes with a config.yaml,
// under the system temp dir (never the repo, never the real ~/.hermes).
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The payload a pre_tool_call emit carries in every benchmark. */
export const KWARGS = Object.freeze({
  tool_name: 'terminal',
  args: { command: 'ls -la', timeout: 30 },
  session_id: 'bench-session',
  task_id: 'bench-task',
});

/** A trivial hook: reads its stdin with shell built-ins only and prints an empty directive. */
export const TRIVIAL_HOOK = `#!/bin/sh
# trivial hook: read the payload, decide nothing
read -r _payload || :
echo '{}'
`;

/** The common hook: a bash guard that reads its whole stdin (`input=$(cat)`) and prints a deny. */
export const DENY_HOOK = `#!/bin/bash
# stdin-reading guard: read the whole payload, deny the call
input=$(cat)
echo '{"decision": "block", "reason": "denied by the bench guard"}'
`;

export function makeWorkspace(name) {
  const dir = mkdtempSync(join(tmpdir(), `hermes-bench-${name}-`));
  return {
    dir,
    /** Writes an executable script and returns its absolute path. */
    script(file, body) {
      const path = join(dir, file);
      writeFileSync(path, body);
      chmodSync(path, 0o755);
      return path;
    },
    /** A Hermes home whose config.yaml is `yaml`; returns the home directory. */
    home(homeName, yaml) {
      const home = join(dir, homeName);
      mkdirSync(home, { recursive: true });
      writeFileSync(join(home, 'config.yaml'), yaml);
      return home;
    },
    file(file) {
      return join(dir, file);
    },
    cleanup() {
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** config.yaml text with `commands` as hooks of `event`. */
export function hooksYaml(event, commands, { timeout = 30 } = {}) {
  const lines = ['hooks:', `  ${event}:`];
  for (const c of commands) lines.push(`    - command: ${JSON.stringify(c)}`, `      timeout: ${timeout}`);
  return `${lines.join('\n')}\n`;
}
