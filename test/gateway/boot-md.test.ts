import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { buildBootPrompt, createBootMdHook } from '../../src/gateway/boot-md.js';
import { createGatewayRegistry, loadGatewayHooks } from '../../src/gateway/gateway-hooks.js';
import { captureLogger } from '../plugins/_capture-logger.js';
import { tempHome, type TempHome } from './_home.js';

const homes: TempHome[] = [];
afterEach(async () => {
  await Promise.all(homes.splice(0).map((t) => t.cleanup()));
});
async function home(): Promise<TempHome> {
  const t = await tempHome();
  homes.push(t);
  return t;
}

describe('BOOT.md (built-in boot-md gateway hook)', () => {
  it('present: on gateway:startup its text goes to onBoot in the background', async () => {
    const t = await home();
    const logger = captureLogger();
    let resolveBoot!: (text: string) => void;
    const booted = new Promise<string>((r) => (resolveBoot = r));
    const hooks = await loadGatewayHooks({ home: t.home, logger, onBoot: (text) => resolveBoot(text) });
    // The file is looked at when the event fires, not at load: creating it afterwards works.
    await writeFile(path.join(t.home, 'BOOT.md'), '\n# Startup Checklist\n\nSend "Gateway restarted" to #general\n\n');
    hooks.emitGateway('gateway:startup', { platforms: ['telegram'] });
    expect(await booted).toBe('# Startup Checklist\n\nSend "Gateway restarted" to #general');
    await hooks.close();
    expect(logger.at('info')).toContain(`[hooks] boot-md: running ${path.join(t.home, 'BOOT.md')} in the background`);
  });

  it('absent: nothing is called and nothing is logged', async () => {
    const t = await home();
    const logger = captureLogger();
    const calls: string[] = [];
    const hooks = await loadGatewayHooks({ home: t.home, logger, onBoot: (text) => void calls.push(text) });
    hooks.emitGateway('gateway:startup', { platforms: [] });
    await hooks.close();
    await new Promise((r) => setImmediate(r));
    expect(calls).toEqual([]);
    expect(logger.lines.filter((l) => l.message.includes('boot-md'))).toEqual([]);
  });

  it('an empty BOOT.md does nothing; a failing onBoot is logged, never thrown; onBoot does not block the emission', async () => {
    const t = await home();
    const logger = captureLogger();
    await writeFile(path.join(t.home, 'BOOT.md'), '  \n');
    const calls: string[] = [];
    const registry = createGatewayRegistry([createBootMdHook({ home: t.home, logger, onBoot: (x) => void calls.push(x) })], logger);
    registry.emitGateway('gateway:startup', {});
    await registry.close();
    expect(calls).toEqual([]);

    await writeFile(path.join(t.home, 'BOOT.md'), 'check the cron jobs');
    let release!: () => void;
    const failing = createGatewayRegistry(
      [
        createBootMdHook({
          home: t.home,
          logger,
          onBoot: () => new Promise((_res, rej) => (release = () => rej(new Error('agent unavailable')))),
        }),
      ],
      logger,
    );
    failing.emitGateway('gateway:startup', {});
    // close() returns although the boot session (onBoot's promise) is still running.
    await failing.close(5_000);
    expect(logger.at('warn')).toEqual([]);
    release();
    await new Promise((r) => setImmediate(r));
    expect(logger.at('warn')).toEqual(['[hooks] boot-md: onBoot failed: Error: agent unavailable']);
  });

  it('found but no onBoot: an info line, no error', async () => {
    const t = await home();
    const logger = captureLogger();
    await writeFile(path.join(t.home, 'BOOT.md'), 'do things');
    const hooks = await loadGatewayHooks({ home: t.home, logger, bootMd: true });
    hooks.emitGateway('gateway:startup', {});
    await hooks.close();
    expect(logger.at('info')).toContain(`[hooks] boot-md: ${path.join(t.home, 'BOOT.md')} found, but the host has no onBoot handler; not run`);
    expect(logger.at('warn')).toEqual([]);
  });

  it('bootMd: false leaves the built-in out; buildBootPrompt wraps instructions like Hermes', async () => {
    const t = await home();
    const hooks = await loadGatewayHooks({ home: t.home, logger: captureLogger(), bootMd: false, onBoot: () => {} });
    expect(hooks.handlers).toEqual([]);
    await hooks.close();
    const prompt = buildBootPrompt('check logs');
    expect(prompt).toBe(
      'You are running a startup boot checklist. Follow the BOOT.md instructions below exactly.\n\n' +
        '---\ncheck logs\n---\n\n' +
        'If nothing needs attention, reply with ONLY: [SILENT]',
    );
  });
});
