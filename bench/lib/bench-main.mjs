// Shared entry for each benchmark script: `node bench/benchmarks/<name>.mjs --out FILE [--quick]`.
// The script's run() returns its result object; this writes it as JSON to FILE.
import { writeFileSync } from 'node:fs';

export async function benchMain(run) {
  const args = process.argv.slice(2);
  const outAt = args.indexOf('--out');
  const out = outAt >= 0 ? args[outAt + 1] : null;
  const quick = args.includes('--quick');
  const result = await run({ quick });
  const text = `${JSON.stringify(result, null, 2)}\n`;
  if (out) writeFileSync(out, text);
  else process.stdout.write(text);
}

/**
 * One row of the README table. `pass` is null when the figure has no target. `retry: false` marks
 * a miss that is deterministic (a design bound, not noise), so the runner does not repeat it.
 */
export function figure(label, value, unit, { target = null, pass = null, limit = null, note = null, retry = true } = {}) {
  return { label, value, unit, target, pass, limit, note, ...(retry ? {} : { retry: false }) };
}
