import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigLocationError, expandTilde, locateConfig, profileNameOf, validateProfileName } from '../../src/config/locate.js';

const HOME = '/home/ada';

describe('locateConfig precedence', () => {
  it('defaults to ~/.hermes', () => {
    expect(locateConfig({ env: {}, homedir: HOME })).toEqual({
      home: '/home/ada/.hermes',
      configFile: '/home/ada/.hermes/config.yaml',
      profile: 'default',
      root: '/home/ada/.hermes',
      homeFrom: 'default',
      configFrom: 'default',
      ownConfig: true,
    });
  });

  it('$HERMES_HOME replaces ~/.hermes as home and root', () => {
    expect(locateConfig({ env: { HERMES_HOME: '/srv/hermes' }, homedir: HOME })).toEqual({
      home: '/srv/hermes',
      configFile: '/srv/hermes/config.yaml',
      profile: 'default',
      root: '/srv/hermes',
      homeFrom: 'HERMES_HOME',
      configFrom: 'HERMES_HOME',
      ownConfig: true,
    });
  });

  it('an empty or blank $HERMES_HOME counts as unset', () => {
    expect(locateConfig({ env: { HERMES_HOME: '' }, homedir: HOME }).home).toBe('/home/ada/.hermes');
    expect(locateConfig({ env: { HERMES_HOME: '  ' }, homedir: HOME }).home).toBe('/home/ada/.hermes');
  });

  it('--home beats $HERMES_HOME but the root stays $HERMES_HOME', () => {
    expect(locateConfig({ home: '/tmp/h', env: { HERMES_HOME: '/srv/hermes' }, homedir: HOME })).toEqual({
      home: '/tmp/h',
      configFile: '/tmp/h/config.yaml',
      profile: 'default',
      root: '/srv/hermes',
      homeFrom: 'home',
      configFrom: 'home',
      ownConfig: true,
    });
  });

  it('--profile beats --home and lives under <root>/profiles', () => {
    expect(locateConfig({ profile: 'work', home: '/tmp/h', env: { HERMES_HOME: '/srv/hermes' }, homedir: HOME })).toEqual({
      home: '/srv/hermes/profiles/work',
      configFile: '/srv/hermes/profiles/work/config.yaml',
      profile: 'work',
      root: '/srv/hermes',
      homeFrom: 'profile',
      configFrom: 'profile',
      ownConfig: true,
    });
    expect(locateConfig({ profile: 'work', env: {}, homedir: HOME }).home).toBe('/home/ada/.hermes/profiles/work');
  });

  it('--config only names the file to read: the profile home (the allowlist) is found as without it', () => {
    expect(locateConfig({ config: '/etc/x/hooks.yaml', profile: 'work', home: '/tmp/h', env: { HERMES_HOME: '/srv/hermes' }, homedir: HOME })).toEqual({
      home: '/srv/hermes/profiles/work',
      configFile: '/etc/x/hooks.yaml',
      profile: 'work',
      root: '/srv/hermes',
      homeFrom: 'profile',
      configFrom: 'config',
      ownConfig: false,
    });
    expect(locateConfig({ config: '/repo/.hermes/config.yaml', env: {}, homedir: HOME })).toEqual({
      home: '/home/ada/.hermes',
      configFile: '/repo/.hermes/config.yaml',
      profile: 'default',
      root: '/home/ada/.hermes',
      homeFrom: 'default',
      configFrom: 'config',
      ownConfig: false,
    });
    expect(locateConfig({ config: '/tmp/h/hooks.yaml', home: '/tmp/h', env: {}, homedir: HOME }).home).toBe('/tmp/h');
    expect(locateConfig({ config: '/srv/hermes/config.yaml', env: { HERMES_HOME: '/srv/hermes' }, homedir: HOME }).home).toBe('/srv/hermes');
  });

  it("--config naming the home's own config.yaml is the profile's own config", () => {
    expect(locateConfig({ config: '/tmp/h/config.yaml', home: '/tmp/h', env: {}, homedir: HOME }).ownConfig).toBe(true);
    expect(locateConfig({ config: '~/.hermes/config.yaml', env: {}, homedir: HOME }).ownConfig).toBe(true);
    expect(locateConfig({ config: '/tmp/h/config.yaml', env: {}, homedir: HOME }).ownConfig).toBe(false);
  });

  it.each([
    ['config', '--config is empty: give the path of a config file, or leave the option out to use the profile home'],
    ['home', '--home is empty: give a profile home directory, or leave the option out'],
    ['profile', '--profile is empty: give a profile name (a directory under <root>/profiles), or leave the option out'],
  ] as const)('an empty --%s is an error, never the default', (key, message) => {
    for (const value of ['', '  ']) {
      expect(() => locateConfig({ [key]: value, env: {}, homedir: HOME })).toThrow(new ConfigLocationError(message));
    }
    expect(() => locateConfig({ [key]: '', env: {}, homedir: HOME, naming: 'library' })).toThrow(`the \`${key}\` option is empty`);
  });

  it('names the profile from a home of the form <x>/profiles/<name>', () => {
    expect(locateConfig({ home: '/data/profiles/ops', env: {}, homedir: HOME }).profile).toBe('ops');
    expect(locateConfig({ env: { HERMES_HOME: '/home/ada/.hermes/profiles/lab' }, homedir: HOME }).profile).toBe('lab');
    expect(locateConfig({ config: '/home/ada/.hermes/profiles/lab/config.yaml', env: {}, homedir: HOME }).profile).toBe('default');
    expect(profileNameOf('/profiles')).toBe('default');
    expect(profileNameOf('/x/myprofiles/a')).toBe('default');
  });

  it('expands a leading ~ and resolves relative paths', () => {
    expect(locateConfig({ home: '~/alt', env: {}, homedir: HOME }).home).toBe('/home/ada/alt');
    expect(locateConfig({ config: '~/c.yaml', env: {}, homedir: HOME }).configFile).toBe('/home/ada/c.yaml');
    expect(locateConfig({ env: { HERMES_HOME: '~/.h' }, homedir: HOME }).root).toBe('/home/ada/.h');
    expect(locateConfig({ home: 'rel/dir', env: {}, homedir: HOME }).home).toBe(resolve('rel/dir'));
    expect(locateConfig({ home: '~user/x', env: {}, homedir: HOME }).home).toBe(resolve('~user/x'));
    expect(expandTilde('~', HOME)).toBe(HOME);
    expect(expandTilde('a/~/b', HOME)).toBe('a/~/b');
  });

  it('uses the real environment and home directory by default', () => {
    const loc = locateConfig();
    expect(loc.configFile).toBe(join(loc.home, 'config.yaml'));
  });

  it.each([['..'], ['.'], ['a/b'], ['../etc'], ['a\\b'], ['a\0b']])('refuses the profile name %j', (name) => {
    expect(() => locateConfig({ profile: name, env: {}, homedir: HOME })).toThrow(/invalid profile name/);
    expect(() => validateProfileName(name)).toThrow(Error);
  });

  it('accepts ordinary profile names', () => {
    for (const name of ['work', 'my-profile', 'p_2', '..hidden', 'a.b']) expect(() => validateProfileName(name)).not.toThrow();
  });
});
