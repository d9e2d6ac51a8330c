// The pure half of `doctor --agent`: Codex's trust records read from config.toml text, in the shapes
// Codex and installers write (key: "<hooks.json real path>:<event label>:<group>:<handler>").

import { describe, expect, it } from 'vitest';
import { isHermesHooksCommand } from '../../src/agent-wiring/agent-doctor.js';
import { codexHookStates } from '../../src/dialects/agents/codex.js';

describe('codexHookStates', () => {
  it('[hooks.state."KEY"] tables with trusted_hash and enabled lines', () => {
    const toml = [
      'model = "gpt-5-codex"',
      '',
      '[hooks.state."/home/me/.codex/hooks.json:pre_tool_use:0:0"]',
      'trusted_hash = "sha256:aa"',
      '',
      "[hooks.state.'/home/me/.codex/hooks.json:stop:0:0']",
      'trusted_hash = "sha256:bb"',
      'enabled = false',
      '',
      '[projects."/home/me/src"]',
      'trust_level = "trusted"',
    ].join('\n');
    expect(codexHookStates(toml)).toEqual([
      { key: '/home/me/.codex/hooks.json:pre_tool_use:0:0', trustedHash: 'sha256:aa', enabled: null },
      { key: '/home/me/.codex/hooks.json:stop:0:0', trustedHash: 'sha256:bb', enabled: false },
    ]);
  });

  it('inline tables under [hooks.state], with escaped quotes in the key', () => {
    const toml = [
      '[hooks.state]',
      '"/a b/hooks.json:pre_tool_use:1:2" = { trusted_hash = "sha256:cc", enabled = true }',
      '"/x\\"y/hooks.json:stop:0:0" = {trusted_hash="sha256:dd"}',
      '[other]',
      '"/z/hooks.json:stop:0:0" = { trusted_hash = "no" }',
    ].join('\n');
    expect(codexHookStates(toml)).toEqual([
      { key: '/a b/hooks.json:pre_tool_use:1:2', trustedHash: 'sha256:cc', enabled: true },
      { key: '/x"y/hooks.json:stop:0:0', trustedHash: 'sha256:dd', enabled: null },
    ]);
  });
});

describe('isHermesHooksCommand', () => {
  it('by name, by bin.js, or as run X --dialect Y; not an unrelated hook', () => {
    expect(isHermesHooksCommand('npx --no hermes-hooks run PreToolUse --dialect codex')).toBe(true);
    expect(isHermesHooksCommand('/usr/bin/node /opt/hh/dist/cli/bin.js run PreToolUse --dialect claude')).toBe(true);
    expect(isHermesHooksCommand('/usr/local/bin/hh run BeforeTool --dialect gemini')).toBe(true);
    expect(isHermesHooksCommand('~/.claude/hooks/guard.sh')).toBe(false);
  });
});
