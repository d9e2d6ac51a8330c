// The rule a routed profile's hook environment follows (spawn/profile-env.ts), from Hermes'
// secret scope: shared settings kept, other profiles' .env names and credential names dropped,
// the profile's own .env added, HERMES_HOME its home.

import { describe, expect, it } from 'vitest';
import { isCredentialName, isGlobalEnvName, parseDotEnv, scopeEnvToProfile } from '../../src/spawn/profile-env.js';

describe("a routed profile's hook environment", () => {
  it('parses .env as Hermes does for a secret scope', () => {
    expect(parseDotEnv('# c\nexport A=1\nB = "two words"\nC=\'x\'\nnoequals\n=v\nD=a=b\r\n')).toEqual({ A: '1', B: 'two words', C: 'x', D: 'a=b' });
  });

  it('keeps shared settings, drops foreign and credential names, adds its own secrets and HERMES_HOME', () => {
    const base = {
      PATH: '/bin',
      HOME: '/h',
      HERMES_HOME: '/root',
      TERMINAL_ENV: 'local',
      OPENAI_API_KEY: 'sk-d',
      GITHUB_TOKEN: 'g',
      FOO: 'from-default-env',
      EDITOR: 'vi',
      HERMES_TELEGRAM_DELAY: '1',
    };
    const env = scopeEnvToProfile(base, { home: '/root/profiles/work', secrets: { OPENAI_API_KEY: 'sk-w', PATH: '/evil' }, foreignNames: ['FOO', 'PATH'] });
    expect(env).toEqual({
      PATH: '/bin',
      HOME: '/h',
      HERMES_HOME: '/root/profiles/work',
      TERMINAL_ENV: 'local',
      HERMES_TELEGRAM_DELAY: '1',
      EDITOR: 'vi',
      OPENAI_API_KEY: 'sk-w',
    });
    expect(isGlobalEnvName('HERMES_KANBAN_X')).toBe(true);
    expect(isCredentialName('TERMINAL_SSH_KEY')).toBe(false);
    expect(isCredentialName('ANTHROPIC_API_KEY')).toBe(true);
  });
});
