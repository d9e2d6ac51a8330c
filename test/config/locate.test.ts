import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { expandTilde, locateConfig, profileNameOf, validateProfileName } from '../../src/config/locate.js';

const HOME = '/home/ada';

describe('locateConfig precedence', () => {
  it('defaults to ~/.hermes', () => {
    expect(locateConfig({ env: {}, homedir: HOME })).toEqual({
      home: '/home/ada/.hermes',
      configFile: '/home/ada/.hermes/config.yaml',
      profile: 'default',
      root: '/home/ada/.hermes',
    });
  });

  it('$HERMES_HOME replaces ~/.hermes as home and root', () => {
    expect(locateConfig({ env: { HERMES_HOME: '/srv/hermes' }, homedir: HOME })).toEqual({
      home: '/srv/hermes',
      configFile: '/srv/hermes/config.yaml',
      profile: 'default',
      root: '/srv/hermes',
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
    });
  });

  it('--profile beats --home and lives under <root>/profiles', () => {
    expect(locateConfig({ profile: 'work', home: '/tmp/h', env: { HERMES_HOME: '/srv/hermes' }, homedir: HOME })).toEqual({
      home: '/srv/hermes/profiles/work',
      configFile: '/srv/hermes/profiles/work/config.yaml',
      profile: 'work',
      root: '/srv/hermes',
    });
    expect(locateConfig({ profile: 'work', env: {}, homedir: HOME }).home).toBe('/home/ada/.hermes/profiles/work');
  });

  it('--config beats everything; its directory is the home', () => {
    expect(locateConfig({ config: '/etc/x/hooks.yaml', profile: 'work', home: '/tmp/h', env: { HERMES_HOME: '/srv/hermes' }, homedir: HOME })).toEqual({
      home: '/etc/x',
      configFile: '/etc/x/hooks.yaml',
      profile: 'work',
      root: '/srv/hermes',
    });
    expect(locateConfig({ config: '/etc/x/hooks.yaml', env: {}, homedir: HOME }).profile).toBe('default');
  });

  it('names the profile from a home of the form <x>/profiles/<name>', () => {
    expect(locateConfig({ home: '/data/profiles/ops', env: {}, homedir: HOME }).profile).toBe('ops');
    expect(locateConfig({ env: { HERMES_HOME: '/home/ada/.hermes/profiles/lab' }, homedir: HOME }).profile).toBe('lab');
    expect(locateConfig({ config: '/home/ada/.hermes/profiles/lab/config.yaml', env: {}, homedir: HOME }).profile).toBe('lab');
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

  it.each([[''], ['..'], ['.'], ['a/b'], ['../etc'], ['a\\b'], ['a\0b']])('refuses the profile name %j', (name) => {
    expect(() => locateConfig({ profile: name, env: {}, homedir: HOME })).toThrow(/invalid profile name/);
    expect(() => validateProfileName(name)).toThrow(Error);
  });

  it('accepts ordinary profile names', () => {
    for (const name of ['work', 'my-profile', 'p_2', '..hidden', 'a.b']) expect(() => validateProfileName(name)).not.toThrow();
  });
});
