import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { loadPlugins, type LoadedPlugins } from '../../src/plugins/load.js';
import { captureLogger } from './_capture-logger.js';

const FIXTURES = fileURLToPath(new URL('../fixtures/plugins/', import.meta.url));
const homes: string[] = [];

/** A temp profile home whose plugins/ holds copies of the named fixture folders. */
async function homeWith(...names: string[]): Promise<string> {
  const home = await mkdtemp(path.join(tmpdir(), 'hh-plugins-'));
  homes.push(home);
  for (const n of names) await cp(path.join(FIXTURES, n), path.join(home, 'plugins', n), { recursive: true });
  return home;
}

const loaded: LoadedPlugins[] = [];
/** loadPlugins, with its workers stopped after the test. */
async function load(opts: Parameters<typeof loadPlugins>[0]): Promise<LoadedPlugins> {
  const r = await loadPlugins(opts);
  loaded.push(r);
  return r;
}

afterEach(async () => {
  await Promise.all(loaded.splice(0).map((l) => l.close()));
  await Promise.all(homes.splice(0).map((h) => rm(h, { recursive: true, force: true })));
});

describe('loadPlugins', () => {
  it('loads only enabled plugins, in directory-name order, with named callbacks', async () => {
    const home = await homeWith('alpha', 'beta', 'cjs-plugin');
    const logger = captureLogger();
    const { hooks, diagnostics } = await load({ home, enabled: ['beta', 'alpha'], safeMode: false, logger });
    expect(diagnostics).toEqual([]);
    expect(hooks.map((h) => [h.plugin, h.name, h.event])).toEqual([
      ['alpha', 'alpha.recall', 'pre_llm_call'],
      ['alpha', 'alpha.guard', 'pre_tool_call'],
      ['alpha', 'alpha.2', 'pre_tool_call'],
      ['beta', 'beta.0', 'pre_llm_call'],
      ['beta', 'beta.goodbye', 'on_session_finalize'],
    ]);
    // The registered functions are the plugin's own, callable with (kwargs, {signal}).
    const signal = new AbortController().signal;
    expect(await hooks[0]!.callback({}, { signal })).toBe('alpha context');
    expect(await hooks[3]!.callback({}, { signal })).toEqual({ context: 'beta context' });
  });

  it('loads nothing that is not enabled, and nothing at all in safe mode', async () => {
    const home = await homeWith('alpha', 'beta');
    const none = await load({ home, enabled: [], safeMode: false, logger: captureLogger() });
    expect([none.hooks, none.diagnostics]).toEqual([[], []]);
    const safe = await load({ home, enabled: ['alpha', 'beta'], safeMode: true, logger: captureLogger() });
    expect(safe.hooks).toEqual([]);
    expect(safe.diagnostics).toEqual([expect.objectContaining({ level: 'info', message: 'HERMES_SAFE_MODE is set: no plugins are loaded' })]);
  });

  it('a CommonJS index.js exporting register on module.exports loads', async () => {
    const home = await homeWith('cjs-plugin');
    const { hooks, diagnostics } = await load({ home, enabled: ['cjs-plugin'], safeMode: false, logger: captureLogger() });
    expect(diagnostics).toEqual([]);
    expect(hooks.map((h) => h.name)).toEqual(['cjs-plugin.0']);
  });

  it('skips broken plugins with a diagnostic and still loads the rest', async () => {
    const home = await homeWith('alpha', 'broken-manifest', 'throwing-register', 'python-only', 'bad-events');
    const logger = captureLogger();
    const { hooks, diagnostics } = await load({
      home,
      enabled: ['alpha', 'broken-manifest', 'throwing-register', 'python-only', 'bad-events', 'missing'],
      safeMode: false,
      logger,
    });
    // alpha loads fully; bad-events keeps its one valid hook; throwing-register keeps none of its;
    // python-only (a Hermes __init__.py plugin with a lambda) runs in its python3 worker.
    expect(hooks.map((h) => h.name)).toEqual(['alpha.recall', 'alpha.guard', 'alpha.2', 'bad-events.observe', 'python-only.0']);
    const messages = diagnostics.map((d) => d.message);
    const yamlError = 'YAML syntax error: Flow sequence in block collection must be sufficiently indented and end with a ]';
    // Every problem once, in full, and nothing else.
    expect([...messages].sort()).toEqual(
      [
        yamlError,
        `plugin broken-manifest skipped: invalid plugin.yaml: ${yamlError}`,
        'plugin throwing-register skipped: register() failed: RangeError: register exploded',
        "plugin bad-events registered a hook for unknown event 'pre_tool_cal' (did you mean 'pre_tool_call'?); ignored",
        'plugin bad-events registered a non-function for post_tool_call; ignored',
        `plugin missing skipped: ${home}/plugins/missing/plugin.yaml not found`,
      ].sort(),
    );
    // The YAML error points into the manifest file.
    const yamlErr = diagnostics.find((d) => d.message.startsWith('YAML syntax error'));
    expect(yamlErr?.file).toBe(path.join(home, 'plugins', 'broken-manifest', 'plugin.yaml'));
    expect(yamlErr?.line).toEqual(expect.any(Number));
    expect(logger.at('warn')).toContain('[plugins] Skipping throwing-register: register() failed: RangeError: register exploded');
  });

  it('a register() that never finishes is bounded and skipped', async () => {
    const home = await homeWith('hanging-register', 'alpha');
    const { hooks, diagnostics } = await load({
      home,
      enabled: ['hanging-register', 'alpha'],
      safeMode: false,
      logger: captureLogger(),
      // Generous: the same bound must let alpha's own import and register() finish on a loaded machine.
      registerTimeoutMs: 1000,
    });
    expect(hooks.map((h) => h.plugin)).toEqual(['alpha', 'alpha', 'alpha']);
    expect(diagnostics.map((d) => d.message)).toEqual([
      'plugin hanging-register skipped: register() failed: TimeoutError: register() did not finish within 1s',
    ]);
  });

  it('rejects an enabled name that is a path', async () => {
    const home = await homeWith('alpha');
    const { hooks, diagnostics } = await load({ home, enabled: ['../alpha'], safeMode: false, logger: captureLogger() });
    expect(hooks).toEqual([]);
    expect(diagnostics.map((d) => d.message)).toEqual(['plugin ../alpha skipped: a plugin name is a folder name under plugins/, not a path']);
  });

  it('a Python plugin naming its entry: __init__.py runs in python3; another .py entry is refused with the reason', async () => {
    const home = await homeWith('python-only');
    const { writeFile, mkdir } = await import('node:fs/promises');
    await writeFile(path.join(home, 'plugins', 'python-only', 'plugin.yaml'), 'name: python-only\nentry: __init__.py\n');
    await mkdir(path.join(home, 'plugins', 'odd'), { recursive: true });
    await writeFile(path.join(home, 'plugins', 'odd', 'plugin.yaml'), 'name: odd\nentry: main.py\n');
    await writeFile(path.join(home, 'plugins', 'odd', 'main.py'), 'def register(ctx):\n    pass\n');
    const { hooks, diagnostics } = await load({ home, enabled: ['python-only', 'odd'], safeMode: false, logger: captureLogger() });
    expect(hooks.map((h) => h.name)).toEqual(['python-only.0']);
    expect(diagnostics.map((d) => d.message)).toEqual(["plugin odd skipped: entry main.py: a Python plugin's entry is the folder's __init__.py"]);
    expect(await hooks[0]!.callback({ tool_name: 'x' }, { signal: new AbortController().signal })).toBeNull();
  });
});
