// `hermes-hooks run [<their event>] --dialect AGENT`: be another agent's hook command. Read its
// stdin, run our profile's hooks (consent, timeouts, concurrency, fail_closed), answer in its protocol.

import { parseDialectInput, renderDialectAnswer } from '../dialects/answer.js';
import { parseDialectsConfig } from '../dialects/names.js';
import { stderrLogger } from '../engine/logger.js';
import type { Dialect } from '../types.js';
import { readAllStdin, type CliIO } from './_io.js';
import { withRunEngine } from './_run-engine.js';

export async function runDialect(
  dialect: Dialect,
  theirEvent: string | null,
  values: Record<string, unknown>,
  io: CliIO,
): Promise<number> {
  const text = (await readAllStdin(io)) ?? '';
  let stdin: unknown = {};
  if (text.trim()) {
    try {
      stdin = JSON.parse(text);
    } catch (e) {
      io.stderr.write(`hermes-hooks: invalid ${dialect} hook input on stdin: ${(e as Error).message}\n`);
      return 1;
    }
  }
  // Warnings are held until the answer is known: Codex takes ALL of stderr as the block reason
  // (exit 2), so there the reason goes alone; everywhere else they follow on stderr as usual.
  const warnings: string[] = [];
  const flushWarnings = (): void => {
    const log = stderrLogger({ stream: io.stderr });
    for (const w of warnings.splice(0)) log.warn(w);
  };
  const holdWarnings = { warn: (m: string) => warnings.push(m), info: () => {}, debug: () => {} };
  return withRunEngine(values, io, holdWarnings, async (engine) => {
    const maps = parseDialectsConfig(engine.config.source).maps;
    const parsed = parseDialectInput(dialect as never, maps, stdin, theirEvent ? { event: theirEvent } : {});
    if ('error' in parsed) {
      flushWarnings();
      io.stderr.write(`hermes-hooks: ${parsed.error}\n`);
      return 1;
    }
    // Their `cwd` (Cursor: the first workspace root) is the agent's working directory: it is the
    // payload's cwd, so every hook, in every dialect, sees the agent's folder rather than ours.
    const { cwd, ...kwargs } = parsed.kwargs;
    const roots = kwargs['workspace_roots'];
    const agentCwd = typeof cwd === 'string' ? cwd : Array.isArray(roots) && typeof roots[0] === 'string' ? roots[0] : undefined;
    if (cwd !== undefined && agentCwd !== cwd) kwargs['cwd'] = cwd;
    const emission = await engine.emit(parsed.event, kwargs, agentCwd !== undefined ? { payloadCwd: agentCwd } : {});
    const toolName = typeof parsed.kwargs.tool_name === 'string' ? parsed.kwargs.tool_name : null;
    const answer = renderDialectAnswer(dialect as never, maps, parsed.theirEvent, emission.decision, toolName);
    if (dialect === 'codex' && answer.exitCode === 2) warnings.length = 0;
    flushWarnings();
    if (answer.stdout) io.stdout.write(answer.stdout.endsWith('\n') ? answer.stdout : `${answer.stdout}\n`);
    if (answer.stderr) io.stderr.write(answer.stderr.endsWith('\n') ? answer.stderr : `${answer.stderr}\n`);
    return answer.exitCode;
  });
}
