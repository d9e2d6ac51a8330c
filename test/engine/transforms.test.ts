// The transform and rewrite events return their result (issue 12): a real JS plugin and an unchanged
// Hermes-style Python plugin (real python3 worker), loaded from a
// temp profile home (plugins/xform, as src/plugins/load.ts loads it) and a real shell hook answer,
// and the Decision carries what the host must use, combined as Hermes combines it — through the
// library, through `test --json` (validated against the published schema) and through `run`.

import { Ajv2020 } from 'ajv/dist/2020.js';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { TTS_INVALID_DIRECTIVE, TTS_INVALID_SCRIPT, TTS_UNSTABLE } from '../../src/directives/transforms.js';
import type { HookEngine } from '../../src/engine/create-engine.js';
import type { EventName } from '../../src/events.js';
import { baseEnv, cleanupTemps, readJson, ROOT, runMain, writeScript } from '../cli/_helpers.js';
import { tempHome, testEngine } from './_helpers.js';

afterEach(cleanupTemps);

const ajv = new Ajv2020({ strict: true, allErrors: true });
const validateReport = ajv.compile(readJson<object>(join(ROOT, 'protocol/test-report.schema.json')));
const validateDecision = ajv.compile(readJson<object>(join(ROOT, 'protocol/decision.schema.json')));

// The plugin answers whatever kwargs.plugin_says holds (a second callback on the classification
// event answers kwargs.plugin_says_2); 'APPEND' on pre_tts_synthesis rewrites the script it got.
const PLUGIN = `
const events = ['transform_tool_result', 'transform_terminal_output', 'transform_llm_output',
  'pre_gateway_dispatch', 'pre_transcription', 'pre_tts_synthesis', 'transform_api_error_classification'];
export function register(ctx) {
  for (const event of events) {
    ctx.registerHook(event, function says(kwargs) {
      if (event === 'pre_tts_synthesis' && kwargs.plugin_says === 'APPEND') return { text: kwargs.text + '!' };
      return kwargs.plugin_says;
    });
  }
  ctx.registerHook('transform_api_error_classification', function second(kwargs) {
    return kwargs.plugin_says_2;
  });
}
`;

// The same, unchanged Hermes style: a Python plugin (plugin.yaml + __init__.py, register(ctx)).
const PY_PLUGIN = `
EVENTS = ["transform_tool_result", "transform_terminal_output", "transform_llm_output",
          "pre_gateway_dispatch", "pre_transcription", "pre_tts_synthesis", "transform_api_error_classification"]

def make(event):
    async def says(**kwargs):
        if event == "pre_tts_synthesis" and kwargs.get("py_says") == "APPEND":
            return {"text": kwargs["text"] + "!"}
        return kwargs.get("py_says")
    return says

def register(ctx):
    for event in EVENTS:
        ctx.register_hook(event, make(event))
`;

// The shell hook prints extra.shell_says as JSON (nothing when absent).
const SHELL = `#!/usr/bin/env python3
import json, sys
v = json.load(sys.stdin)["extra"].get("shell_says")
if v is not None:
    print(json.dumps(v))
`;

const SHELL_EVENTS: EventName[] = [
  'transform_tool_result',
  'transform_terminal_output',
  'transform_llm_output',
  'pre_gateway_dispatch',
  'pre_transcription',
  'pre_tts_synthesis',
];

/** A profile home with the xform plugin enabled and the shell hook on every event a shell hook may take. */
function makeProfile(): { home: string; hook: string } {
  const home = tempHome('hh-xform-');
  mkdirSync(join(home, 'plugins', 'xform'), { recursive: true });
  writeFileSync(join(home, 'plugins', 'xform', 'plugin.yaml'), 'name: xform\nentry: index.mjs\n');
  writeFileSync(join(home, 'plugins', 'xform', 'index.mjs'), PLUGIN);
  const hook = writeScript(join(home, 'says.py'), SHELL);
  const hooks = SHELL_EVENTS.map((e) => `  ${e}:\n    - command: ${JSON.stringify(hook)}\n`).join('');
  writeFileSync(join(home, 'config.yaml'), `plugins:\n  enabled: [xform]\nhooks:\n${hooks}`);
  return { home, hook };
}

let engine: HookEngine;
let home: string;
async function setup(): Promise<void> {
  home = makeProfile().home;
  engine = await testEngine(home);
}

const decide = async (event: EventName, kwargs: Record<string, unknown>) => {
  const e = await engine.emit(event, kwargs);
  expect(validateDecision(e.decision), JSON.stringify(validateDecision.errors)).toBe(true);
  return e.decision;
};

describe('transform_tool_result / _terminal_output / _llm_output: the first string answer wins', () => {
  it('transform_tool_result: a plugin\'s "" is a real answer and wins over the shell hook', async () => {
    await setup();
    expect(
      await decide('transform_tool_result', { result: '{"output":"x"}', plugin_says: '', shell_says: { action: 'rewrite', text: 'SHELL' } }),
    ).toMatchObject({
      action: 'rewrite',
      result: '',
      decided_by: 0,
    });
  });

  it('transform_tool_result: a plugin saying nothing (or a non-string) leaves it to the shell hook', async () => {
    await setup();
    for (const plugin_says of [null, { text: 'not a string' }, 42]) {
      expect(await decide('transform_tool_result', { plugin_says, shell_says: { action: 'rewrite', text: 'REPLACED RESULT' } })).toMatchObject({
        action: 'rewrite',
        result: 'REPLACED RESULT',
        decided_by: 1,
      });
    }
  });

  it('no answer: allow with result null', async () => {
    await setup();
    const d = await decide('transform_terminal_output', { output: 'hello\n' });
    expect(d).toMatchObject({ action: 'allow', result: null, decided_by: null });
    // The shell hook's Hermes-dialect {context} is not a replacement either.
    expect(await decide('transform_terminal_output', { shell_says: { context: 'only context' } })).toMatchObject({ action: 'allow', result: null });
  });

  it("transform_terminal_output: the plugin's string wins", async () => {
    await setup();
    expect(await decide('transform_terminal_output', { plugin_says: 'PLUGIN OUT', shell_says: { action: 'rewrite', text: 'SHELL OUT' } })).toMatchObject({
      action: 'rewrite',
      result: 'PLUGIN OUT',
      decided_by: 0,
    });
  });

  it('transform_llm_output: an empty string is no answer (first non-empty string wins)', async () => {
    await setup();
    expect(await decide('transform_llm_output', { plugin_says: '', shell_says: { action: 'rewrite', text: 'Rewritten reply.' } })).toMatchObject({
      action: 'rewrite',
      result: 'Rewritten reply.',
      decided_by: 1,
    });
    expect(await decide('transform_llm_output', { plugin_says: '', shell_says: { action: 'rewrite', text: '' } })).toMatchObject({
      action: 'allow',
      result: null,
    });
  });
});

describe('pre_gateway_dispatch: the first recognised skip / rewrite / allow decides', () => {
  it('an explicit allow first wins over a later skip', async () => {
    await setup();
    expect(await decide('pre_gateway_dispatch', { plugin_says: { action: 'allow' }, shell_says: { action: 'skip', reason: 'muted' } })).toMatchObject({
      action: 'allow',
      result: null,
      decided_by: 0,
    });
  });

  it('skip (with its reason as the message) and rewrite (with the new text as result)', async () => {
    await setup();
    expect(
      await decide('pre_gateway_dispatch', { plugin_says: { action: 'nonsense' }, shell_says: { action: 'skip', reason: 'unauthorized-dm' } }),
    ).toMatchObject({
      action: 'skip',
      message: 'unauthorized-dm',
      result: null,
      decided_by: 1,
    });
    expect(await decide('pre_gateway_dispatch', { plugin_says: { action: 'rewrite', text: 'combined buffer' }, shell_says: { action: 'skip' } })).toMatchObject(
      {
        action: 'rewrite',
        result: 'combined buffer',
        decided_by: 0,
      },
    );
  });
});

describe('pre_transcription: overrides applied in order, the last writer wins', () => {
  it('merges prompt / language / model from both, later per key; other keys are ignored', async () => {
    await setup();
    expect(
      await decide('pre_transcription', {
        plugin_says: { language: 'de', model: 'whisper-large', audio_path: '/ignored' },
        shell_says: { model: 'whisper-1', prompt: 'Names: Ada, Grace' },
      }),
    ).toMatchObject({
      action: 'rewrite',
      result: { language: 'de', model: 'whisper-1', prompt: 'Names: Ada, Grace' },
      modified_by: [0, 1],
      decided_by: 1,
    });
  });
});

describe('pre_tts_synthesis: fail-closed script rewrite, re-checked once', () => {
  it('a {text} rewrite that every hook accepts on the second pass is the script to speak', async () => {
    await setup();
    expect(await decide('pre_tts_synthesis', { text: 'Build 42 ok', plugin_says: { text: 'Build forty-two ok' } })).toMatchObject({
      action: 'rewrite',
      result: 'Build forty-two ok',
      decided_by: 0,
    });
  });

  it('a shell block stops synthesis with its message', async () => {
    await setup();
    expect(
      await decide('pre_tts_synthesis', { text: 'x', shell_says: { action: 'block', message: 'TTS contains unhandled numeric characters' } }),
    ).toMatchObject({
      action: 'block',
      message: 'TTS contains unhandled numeric characters',
      decided_by: 1,
    });
  });

  it('malformed answers fail closed', async () => {
    await setup();
    expect(await decide('pre_tts_synthesis', { text: 'x', plugin_says: 42 })).toMatchObject({ action: 'block', message: TTS_INVALID_DIRECTIVE, decided_by: 0 });
    expect(await decide('pre_tts_synthesis', { text: 'x', plugin_says: { text: 'y', voice: 'alloy' } })).toMatchObject({
      action: 'block',
      message: TTS_INVALID_SCRIPT,
    });
    expect(await decide('pre_tts_synthesis', { text: 'x', shell_says: { text: '   ' } })).toMatchObject({
      action: 'block',
      message: TTS_INVALID_SCRIPT,
      decided_by: 1,
    });
    // A shell observer printing {} or {context} does not silence speech.
    expect(await decide('pre_tts_synthesis', { text: 'x', shell_says: {} })).toMatchObject({ action: 'allow', result: null });
  });

  it('a rewrite the second pass changes again is blocked as unstable', async () => {
    await setup();
    expect(await decide('pre_tts_synthesis', { text: 'hello', plugin_says: 'APPEND' })).toMatchObject({ action: 'block', message: TTS_UNSTABLE, result: null });
  });
});

describe('transform_api_error_classification: run all, then the first valid {reason}', () => {
  it('an unknown reason is skipped; the valid one is sanitised (reason lower-cased, hints to bool, message trimmed)', async () => {
    await setup();
    const d = await decide('transform_api_error_classification', {
      status_code: 402,
      plugin_says: { reason: 'not-a-real-reason' },
      plugin_says_2: { reason: ' Billing ', retryable: 0, should_rotate_credential: 'yes', message: '  out of credit  ', extra: 1 },
    });
    expect(d).toMatchObject({ action: 'rewrite', decided_by: 1 });
    expect(d.result).toEqual({ reason: 'billing', retryable: false, should_rotate_credential: true, message: 'out of credit' });
  });

  it('the first valid one wins over a later valid one', async () => {
    await setup();
    const d = await decide('transform_api_error_classification', {
      plugin_says: { reason: 'rate_limit', error_context: { retry_after: 30 } },
      plugin_says_2: { reason: 'billing' },
    });
    expect(d).toMatchObject({ action: 'rewrite', decided_by: 0, result: { reason: 'rate_limit', error_context: { retry_after: 30 } } });
  });
});

describe('a Python plugin (real python3 worker) answers the same way', () => {
  /** A home with only the Python plugin (index 0) and the shell hook (index 1). */
  async function pySetup(): Promise<void> {
    home = tempHome('hh-xform-py-');
    mkdirSync(join(home, 'plugins', 'pyx'), { recursive: true });
    writeFileSync(join(home, 'plugins', 'pyx', 'plugin.yaml'), 'name: pyx\nversion: 1.0.0\n');
    writeFileSync(join(home, 'plugins', 'pyx', '__init__.py'), PY_PLUGIN);
    const hook = writeScript(join(home, 'says.py'), SHELL);
    const hooks = SHELL_EVENTS.map((e) => `  ${e}:\n    - command: ${JSON.stringify(hook)}\n`).join('');
    writeFileSync(join(home, 'config.yaml'), `plugins:\n  enabled: [pyx]\nhooks:\n${hooks}`);
    engine = await testEngine(home);
  }

  it('a Python str (incl. "") replaces the tool result; a Python None leaves it to the shell hook', async () => {
    await pySetup();
    expect(engine.hooksFor('transform_tool_result').map((h) => h.kind)).toEqual(['plugin', 'shell']);
    expect(await decide('transform_tool_result', { py_says: '', shell_says: { action: 'rewrite', text: 'SHELL' } })).toMatchObject({
      action: 'rewrite',
      result: '',
      decided_by: 0,
    });
    expect(await decide('transform_tool_result', { shell_says: { action: 'rewrite', text: 'SHELL' } })).toMatchObject({
      action: 'rewrite',
      result: 'SHELL',
      decided_by: 1,
    });
  });

  it('pre_gateway_dispatch, pre_transcription, transform_llm_output and the classification from Python', async () => {
    await pySetup();
    expect(await decide('pre_gateway_dispatch', { py_says: { action: 'skip', reason: 'handoff' } })).toMatchObject({
      action: 'skip',
      message: 'handoff',
      decided_by: 0,
    });
    expect(await decide('pre_transcription', { py_says: { language: 'fr' }, shell_says: { language: 'de' } })).toMatchObject({
      action: 'rewrite',
      result: { language: 'de' },
      modified_by: [0, 1],
    });
    expect(await decide('transform_llm_output', { py_says: 'Bonjour.' })).toMatchObject({ action: 'rewrite', result: 'Bonjour.', decided_by: 0 });
    expect(await decide('transform_api_error_classification', { py_says: { reason: 'OVERLOADED', should_fallback: 1 } })).toMatchObject({
      action: 'rewrite',
      result: { reason: 'overloaded', should_fallback: true },
      decided_by: 0,
    });
  });

  it('pre_tts_synthesis from Python: a stable {text} is spoken, an unstable one blocks', async () => {
    await pySetup();
    expect(await decide('pre_tts_synthesis', { text: 'a', py_says: { text: 'b' } })).toMatchObject({ action: 'rewrite', result: 'b', decided_by: 0 });
    expect(await decide('pre_tts_synthesis', { text: 'a', py_says: 'APPEND' })).toMatchObject({ action: 'block', message: TTS_UNSTABLE });
  });
});

describe('through the CLI', () => {
  it('test --json: the decision carries the result, and the report is valid', async () => {
    const { home: h } = makeProfile();
    const stdin = JSON.stringify({ extra: { result: '{"output":"secret"}', plugin_says: null, shell_says: { action: 'rewrite', text: '[redacted]' } } });
    const r = await runMain(['test', 'transform_tool_result', '--json', '--home', h], { stdin, env: baseEnv() });
    expect(r.code, r.stderr).toBe(0);
    const report = JSON.parse(r.stdout);
    expect(validateReport(report), JSON.stringify(validateReport.errors)).toBe(true);
    expect(report.decision).toMatchObject({ action: 'rewrite', result: '[redacted]', decided_by: 1 });
    expect(report.hooks.map((x: { kind: string; directive: unknown }) => [x.kind, x.directive])).toEqual([
      ['plugin', null],
      ['shell', { action: 'rewrite', text: '[redacted]' }],
    ]);
  });

  it("test --json: a Python plugin's pre_gateway_dispatch rewrite is the result", async () => {
    const h = tempHome('hh-xform-pycli-');
    mkdirSync(join(h, 'plugins', 'pyx'), { recursive: true });
    writeFileSync(join(h, 'plugins', 'pyx', 'plugin.yaml'), 'name: pyx\n');
    writeFileSync(join(h, 'plugins', 'pyx', '__init__.py'), PY_PLUGIN);
    writeFileSync(join(h, 'config.yaml'), 'plugins:\n  enabled: [pyx]\n');
    const stdin = JSON.stringify({ extra: { py_says: { action: 'rewrite', text: 'combined: a\nb' } } });
    const r = await runMain(['test', 'pre_gateway_dispatch', '--json', '--home', h], { stdin, env: baseEnv() });
    expect(r.code, r.stderr).toBe(0);
    const report = JSON.parse(r.stdout);
    expect(validateReport(report), JSON.stringify(validateReport.errors)).toBe(true);
    expect(report.hooks.map((x: { kind: string; directive: unknown }) => [x.kind, x.directive])).toEqual([
      ['plugin', { action: 'rewrite', text: 'combined: a\nb' }],
    ]);
    expect(report.decision).toMatchObject({ action: 'rewrite', result: 'combined: a\nb', decided_by: 0 });
  });

  it('test --json: a pre_gateway_dispatch skip from the plugin', async () => {
    const { home: h } = makeProfile();
    const stdin = JSON.stringify({ extra: { plugin_says: { action: 'skip', reason: 'ambient-buffered' } } });
    const r = await runMain(['test', 'pre_gateway_dispatch', '--json', '--home', h], { stdin, env: baseEnv() });
    expect(r.code, r.stderr).toBe(0);
    const report = JSON.parse(r.stdout);
    expect(validateReport(report), JSON.stringify(validateReport.errors)).toBe(true);
    expect(report.decision).toMatchObject({ action: 'skip', message: 'ambient-buffered', decided_by: 0 });
  });

  it('run: prints the decision with the result; a TTS block exits 2', async () => {
    const { home: h } = makeProfile();
    const ok = await runMain(['run', 'transform_llm_output', '--accept-hooks', '--home', h], {
      stdin: JSON.stringify({ extra: { response_text: 'hi', plugin_says: 'Hello there.' } }),
      env: baseEnv(),
    });
    expect(ok.code, ok.stderr).toBe(0);
    expect(JSON.parse(ok.stdout)).toMatchObject({ event: 'transform_llm_output', action: 'rewrite', result: 'Hello there.', decided_by: 0 });
    const blocked = await runMain(['run', 'pre_tts_synthesis', '--accept-hooks', '--home', h], {
      stdin: JSON.stringify({ extra: { text: '7 items', shell_says: { action: 'block', message: 'numbers' } } }),
      env: baseEnv(),
    });
    expect(blocked.code, blocked.stderr).toBe(2);
    expect(JSON.parse(blocked.stdout)).toMatchObject({ action: 'block', message: 'numbers', decided_by: 1 });
  });

  it('doctor: a shell answer the event honours is healthy; a TTS guard blocking the synthetic script is reported, not counted', async () => {
    const h = tempHome('hh-xform-doctor-');
    const rewrite = writeScript(join(h, 'rewrite.sh'), '#!/usr/bin/env bash\necho \'{"action":"rewrite","text":"X"}\'\n');
    const block = writeScript(join(h, 'block.sh'), '#!/usr/bin/env bash\necho \'{"action":"block","message":"no digits"}\'\n');
    writeFileSync(
      join(h, 'config.yaml'),
      `hooks:\n  transform_llm_output:\n    - command: ${rewrite}\n  pre_tts_synthesis:\n    - command: ${block}\n  post_tool_call:\n    - command: ${rewrite}\n`,
    );
    const env = baseEnv({ HERMES_HOME: h });
    expect((await runMain(['approve', '--all'], { env })).code).toBe(0);
    // --smoke-all: the post_tool_call hook below is an observer, run only when asked.
    const r = await runMain(['doctor', '--json', '--smoke-all'], { env });
    const report = JSON.parse(r.stdout);
    const checks = (event: string) => report.hooks.find((x: { event: string }) => x.event === event).checks as { ok: boolean | null; message: string }[];
    expect(checks('transform_llm_output')[2]).toMatchObject({
      ok: true,
      message: expect.stringMatching(/^answered \{"action":"rewrite","text":"X"\} on the synthetic payload/),
    });
    expect(checks('pre_tts_synthesis')[2]).toMatchObject({
      ok: null,
      message: expect.stringMatching(/— it blocks the synthetic call \(speaking "Your build finished successfully\."\); fine if it means to$/),
    });
    // The same answer on an observer event is read as nothing, and said (not counted: one script may serve both).
    expect(checks('post_tool_call')[2]).toMatchObject({
      ok: null,
      message: expect.stringMatching(/^answered 'rewrite', which post_tool_call does not honour \(it honours: nothing — observer only\) \(exit=0, [0-9.]+s\)$/),
    });
  });
});
