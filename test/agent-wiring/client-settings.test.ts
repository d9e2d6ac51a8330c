// The pure half of doctor --agent's check of the client's settings file: its lines read as the
// bundled client reads them (hermes-hooks-client, client_env_file).

import { describe, expect, it } from 'vitest';
import { clientSettingsValues } from '../../src/agent-wiring/client-settings.js';

describe('clientSettingsValues', () => {
  it('takes HERMES_HOOKS_NODE / BIN / AGENT_ENV_x lines, CRLF or not; an empty value leaves room for a later one; other lines are ignored', () => {
    const text = [
      '# Written by hermes-hooks print-config',
      'HERMES_HOOKS_NODE=',
      'HERMES_HOOKS_NODE=/opt/node/bin/node\r',
      'HERMES_HOOKS_NODE=/second/node',
      'HERMES_HOOKS_BIN=/pkg/dist/cli/bin.js',
      'HERMES_HOOKS_AGENT_ENV_claude=CLAUDE_CODE_ENTRYPOINT',
      'HERMES_HOOKS_SOCKET=/elsewhere.sock',
      ' HERMES_HOOKS_BIN=/indented',
    ].join('\n');
    expect([...clientSettingsValues(text)]).toEqual([
      ['HERMES_HOOKS_NODE', '/opt/node/bin/node'],
      ['HERMES_HOOKS_BIN', '/pkg/dist/cli/bin.js'],
      ['HERMES_HOOKS_AGENT_ENV_claude', 'CLAUDE_CODE_ENTRYPOINT'],
    ]);
  });
});
